"""What each Lambda layer installs, read from pyproject.toml so the dependencies are listed once.

    python layers/requirements.py core          # [project].dependencies without boto3/botocore
    python layers/requirements.py documents     # [project.optional-dependencies].documents

prints one requirement per line. With `--resolved REPORT` (a `pip install --dry-run --report` JSON file,
or - for stdin) it prints instead the pinned distributions (`name==version`) of that resolution that the
group needs on Lambda (CPython 3.12, Linux, aarch64): the closure of the group's requirements, walked
without ever entering boto3 or botocore. The layer Makefiles install these pins with `--no-deps`, so
neither the SDK nor what only the SDK needs (s3transfer, urllib3, python-dateutil, six) lands in a
layer: the Lambda runtime provides them, and copies in a layer would shadow the runtime's own.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

# Provided by the Lambda Python runtime: never shipped in a layer.
RUNTIME_PROVIDED = frozenset({"boto3", "botocore"})

# The marker environment of the target: the python3.12 runtime on arm64 (Amazon Linux 2023).
TARGET_ENVIRONMENT = {
    "implementation_name": "cpython",
    "implementation_version": "3.12.0",
    "os_name": "posix",
    "platform_machine": "aarch64",
    "platform_python_implementation": "CPython",
    "platform_release": "",
    "platform_system": "Linux",
    "platform_version": "",
    "python_full_version": "3.12.0",
    "python_version": "3.12",
    "sys_platform": "linux",
}

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return canonical(match.group(1))


def group_requirements(group: str, pyproject: Path = PYPROJECT) -> list[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    if group == "core":
        requirements: list[str] = project["dependencies"]
        return [item for item in requirements if requirement_name(item) not in RUNTIME_PROVIDED]
    if group == "documents":
        documents: list[str] = project["optional-dependencies"]["documents"]
        return list(documents)
    raise ValueError(f"unknown group {group!r}: core or documents")


def resolved_pins(requirements: Iterable[str], report: Mapping[str, Any]) -> list[str]:
    """The `name==version` pins of pip's resolution `report` that `requirements` need on the target."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip vendors it: it is there whenever pip is
        from pip._vendor.packaging.requirements import Requirement  # type: ignore[assignment]

    resolved: dict[str, dict[str, Any]] = {
        canonical(item["metadata"]["name"]): item["metadata"] for item in report["install"]
    }
    needed: set[str] = set()
    seen: set[tuple[str, str]] = set()
    pending: list[tuple[str, str]] = []  # (distribution, extra or "")

    def require(text: str, extra: str, wanted_by: str) -> None:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(
            {**TARGET_ENVIRONMENT, "extra": extra}
        ):
            return
        name = canonical(requirement.name)
        if name in RUNTIME_PROVIDED:
            return
        if name not in resolved:
            raise SystemExit(
                f"{name} (needed by {wanted_by} on Lambda) is not in pip's resolution: pip evaluated the "
                "environment markers for the build machine, not for CPython 3.12 on aarch64"
            )
        for key in ("", *sorted(requirement.extras)):
            if (name, key) not in seen:
                seen.add((name, key))
                pending.append((name, key))

    for text in requirements:
        require(text, "", "pyproject.toml")
    while pending:
        name, extra = pending.pop()
        needed.add(name)
        for text in resolved[name].get("requires_dist") or []:
            require(text, extra, name)
    return [f"{resolved[name]['name']}=={resolved[name]['version']}" for name in sorted(needed)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("group", choices=["core", "documents"])
    parser.add_argument(
        "--resolved", metavar="REPORT", help="pip's --report JSON of the resolution (- for stdin)"
    )
    arguments = parser.parse_args(argv)

    requirements = group_requirements(arguments.group)
    if arguments.resolved is not None:
        text = sys.stdin.read() if arguments.resolved == "-" else Path(arguments.resolved).read_text("utf-8")
        requirements = resolved_pins(requirements, json.loads(text))
    for line in requirements:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

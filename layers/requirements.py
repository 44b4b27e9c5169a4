"""What each Lambda layer installs, read from pyproject.toml so the dependencies are listed once.

    python layers/requirements.py core          # [project].dependencies without boto3/botocore
    python layers/requirements.py documents     # [project.optional-dependencies].documents

prints one requirement per line. With `--lock REPORT` (a `pip install --dry-run --report` JSON file of
the resolution of those requirements for the target, or - for stdin) it prints instead the group's lock
file (layers/<group>/requirements.lock): the distributions the group needs on Lambda (CPython 3.12, Linux,
aarch64), that is the closure of its requirements walked without ever entering boto3 or botocore, so
neither the SDK nor what only the SDK needs (s3transfer, urllib3, python-dateutil, six) lands in a layer
(the Lambda runtime provides them, and copies in a layer would shadow the runtime's own). Each is pinned
with the sha256 of every wheel PyPI has of that version for the target (PyPI's JSON API) and `# via` what
brought it in. `make lock` writes both locks; the layer Makefiles install from them only (`--no-deps
--require-hashes`), so a build installs exactly what was locked, and tests/infra/test_locks.py fails when
pyproject.toml asks for something its group's lock does not hold.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tomllib
import urllib.request
from collections.abc import Callable, Iterable, Mapping
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

# The wheels the layer Makefiles accept (layer.mk's PLATFORM): CPython 3.12, manylinux up to glibc 2.28.
TARGET_PYTHON = (3, 12)
TARGET_PLATFORMS = [f"manylinux_2_{minor}_aarch64" for minor in range(28, 16, -1)] + ["manylinux2014_aarch64"]
PYPI_JSON = "https://pypi.org/pypi/{name}/json"

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


def resolved_closure(requirements: Iterable[str], report: Mapping[str, Any]) -> dict[str, set[str]]:
    """What `requirements` need on the target from pip's resolution `report`: each distribution (canonical
    name) with what asked for it (distributions, or "pyproject.toml")."""
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip vendors it: it is there whenever pip is
        from pip._vendor.packaging.requirements import Requirement  # type: ignore[assignment]

    resolved = _resolved(report)
    needed: dict[str, set[str]] = {}
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
        needed.setdefault(name, set()).add(wanted_by)
        for key in ("", *sorted(requirement.extras)):
            if (name, key) not in seen:
                seen.add((name, key))
                pending.append((name, key))

    for text in requirements:
        require(text, "", "pyproject.toml")
    while pending:
        name, extra = pending.pop()
        for text in resolved[name]["metadata"].get("requires_dist") or []:
            require(text, extra, name)
    return needed


def _resolved(report: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {canonical(item["metadata"]["name"]): item for item in report["install"]}


def target_wheel(filename: str) -> bool:
    """Whether the wheel `filename` installs on the target (CPython 3.12, manylinux aarch64)."""
    try:
        from packaging.tags import compatible_tags, cpython_tags
        from packaging.utils import parse_wheel_filename
    except ImportError:  # pip vendors it: it is there whenever pip is
        from pip._vendor.packaging.tags import compatible_tags, cpython_tags  # type: ignore[assignment]
        from pip._vendor.packaging.utils import parse_wheel_filename  # type: ignore[assignment]

    if not filename.endswith(".whl"):
        return False
    target = {
        *cpython_tags(TARGET_PYTHON, platforms=TARGET_PLATFORMS),
        *compatible_tags(TARGET_PYTHON, "cp312", TARGET_PLATFORMS),
    }
    return not target.isdisjoint(parse_wheel_filename(filename)[3])


def pypi_files(name: str, version: str) -> list[dict[str, Any]]:
    """The files PyPI holds of one release: filename and digests of each."""
    url = PYPI_JSON.format(name=name)
    with urllib.request.urlopen(url, timeout=60) as answer:  # noqa: S310 - a fixed https address
        files: list[dict[str, Any]] = json.load(answer)["releases"].get(version, [])
    return files


def lock_file(
    group: str,
    requirements: list[str],
    report: Mapping[str, Any],
    files_of: Callable[[str, str], list[dict[str, Any]]] = pypi_files,
) -> str:
    """The lock file of `group`: its pins, with the hashes of every wheel of each for the target."""
    resolved = _resolved(report)
    lines = [
        f"# The {group} layer: what `python layers/requirements.py {group}` requires (pyproject.toml),",
        "# resolved for CPython 3.12 on manylinux aarch64 (python3.12 on arm64 Lambda), without boto3 and",
        "# botocore and what only they need. Written by `make lock`; the layer's build installs exactly this",
        "# (--no-deps --require-hashes), so change pyproject.toml, then run `make lock`, never edit it.",
        *(f"#   {requirement}" for requirement in requirements),
    ]
    for name, wanted_by in sorted(resolved_closure(requirements, report).items()):
        item = resolved[name]
        metadata = item["metadata"]
        hashes = sorted(
            entry["digests"]["sha256"]
            for entry in files_of(metadata["name"], metadata["version"])
            if target_wheel(entry["filename"])
        )
        chosen = item.get("download_info", {}).get("archive_info", {}).get("hashes", {}).get("sha256")
        if not hashes or (chosen is not None and chosen not in hashes):
            raise SystemExit(
                f"{name} {metadata['version']}: PyPI lists no wheel for the target that pip chose"
            )
        lines.append(f"{name}=={metadata['version']} \\")
        lines.extend(
            f"    --hash=sha256:{digest}" + (" \\" if digest != hashes[-1] else "") for digest in hashes
        )
        lines.extend(f"    # via {source}" for source in sorted(wanted_by))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("group", choices=["core", "documents"])
    parser.add_argument(
        "--lock",
        metavar="REPORT",
        help="the lock file of pip's --report JSON of the resolution (- for stdin)",
    )
    arguments = parser.parse_args(argv)

    requirements = group_requirements(arguments.group)
    if arguments.lock is None:
        print("\n".join(requirements))
        return 0
    source = arguments.lock
    report = json.loads(sys.stdin.read() if source == "-" else Path(source).read_text("utf-8"))
    print(lock_file(arguments.group, requirements, report), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Deployment sizes: each function of template.yaml with its layers, unzipped, from `sam build`'s output.

    make build && .venv/bin/python bench/function_sizes.py [--build-dir .aws-sam/build] [--json PATH]

Reads the artefacts `make build` wrote (the function's CodeUri and the ContentUri of each layer it
gets: those of Globals, then its own) and adds up the bytes of their files, as Lambda counts them
unzipped (a symbolic link counts as itself, as tests/infra/test_deployability.py counts it). Also
prints the function's and its layers' artefacts each deflated into a zip in memory (level 6), added
up: roughly what is uploaded.

Checks: every function with its layers <= 250 MB unzipped (Lambda's limit); API functions (those with
an HttpApi event) <= 50 MB unzipped (this project's budget for request-path functions). Without
build artefacts it says to run `make build` first and exits 2. The exit code is 0 whether or not the
checks pass.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from docsvc.local.template import load_template  # noqa: E402

MB = 1024 * 1024
ALL_LIMIT, API_LIMIT = 250 * MB, 50 * MB


def tree_files(path: Path) -> list[Path]:
    return sorted(item for item in path.rglob("*") if item.is_file() or item.is_symlink())


def unzipped_size(path: Path) -> int:
    return sum(item.lstat().st_size for item in tree_files(path))


def zipped_size(path: Path) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for item in tree_files(path):
            if item.is_file() and not item.is_symlink():
                archive.write(item, str(item.relative_to(path)))
    return buffer.tell()


def layers_of(template: dict[str, Any], function: str) -> list[str]:
    """The layers a function gets: those of Globals, then its own, each once (SAM concatenates them)."""
    shared = template.get("Globals", {}).get("Function", {}).get("Layers", [])
    own = template["Resources"][function]["Properties"].get("Layers", [])
    names: list[str] = []
    for layer in [*shared, *own]:
        name = layer["Ref"] if isinstance(layer, dict) and "Ref" in layer else str(layer)
        if name not in names:
            names.append(name)
    return names


def is_api(resource: dict[str, Any]) -> bool:
    events = resource["Properties"].get("Events") or {}
    return any(event.get("Type") == "HttpApi" for event in events.values())


def artefact(build: Path, built: dict[str, Any], logical_id: str) -> Path:
    properties = built["Resources"][logical_id]["Properties"]
    uri = properties.get("ContentUri") or properties.get("CodeUri")
    path = build / str(uri)
    if not path.is_dir():
        raise FileNotFoundError(f"{logical_id}: {uri} is not in the build folder; run `make build` again")
    return path


def measure(build: Path, zipped: bool) -> list[dict[str, Any]]:
    source = load_template(ROOT / "template.yaml")
    built = load_template(build / "template.yaml")
    functions = sorted(
        logical_id
        for logical_id, resource in source["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    )
    sizes: dict[str, int] = {}
    zips: dict[str, int] = {}
    rows = []
    for function in functions:
        parts = [function, *layers_of(source, function)]
        for part in parts:
            if part not in sizes:
                sizes[part] = unzipped_size(artefact(build, built, part))
                zips[part] = zipped_size(artefact(build, built, part)) if zipped else 0
        total = sum(sizes[part] for part in parts)
        api = is_api(source["Resources"][function])
        limit = API_LIMIT if api else ALL_LIMIT
        rows.append(
            {
                "function": function,
                "api": api,
                "layers": parts[1:],
                "code_bytes": sizes[function],
                "unzipped_bytes": total,
                "zipped_bytes": sum(zips[part] for part in parts) if zipped else None,
                "limit_bytes": limit,
                "passed": total <= limit,
            }
        )
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    columns = f"{'code MB':>8} {'total MB':>9} {'zip MB':>7} {'limit':>6}"
    print(f"{'function':<26} {'kind':<7} {'layers':<26} {columns}")
    for row in rows:
        zipped = f"{row['zipped_bytes'] / MB:>7.1f}" if row["zipped_bytes"] is not None else f"{'-':>7}"
        print(
            f"{row['function']:<26} {'API' if row['api'] else 'worker':<7} {'+'.join(row['layers']):<26} "
            f"{row['code_bytes'] / MB:>8.2f} {row['unzipped_bytes'] / MB:>9.1f} {zipped} "
            f"{row['limit_bytes'] / MB:>4.0f} MB  {'PASS' if row['passed'] else 'FAIL'}"
        )
    largest = max(rows, key=lambda row: row["unzipped_bytes"])
    api = [row for row in rows if row["api"]]
    largest_api = max(api, key=lambda row: row["unzipped_bytes"]) if api else None
    fits = all(r["unzipped_bytes"] <= ALL_LIMIT for r in rows)
    print(
        f"\n{'met' if fits else 'not met'}: every function with its layers <= 250 MB unzipped "
        f"(largest {largest['function']}, {largest['unzipped_bytes'] / MB:.1f} MB)"
    )
    if largest_api is not None:
        failing = [row["function"] for row in api if not row["passed"]]
        print(
            f"{'met' if not failing else 'not met'}: API functions <= 50 MB unzipped "
            f"(largest {largest_api['function']}, {largest_api['unzipped_bytes'] / MB:.1f} MB"
            + (f"; over: {', '.join(failing)})" if failing else ")")
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--build-dir", type=Path, default=ROOT / ".aws-sam" / "build", help="sam build's output"
    )
    parser.add_argument("--no-zip", action="store_true", help="skip the zipped sizes (faster)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()
    if not (arguments.build_dir / "template.yaml").is_file():
        print(f"no build artefacts in {arguments.build_dir}: run `make build` first", file=sys.stderr)
        return 2
    rows = measure(arguments.build_dir, zipped=not arguments.no_zip)
    report(rows)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps({"functions": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

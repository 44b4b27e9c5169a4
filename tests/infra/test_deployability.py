"""The deployment builds and lints: cfn-lint on template.yaml, and `sam build` without Docker (the Makefiles
of layers/ and functions/) with its artefacts checked: the platform of every shared object, what the layers
hold, what each function ships, and Lambda's size limits. The build runs once per session."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from docsvc.domain.parses import OCR_LANGUAGES as OCR_LANGUAGE_CODES
from docsvc.local.template import load_template

from tests.conftest import ROOT, TEMPLATE

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

BIN = Path(sys.executable).parent
MB = 1024 * 1024
OCR_LANGUAGES = OCR_LANGUAGE_CODES.values()  # what the documents layer carries for OCR
FUNCTION_AND_LAYERS_LIMIT = 250 * MB  # Lambda: a function and all its layers, unzipped
CORE_LAYER_LIMIT = 50 * MB  # ours: the layer every function loads
API_FUNCTION_LIMIT = 50 * MB  # ours: a function behind the API, with its layers
EM_AARCH64 = 183  # ELF e_machine of arm64 (Graviton)
RUNTIME_PROVIDED = {"boto3", "botocore"}
RUNTIME_VERSION = re.findall(
    r"^RUNTIME_VERSION := (\S+)$", (ROOT / "layers" / "runtime.mk").read_text(encoding="utf-8"), re.MULTILINE
)[0]

PROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SOURCE: dict[str, Any] = load_template(TEMPLATE)
FUNCTIONS = sorted(
    logical_id
    for logical_id, resource in SOURCE["Resources"].items()
    if resource["Type"] == "AWS::Serverless::Function"
)


def tree_size(path: Path) -> int:
    """Unzipped size: the bytes of every file (symbolic links count as themselves)."""
    return sum(item.lstat().st_size for item in path.rglob("*") if item.is_file() or item.is_symlink())


def elf_machine(path: Path) -> int | None:
    """The e_machine of an ELF file (little-endian, as on Lambda), None if the file is no ELF file."""
    with path.open("rb") as handle:
        header = handle.read(20)
    if len(header) < 20 or header[:4] != b"\x7fELF":
        return None
    return int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def requirement_names(requirements: list[str]) -> set[str]:
    return {normalised(re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0]) for requirement in requirements}


def distribution_names(site: Path) -> set[str]:
    """Top-level import packages and installed distributions of a layer's python/ folder, normalised."""
    names = set()
    for entry in site.iterdir():
        name = entry.name.split("-")[0] if entry.name.endswith((".dist-info", ".egg-info")) else entry.stem
        names.add(normalised(name))
    return names


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """`sam build` into a fresh folder, as `make build` does it: no Docker, the venv first on PATH.

    --no-cached: sam's cache key is the layer folder and its Makefile, not pyproject.toml, so a cached layer
    would hide a change of the dependencies. pip's own wheel cache keeps the build fast."""
    base = tmp_path_factory.mktemp("sam")
    build_dir = base / "build"
    environment = {
        **os.environ,
        "SAM_CLI_TELEMETRY": "0",
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHON": sys.executable,  # the layer Makefiles' interpreter: this venv's, with its pip
        "DOCKER_HOST": "unix:///nonexistent/docker.sock",  # the build must never need a container
    }
    command = [
        str(BIN / "sam"),
        "build",
        "--template-file",
        str(TEMPLATE),
        "--build-dir",
        str(build_dir),
        "--no-cached",
        "--parallel",
    ]

    result = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=840)

    output = f"{result.stdout[-6000:]}\n{result.stderr[-6000:]}"
    assert result.returncode == 0, f"sam build exited {result.returncode}:\n{output}"
    yield build_dir
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def built(build: Path) -> dict[str, Any]:
    """The template sam writes next to the artefacts: CodeUri/ContentUri point into the build folder."""
    return load_template(build / "template.yaml")


def artefact(build: Path, built: dict[str, Any], logical_id: str) -> Path:
    props = built["Resources"][logical_id]["Properties"]
    uri = props.get("ContentUri") or props.get("CodeUri")
    assert isinstance(uri, str), f"{logical_id}: no local artefact in the built template ({uri!r})"
    path = (build / uri).resolve()
    assert path.is_dir(), f"{logical_id}: {path} was not built"
    return path


def layers_of(template: dict[str, Any], function: str) -> list[str]:
    """The layers a function gets: Globals' then its own (SAM concatenates lists), each once."""
    globals_ = template.get("Globals", {}).get("Function", {}).get("Layers", [])
    own = template["Resources"][function]["Properties"].get("Layers", [])
    layers = []
    for layer in [*globals_, *own]:
        assert isinstance(layer, dict) and "Ref" in layer, (
            f"{function}: layer {layer!r} is not of this template"
        )
        if layer["Ref"] not in layers:
            layers.append(layer["Ref"])
    return layers


# ---------------------------------------------------------------------------- lint


def test_cfn_lint_passes() -> None:
    result = subprocess.run(
        [str(BIN / "cfn-lint"), str(TEMPLATE.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )

    output = f"{result.stdout}{result.stderr}"
    assert result.returncode == 0, f"cfn-lint exited {result.returncode}:\n{output}"


# ---------------------------------------------------------------------------- build


def test_every_shared_object_is_built_for_arm64(build: Path) -> None:
    machines = {
        path: elf_machine(path) for path in build.rglob("*") if path.is_file() and not path.is_symlink()
    }
    shared_objects = {path: machine for path, machine in machines.items() if machine is not None}

    assert shared_objects, "no shared object at all: were the wheels installed?"
    wrong = sorted(
        str(path.relative_to(build)) for path, machine in shared_objects.items() if machine != EM_AARCH64
    )
    assert wrong == [], f"not arm64 (aarch64): {wrong}"


def test_core_layer_holds_docsvc_without_its_dev_parts_and_without_the_aws_sdk(
    build: Path, built: dict[str, Any]
) -> None:
    site = artefact(build, built, "CoreLayer") / "python"

    assert (site / "docsvc" / "__init__.py").is_file()
    assert not (site / "docsvc" / "local").exists(), "the local stack is dev-only"
    assert not (site / "docsvc" / "admin").exists(), "the admin CLI is dev-only"
    assert (site / "docsvc_client" / "webhooks.py").is_file(), (
        "deliveries are signed with the client's module"
    )
    assert not (site / "docsvc_client" / "cli").exists(), "the command line runs on users' machines only"
    names = distribution_names(site)
    assert names & RUNTIME_PROVIDED == set(), "boto3/botocore come with the Lambda runtime"
    missing = requirement_names(PROJECT["dependencies"]) - RUNTIME_PROVIDED - names
    assert missing == set(), f"pyproject's dependencies missing from the layer: {sorted(missing)}"


def test_documents_layer_holds_the_documents_extra(build: Path, built: dict[str, Any]) -> None:
    site = artefact(build, built, "DocumentsLayer") / "python"

    names = distribution_names(site)

    missing = requirement_names(PROJECT["optional-dependencies"]["documents"]) - names
    assert missing == set(), f"the documents extra missing from the layer: {sorted(missing)}"
    assert names & ({"docsvc"} | RUNTIME_PROVIDED) == set()


def test_only_bytecode_of_the_runtime_ships(build: Path) -> None:
    """With Python 3.12 on the build machine every module has its .pyc; without, none has (this machine)."""
    runtime_tag = "cpython-" + RUNTIME_VERSION.replace(".", "")
    bytecode = [path for path in build.rglob("*") if path.suffix in {".pyc", ".pyo"}]

    foreign = [str(path.relative_to(build)) for path in bytecode if f".{runtime_tag}." not in path.name]
    assert foreign == [], f"bytecode of another Python than the runtime's ({runtime_tag}): {foreign[:10]}"


def build_function(artifacts: Path, *settings: str) -> subprocess.CompletedProcess[str]:
    makefile = ROOT / "functions" / "auth_api" / "Makefile"
    command = ["make", "--makefile", str(makefile), "build-AuthApiFunction", f"ARTIFACTS_DIR={artifacts}"]
    return subprocess.run(
        [*command, *settings],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_an_interpreter_of_the_runtimes_version_writes_unchecked_bytecode_for_every_module(
    tmp_path: Path,
) -> None:
    # This machine has no Python 3.12: the build is told that its own interpreter is the runtime's.
    this_version = f"{sys.version_info.major}.{sys.version_info.minor}"

    build_function(tmp_path, f"RUNTIME_PYTHON={sys.executable}", f"RUNTIME_VERSION={this_version}")

    package = tmp_path / "auth_api"
    modules = sorted(package.glob("*.py"))
    assert modules
    for module in modules:
        compiled = package / "__pycache__" / f"{module.stem}.{sys.implementation.cache_tag}.pyc"
        assert compiled.is_file(), f"no bytecode for {module.name}"
        flags = int.from_bytes(compiled.read_bytes()[4:8], "little")
        assert flags == 0b01, f"{compiled.name}: not hash-based and unchecked (flags {flags:#b})"


def test_without_an_interpreter_of_the_runtimes_version_the_build_says_it_ships_no_bytecode(
    tmp_path: Path,
) -> None:
    result = build_function(tmp_path, f"RUNTIME_PYTHON={sys.executable}")

    assert (tmp_path / "auth_api" / "handler.py").is_file()
    assert list(tmp_path.rglob("*.pyc")) == []
    assert f"no Python {RUNTIME_VERSION}" in result.stderr
    assert "ships without bytecode" in result.stderr


@pytest.mark.parametrize("function", FUNCTIONS)
def test_function_artefact_is_its_package_with_the_handler(
    function: str, build: Path, built: dict[str, Any]
) -> None:
    handler = (
        SOURCE["Resources"][function]["Properties"].get("Handler") or SOURCE["Globals"]["Function"]["Handler"]
    )
    module = handler.rpartition(".")[0]
    code = artefact(build, built, function)

    path = code / module.replace(".", "/")

    assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), f"{function}: no {module}"
    assert sorted(entry.name for entry in code.iterdir()) == [module.split(".")[0]], (
        f"{function} ships more than its package: {sorted(entry.name for entry in code.iterdir())}"
    )


@pytest.mark.parametrize("function", FUNCTIONS)
def test_function_and_its_layers_fit_lambdas_unzipped_limit(
    function: str, build: Path, built: dict[str, Any]
) -> None:
    sizes = {
        name: tree_size(artefact(build, built, name)) for name in [function, *layers_of(SOURCE, function)]
    }

    total = sum(sizes.values())

    described = ", ".join(f"{name} {size / MB:.1f} MB" for name, size in sizes.items())
    assert total <= FUNCTION_AND_LAYERS_LIMIT, f"{function}: {total / MB:.1f} MB unzipped ({described})"


API_FUNCTIONS = [
    function
    for function in FUNCTIONS
    if any(
        event.get("Type") == "HttpApi"
        for event in SOURCE["Resources"][function]["Properties"].get("Events", {}).values()
    )
]


@pytest.mark.parametrize("function", API_FUNCTIONS)
def test_api_functions_stay_small(function: str, build: Path, built: dict[str, Any]) -> None:
    """Documents are read by DocumentReaderFunction: no function behind the API carries PyMuPDF."""
    names = [function, *layers_of(SOURCE, function)]

    total = sum(tree_size(artefact(build, built, name)) for name in names)

    assert total <= API_FUNCTION_LIMIT, f"{function}: {total / MB:.1f} MB unzipped with {names[1:]}"


def test_core_layer_stays_small(build: Path, built: dict[str, Any]) -> None:
    size = tree_size(artefact(build, built, "CoreLayer"))

    assert size <= CORE_LAYER_LIMIT, (
        f"CoreLayer: {size / MB:.1f} MB unzipped, over {CORE_LAYER_LIMIT / MB:.0f} MB"
    )


def test_documents_layer_carries_the_ocr_language_data_where_the_functions_look(
    build: Path, built: dict[str, Any]
) -> None:
    layer = artefact(build, built, "DocumentsLayer")
    variables = SOURCE["Globals"]["Function"]["Environment"]["Variables"]

    assert variables["TESSDATA_PREFIX"] == "/opt/tessdata"  # a layer's content is mounted at /opt
    for language in OCR_LANGUAGES:
        assert (layer / "tessdata" / f"{language}.traineddata").stat().st_size > 1_000_000, language

"""The client distribution (clients/python) is a package of its own: its wheel holds only docsvc_client,
under the MIT licence, and needs only httpx; the server's checks (mypy) cover it. The wheel is built
offline, with the setuptools of this environment (the dev extra)."""

from __future__ import annotations

import email.parser
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from email.message import Message
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import ROOT

CLIENT = ROOT / "clients" / "python"
SERVER: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    setuptools = tuple(int(part) for part in version("setuptools").split(".")[:2])
    assert setuptools >= (77, 0), "the client's licence needs setuptools 77 or later: run make install"
    folder = tmp_path_factory.mktemp("wheel")
    # A copy of the sources: setuptools builds in the project's build/, whose leftovers would go in the wheel.
    source = folder / "source"
    shutil.copytree(CLIENT, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index"]

    subprocess.run(
        [*command, "--quiet", "--wheel-dir", str(folder), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )

    (built,) = folder.glob("docsvc_client-*.whl")
    yield built


def metadata(wheel: Path) -> Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def test_the_wheel_holds_only_the_client_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()

    tops = {name.split("/")[0] for name in names}
    assert tops == {"docsvc_client", wheel.name.split("-py3")[0] + ".dist-info"}
    assert "docsvc_client/webhooks.py" in names and "docsvc_client/cli/main.py" in names
    assert not any(name.endswith((".pyc", ".pyo")) for name in names)


def test_the_wheel_is_mit_licensed_with_its_licence_text(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        licences = [name for name in archive.namelist() if name.endswith("/LICENSE")]
        text = archive.read(licences[0]).decode("utf-8") if licences else ""

    assert metadata(wheel)["License-Expression"] == "MIT"
    assert text.startswith("MIT License") and "The docsvc authors" in text


def test_the_wheel_needs_only_httpx(wheel: Path) -> None:
    requires = metadata(wheel).get_all("Requires-Dist") or []

    assert [Requirement(requirement).name for requirement in requires] == ["httpx"]


def test_the_wheel_brings_the_docsvc_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [name for name in archive.namelist() if name.endswith(".dist-info/entry_points.txt")]
        entry_points = archive.read(name).decode("utf-8")

    assert "[console_scripts]\ndocsvc = docsvc_client.cli.main:main" in entry_points


def test_the_server_does_not_depend_on_the_client_by_name_and_adds_admin_to_its_command() -> None:
    project = SERVER["project"]
    assert isinstance(project, dict)
    extras = project["optional-dependencies"].values()
    requirements = [*project["dependencies"], *(requirement for extra in extras for requirement in extra)]

    assert not [requirement for requirement in requirements if requirement.startswith("docsvc-client")]
    assert "scripts" not in project, "the docsvc command is the client's"
    assert project["entry-points"]["docsvc_client.commands"] == {"admin": "docsvc.admin.commands:register"}


def test_mypy_checks_the_client() -> None:
    tool = SERVER["tool"]
    assert isinstance(tool, dict)

    assert "clients/python" in tool["mypy"]["mypy_path"].split(":")
    assert "docsvc_client" in tool["mypy"]["packages"]

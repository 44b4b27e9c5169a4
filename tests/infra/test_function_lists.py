"""template.yaml is the one list of functions: every other list of them (the packages pyproject.toml
installs, the folders and packages mypy checks, the folders on disk) must name the same ones, so adding
a function cannot leave one of them behind unnoticed."""

from __future__ import annotations

import tomllib
from typing import Any

from docsvc.local.template import load_template

from tests.conftest import ROOT, TEMPLATE

PYPROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def template_functions() -> set[str]:
    resources = load_template(TEMPLATE)["Resources"]
    return {
        str(resource["Properties"]["CodeUri"]).removeprefix("functions/").strip("/")
        for resource in resources.values()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def test_the_packages_installed_are_the_functions_of_the_template() -> None:
    where = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["where"]

    assert {folder.removeprefix("functions/") for folder in where if folder.startswith("functions/")} == (
        template_functions()
    )


def test_mypy_checks_every_function_of_the_template() -> None:
    mypy = PYPROJECT["tool"]["mypy"]
    paths = {
        path.removeprefix("functions/")
        for path in mypy["mypy_path"].split(":")
        if path.startswith("functions/")
    }

    assert paths == template_functions()
    assert set(mypy["packages"]) - {"docsvc", "docsvc_client"} == template_functions()


def test_every_function_folder_on_disk_is_in_the_template() -> None:
    folders = {
        path.name
        for path in (ROOT / "functions").iterdir()
        if path.is_dir() and not path.name.startswith(".")
    }

    assert folders == template_functions()

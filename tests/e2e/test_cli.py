"""The `docsvc` command-line tool against the running local stack (`make dev`), run in process."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from docsvc_client.cli import context as cli_context
from docsvc_client.cli.main import main

from tests.e2e.conftest import RunningStack
from tests.samples import form_pdf, text_pdf

pytestmark = pytest.mark.e2e


def pdf(pages: int) -> bytes:
    return text_pdf(pages=pages, text="CLI document")


@pytest.fixture
def cli(stack: RunningStack, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> RunningStack:
    """The test key and the stack's URL in the environment, profiles in a temporary file."""
    monkeypatch.setenv("SERVICE_BASE_URL", stack.url)
    monkeypatch.setenv("SERVICE_API_KEY", stack.test_key)
    monkeypatch.setenv("DOCSVC_CONFIG", str(tmp_path / "config.json"))
    monkeypatch.setattr(cli_context, "POLL_INTERVAL", 0.2)
    return stack


def run(capsys: pytest.CaptureFixture[str], *arguments: str, code: int = 0) -> str:
    result = main(list(arguments))
    captured = capsys.readouterr()
    assert result == code, captured.err
    return captured.out


def run_json(capsys: pytest.CaptureFixture[str], *arguments: str) -> Any:
    return json.loads(run(capsys, *arguments, "--json"))


def test_auth_status_names_the_environment_of_the_key(
    cli: RunningStack, capsys: pytest.CaptureFixture[str]
) -> None:
    status = run_json(capsys, "auth", "status")
    assert status["organization_id"] == cli.organization_id
    assert status["environment_slug"] == "test"

    text = run(capsys, "auth", "status")
    assert "environment     test" in text and "SERVICE_API_KEY" in text


def test_a_file_is_uploaded_and_listed(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / f"cli-upload-{uuid.uuid4().hex[:8]}.pdf"
    path.write_bytes(pdf(pages=2))

    uploaded = run_json(capsys, "files", "upload", str(path))

    assert uploaded["filename"] == path.name and uploaded["mime_type"] == "application/pdf"
    listed = run_json(capsys, "files", "list", "--filename", path.stem)
    assert [item["id"] for item in listed] == [uploaded["id"]]
    table = run(capsys, "files", "list", "--filename", path.stem)
    assert table.splitlines()[0].split()[:2] == ["ID", "FILENAME"] and uploaded["id"] in table

    saved = run_json(capsys, "files", "download", uploaded["id"], "-o", str(tmp_path / "copy.pdf"))
    assert Path(saved["path"]).read_bytes() == path.read_bytes()


def test_a_background_parse_is_waited_for(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "background.pdf"
    path.write_bytes(pdf(pages=2))

    parse = run_json(capsys, "parses", "create", str(path), "--background", "--wait", "--timeout", "60")

    assert parse["status"] == "completed" and len(parse["output"]["pages"]) == 2
    assert run_json(capsys, "parses", "get", parse["id"])["id"] == parse["id"]


def test_jobs_are_listed_over_more_than_one_page(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "job.pdf"
    path.write_bytes(pdf(pages=1))
    request = json.dumps({"document": str(path)})
    created = [
        run_json(capsys, "jobs", "create", "--endpoint", "/v1/parses", "--request", request)["id"]
        for _ in range(2)
    ]
    finished = run_json(capsys, "jobs", "wait", created[0], "--timeout", "60")
    assert finished["status"] == "completed"

    first_page = run_json(capsys, "jobs", "list", "--limit", "1")
    every_job = run_json(capsys, "jobs", "list", "--limit", "1", "--all")

    assert len(first_page) == 1
    ids = [job["id"] for job in every_job]
    assert set(created) <= set(ids) and len(ids) == len(set(ids)) >= 2


def test_a_secret_is_set_from_stdin_and_its_value_never_printed(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"CLI_TOKEN_{uuid.uuid4().hex[:6].upper()}"
    value = f"value-{uuid.uuid4().hex}"
    monkeypatch.setattr("sys.stdin", io.StringIO(value + "\n"))

    assert run_json(capsys, "secrets", "set", name)["name"] == name

    listed = run(capsys, "secrets", "list")
    assert name in listed and value not in listed
    listed_json = run(capsys, "secrets", "list", "--json")
    assert name in listed_json and value not in listed_json


def test_live_beside_a_key_is_refused(cli: RunningStack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["files", "list", "--live"]) == 2
    captured = capsys.readouterr()

    assert captured.out == "" and "the API key already selects the environment" in captured.err


def test_profiles_are_added_and_switched(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SERVICE_API_KEY")
    monkeypatch.delenv("SERVICE_BASE_URL")
    run(capsys, "env", "add", "dev", "--api-key", cli.test_key, "--base-url", cli.url)
    run(capsys, "env", "add", "production", "--api-key", cli.live_key, "--base-url", cli.url)

    assert run_json(capsys, "auth", "status")["environment_slug"] == "test"
    assert run_json(capsys, "auth", "status", "--live")["environment_slug"] == "production"
    run(capsys, "env", "switch", "production")
    assert run_json(capsys, "auth", "status")["environment_slug"] == "production"
    assert run_json(capsys, "auth", "status", "--env", "dev")["environment_slug"] == "test"

    profiles = run_json(capsys, "env", "list")
    assert [(row["name"], row["default"]) for row in profiles] == [("dev", False), ("production", True)]
    assert cli.live_key not in json.dumps(profiles)
    assert (tmp_path / "config.json").stat().st_mode & 0o777 == 0o600


def test_a_production_secret_is_not_deleted_without_confirm(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SERVICE_API_KEY", cli.live_key)
    name = f"CLI_LIVE_{uuid.uuid4().hex[:6].upper()}"
    monkeypatch.setattr("sys.stdin", io.StringIO("live-value"))
    run(capsys, "secrets", "set", name)  # a new secret: no confirmation needed

    assert main(["secrets", "delete", name]) == 2
    captured = capsys.readouterr()
    assert "--confirm" in captured.err and "production" in captured.err
    assert run_json(capsys, "secrets", "get", name)["name"] == name

    run(capsys, "secrets", "delete", name, "--confirm")
    assert main(["secrets", "get", name]) == 1
    assert capsys.readouterr().err.startswith("docsvc: 404 ")


def test_a_form_is_filled_to_a_file_and_a_template_filled_from_data(
    cli: RunningStack, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    form = tmp_path / "application.pdf"
    form.write_bytes(form_pdf())
    filled = tmp_path / "filled.pdf"

    text = run(
        capsys, "edits", "create", str(form), "--instructions", "Full name: Jane Roe", "--out", str(filled)
    )
    template = run_json(capsys, "edits", "templates", "create", "Membership", str(form))
    edit = run_json(capsys, "edits", "templates", "fill", template["id"], "--data", "full_name=Ann Lee")

    assert "full_name: Jane Roe" in text and f"saved {filled}" in text
    assert filled.read_bytes().startswith(b"%PDF")
    assert {field["key"]: field["value"] for field in edit["output"]["form_data"]}["full_name"] == "Ann Lee"
    assert template["id"] in run(capsys, "edits", "templates", "list")
    assert edit["id"] in run(capsys, "edits", "list", "--template", template["id"])
    run(capsys, "edits", "templates", "fill", template["id"], code=2)  # neither data nor instructions

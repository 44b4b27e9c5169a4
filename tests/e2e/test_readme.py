"""The README's examples run: every `bash` and `python` block, pasted into a shell or an interpreter the
way a reader would, against the local stack.

A block that cannot run here says why in an HTML comment on the line before it
(`<!-- not run by tests/e2e/test_readme.py: <reason> -->`). The placeholders a reader replaces (`svc_test_…`,
`file_…`, `job_…`, …) are replaced by the ids of objects made for the purpose, in an organization of its
own, so nothing the examples create reaches the other tests' tenants. In the shell, `curl` fails on an
answer of 4xx or 5xx (but for cancelling or retrying a job, whose answer depends on how far the job got);
in Python, no object a block ends with may be failed.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ROOT
from tests.e2e.conftest import RunningStack
from tests.e2e.test_local_stack import admin
from tests.integration.test_intelligence import invoice
from tests.samples import form_pdf, scanned_pdf, text_pdf

README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\s*$")
NOT_RUN = re.compile(r"^<!-- not run by tests/e2e/test_readme\.py: (?P<reason>\S.*?) -->$")
RUNNABLE = frozenset({"bash", "python"})
BLOCK_SECONDS = 180

# A shell's curl that fails as a reader would notice: on an error answer, not only on a dead connection.
# Cancelling or retrying a job answers by the job's state (400 or 409 once it has ended), which depends on
# how fast the workers were: those two are answers, not errors, there.
CURL = r"""
curl() {
  local answer status url=""
  for argument in "$@"; do case $argument in *://*) url=$argument ;; esac; done
  answer=$(command curl -sS -w '\n%{http_code}' "$@") || return
  status=${answer##*$'\n'}
  printf '%s\n' "${answer%$'\n'*}"
  case $status:$url in
    2??:*|3??:*|400:*/cancel|409:*/cancel|400:*/retry|409:*/retry) ;;
    *) echo "curl got HTTP $status" >&2; return 22 ;;
  esac
}
"""


@dataclass(frozen=True)
class Block:
    line: int
    language: str
    code: str
    not_run: str | None  # why, when the README says it cannot run here

    def __str__(self) -> str:
        return f"README.md:{self.line} ({self.language})"


def readme_blocks() -> list[Block]:
    lines = README.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        marker = NOT_RUN.match(lines[index - 1]) if index else None
        blocks.append(
            Block(
                index + 1,
                fence.group(1),
                "\n".join(lines[index + 1 : end]) + "\n",
                marker.group("reason") if marker else None,
            )
        )
        index = end + 1
    return blocks


BLOCKS = readme_blocks()
RUN = [block for block in BLOCKS if block.language in RUNNABLE and block.not_run is None]


def test_every_shell_and_python_block_is_run_or_says_why_not() -> None:
    marked_but_not_code = [str(block) for block in BLOCKS if block.not_run and block.language not in RUNNABLE]
    not_run = [block for block in BLOCKS if block.language in RUNNABLE and block.not_run]

    assert marked_but_not_code == []
    assert len(RUN) >= 10 and len(not_run) <= 3, [str(block) for block in not_run]


@dataclass
class World:
    """What the examples' placeholders stand for, and where they run."""

    stack: RunningStack
    folder: Path
    api_key: str
    replacements: dict[str, str]

    def code(self, block: Block) -> str:
        code = block.code
        for placeholder, value in self.replacements.items():
            code = code.replace(placeholder, value)
        return code

    def environment(self) -> dict[str, str]:
        environment = dict(os.environ)
        environment.pop("AWS_ENDPOINT_URL", None)
        return environment | {
            "SERVICE_BASE_URL": self.stack.url,
            "SERVICE_API_KEY": self.api_key,
            "TOKEN": "a-ledger-token",
            "HOME": str(self.folder),
            "DOCSVC_CONFIG": str(self.folder / "docsvc.json"),
            "DOCSVC_STATE_FILE": str(self.stack.state_file),
            "PATH": f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        }


def _made(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    made: dict[str, Any] = response.json()
    return made


def _data_url(content: bytes) -> str:
    return "data:application/pdf;base64," + base64.b64encode(content).decode()


@pytest.fixture(scope="module")
def world(stack: RunningStack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("readme")
    (folder / ".venv").symlink_to(ROOT / ".venv")  # the README's `.venv/bin/docsvc admin …` lines
    for name in ("invoice.pdf", "inv-001.pdf"):
        (folder / name).write_bytes(invoice())
    (folder / "scan.pdf").write_bytes(scanned_pdf())
    (folder / "form.pdf").write_bytes(form_pdf())
    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "total": {"type": "number"}},
    }
    for name in ("invoice.schema.json", "schema.json"):
        (folder / name).write_text(json.dumps(schema))
    (folder / "truth.json").write_text(json.dumps({"invoice_number": "INV-2026-0042", "total": 2499.5}))

    organization = admin(stack, "orgs", "create", "README examples")
    assert isinstance(organization, dict)
    org_id = str(organization["id"])
    test_key = admin(stack, "keys", "create", "--org", org_id, "--env", "test", "--name", "readme")
    spare_key = admin(stack, "keys", "create", "--org", org_id, "--env", "test", "--name", "to revoke")
    assert isinstance(test_key, dict) and isinstance(spare_key, dict)
    api_key = str(test_key["key"])

    with httpx.Client(base_url=stack.url, headers={"Api-Key": api_key}, timeout=60) as api:
        upload = {"file": ("invoice.pdf", invoice(), "application/pdf")}
        file_id = _made(api.post("/v1/files", files=upload))["id"]
        parse = {"endpoint": "/v1/parses", "request": {"document": {"id": file_id}}}
        job = _made(api.post("/v1/jobs", json=parse))
        graph = {"name": "README", "blocks": [{"id": "start", "type": "start"}], "edges": []}
        workflow = _made(api.post("/v1/workflows", json=graph))
        _made(api.post(f"/v1/workflows/{workflow['id']}/publish"))
        form = {"filename": "form.pdf", "url": _data_url(form_pdf())}
        fields = _made(api.post("/v1/edits/templates/generate", json={"document": form}))["form_fields"]
        membership = {"name": "Membership", "document": form, "form_fields": fields}
        template = _made(api.post("/v1/edits/templates", json=membership))
        an_eval = _made(api.post("/v1/evals/extract", json={"name": "invoices", "json_schema": schema}))
        iteration = _made(api.post(f"/v1/evals/extract/{an_eval['id']}/iterations", json={}))

    yield World(
        stack,
        folder,
        api_key,
        {
            "svc_test_…": api_key,
            "http://127.0.0.1:3000": stack.url,
            "data:application/pdf;base64,JVBERi0…": _data_url(text_pdf(pages=1)),
            # A receiver must resolve; the local stack takes one on loopback (nothing listens on port 9).
            "https://example.com/hooks": "http://127.0.0.1:9/hooks",
            "file_…": str(file_id),
            "job_…": str(job["id"]),
            "wf_…": str(workflow["id"]),
            "etpl_…": str(template["id"]),
            "eval_…": str(an_eval["id"]),
            "evit_…": str(iteration["id"]),
            "org_…": org_id,
            "key_…": str(spare_key["id"]),
        },
    )


def _unfinished(namespace: Mapping[str, Any]) -> dict[str, Any]:
    """The objects a block ended with that did not end well (a job that failed, a parse that expired)."""
    return {
        name: value
        for name, value in namespace.items()
        if isinstance(value, Mapping) and value.get("status") in {"failed", "cancelled", "expired"}
    }


@pytest.mark.parametrize("block", RUN, ids=str)
def test_the_readme_example_runs_against_the_local_stack(
    block: Block, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = world.code(block)
    if block.language == "python":
        for name, value in world.environment().items():
            monkeypatch.setenv(name, value)
        monkeypatch.chdir(world.folder)
        namespace: dict[str, Any] = {"__name__": "__readme__"}
        exec(compile(code, str(block), "exec"), namespace)  # noqa: S102 - the README's own example
        assert _unfinished(namespace) == {}
        return
    result = subprocess.run(
        ["bash", "-c", f"set -euo pipefail\n{CURL}\n{code}"],
        cwd=world.folder,
        env=world.environment(),
        capture_output=True,
        text=True,
        timeout=BLOCK_SECONDS,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 0, f"{block} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"

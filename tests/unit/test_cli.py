"""The `docsvc` command-line tool against an SDK client on an httpx MockTransport: which key is used,
local profiles, production confirmation, tables and JSON output, errors; the groups other distributions
add, `--version` and shell completion."""

from __future__ import annotations

import importlib.metadata
import io
import json
import shlex
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docsvc_client
import httpx
import pytest
from docsvc_client import Client
from docsvc_client.cli import context as cli_context
from docsvc_client.cli import errors as cli_errors
from docsvc_client.cli.main import command_word, main
from docsvc_client.cli.output import Progress, cell, render_fields, render_table
from docsvc_client.cli.profiles import Profiles, mask

BASE = "https://api.docsvc.test"
TEST_KEY = "svc_test_" + "a" * 40
LIVE_KEY = "svc_live_" + "b" * 40
DEV_KEY = "svc_test_dev" + "d" * 37
STAGING_KEY = "svc_test_stg" + "s" * 37
PROD_KEY = "svc_live_prd" + "p" * 37


@dataclass
class FakeAPI:
    """Answers the routes the tests use; records every request."""

    environment: str = "test"
    requests: list[httpx.Request] = field(default_factory=list)
    routes: dict[tuple[str, str], Callable[[httpx.Request], httpx.Response]] = field(default_factory=dict)

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        route = self.routes.get((request.method, request.url.path))
        if route is not None:
            return route(request)
        if request.url.path == "/v1/auth/status":
            return httpx.Response(
                200,
                json={
                    "authenticated": True,
                    "organization_id": "org_1",
                    "environment": {"id": "env_1", "name": self.environment},
                    "environment_slug": self.environment,
                    "environment_id": "env_1",
                    "key": {"prefix": request.headers["authorization"][7:20], "name": "ci"},
                },
            )
        return httpx.Response(404, json={"detail": "Not found"}, headers={"x-request-id": "req_404"})

    def keys(self) -> list[str]:
        return [request.headers["authorization"].removeprefix("Bearer ") for request in self.requests]

    def calls(self, method: str) -> list[str]:
        return [request.url.path for request in self.requests if request.method == method]


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config" / "docsvc" / "config.json"
    monkeypatch.setenv("DOCSVC_CONFIG", str(path))
    return path


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, config: Path) -> Iterator[FakeAPI]:
    fake = FakeAPI()
    hosts: list[str] = []

    def factory(credentials: cli_context.Credentials) -> Client:
        hosts.append(credentials.base_url)
        transport = httpx.MockTransport(fake.handle)
        return Client(
            api_key=credentials.api_key,
            base_url=credentials.base_url,
            max_retries=0,
            http_client=httpx.Client(transport=transport),
        )

    monkeypatch.delenv("SERVICE_API_KEY", raising=False)
    monkeypatch.delenv("SERVICE_BASE_URL", raising=False)
    monkeypatch.setattr(cli_context, "client_factory", factory)
    monkeypatch.setattr(cli_context, "POLL_INTERVAL", 0.0)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    yield fake


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def add_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    for arguments in (
        ["env", "add", "dev", "--api-key", DEV_KEY, "--base-url", "https://dev.example"],
        ["env", "add", "staging", "--api-key", STAGING_KEY],
        ["env", "add", "production", "--api-key", PROD_KEY, "--base-url", "https://prod.example"],
    ):
        assert run(capsys, *arguments)[0] == 0


# Credentials


def test_the_api_key_option_comes_first(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    add_profiles(capsys)
    monkeypatch.setenv("SERVICE_API_KEY", "svc_test_from_env")

    code, out, _ = run(capsys, "auth", "status", "--api-key", "svc_test_flag", "--base-url", BASE, "--json")

    assert code == 0 and api.keys() == ["svc_test_flag"]
    assert json.loads(out)["organization_id"] == "org_1"


def test_the_environment_variable_comes_before_profiles(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    add_profiles(capsys)
    monkeypatch.setenv("SERVICE_API_KEY", "svc_test_from_env")
    monkeypatch.setenv("SERVICE_BASE_URL", BASE)

    code, out, _ = run(capsys, "auth", "status")

    assert code == 0 and api.keys() == ["svc_test_from_env"]
    assert "SERVICE_API_KEY" in out and BASE in out


def test_env_names_a_profile_with_its_base_url(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    add_profiles(capsys)

    assert run(capsys, "--env", "production", "auth", "status")[0] == 0
    assert run(capsys, "auth", "status", "--env", "staging", "--base-url", BASE)[0] == 0

    assert api.keys() == [PROD_KEY, STAGING_KEY]
    assert [str(request.url.host) for request in api.requests] == ["prod.example", "api.docsvc.test"]


def test_live_picks_the_production_profile_else_the_one_marked_live(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    add_profiles(capsys)
    assert run(capsys, "auth", "status", "--live")[0] == 0
    assert run(capsys, "env", "remove", "production")[0] == 0
    assert (
        run(capsys, "env", "add", "prod-eu", "--api-key", "svc_live_eu", "--base-url", BASE, "--live")[0] == 0
    )

    assert run(capsys, "auth", "status", "--live")[0] == 0

    assert api.keys() == [PROD_KEY, "svc_live_eu"]


def test_live_without_a_live_profile_is_a_usage_error(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "env", "add", "dev", "--api-key", DEV_KEY, "--base-url", BASE)[0] == 0

    code, _, err = run(capsys, "auth", "status", "--live")

    assert code == 2 and "no profile named production" in err and api.requests == []


def test_the_default_profile_comes_last(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    add_profiles(capsys)  # the first one added is the default
    assert run(capsys, "auth", "status")[0] == 0
    assert run(capsys, "env", "switch", "production")[0] == 0
    assert run(capsys, "auth", "status")[0] == 0

    assert api.keys() == [DEV_KEY, PROD_KEY]


def test_without_any_key_the_command_is_refused(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "files", "list", "--base-url", BASE)

    assert code == 2 and "no API key" in err


def test_without_a_base_url_the_command_is_refused(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "files", "list", "--api-key", TEST_KEY)

    assert code == 2 and "no base URL" in err and api.requests == []


@pytest.mark.parametrize("selector", [["--live"], ["--env", "production"]])
@pytest.mark.parametrize("key_from", ["option", "environment"])
def test_live_or_env_beside_a_key_is_refused(
    api: FakeAPI,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    selector: list[str],
    key_from: str,
) -> None:
    add_profiles(capsys)
    key = ["--api-key", LIVE_KEY] if key_from == "option" else []
    if key_from == "environment":
        monkeypatch.setenv("SERVICE_API_KEY", LIVE_KEY)

    code, out, err = run(capsys, "secrets", "list", "--base-url", BASE, *selector, *key)

    assert code == 2 and out == ""
    assert "the API key already selects the environment" in err
    assert api.requests == []


# Profiles


def test_profiles_are_kept_in_a_file_only_the_owner_reads(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    add_profiles(capsys)

    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o700
    stored = json.loads(config.read_text())
    assert stored["default"] == "dev"
    assert stored["profiles"]["production"] == {
        "api_key": PROD_KEY,
        "base_url": "https://prod.example",
        "live": False,
    }


def test_profiles_round_trip_add_list_switch_remove(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    add_profiles(capsys)

    code, out, _ = run(capsys, "env", "list", "--json")
    listed = json.loads(out)
    assert code == 0 and [row["name"] for row in listed] == ["dev", "production", "staging"]
    assert [row["default"] for row in listed] == [True, False, False]
    assert PROD_KEY not in out and listed[1]["key"] == "svc_live_prdp…"

    assert run(capsys, "env", "switch", "staging")[0] == 0
    assert Profiles.load().default == "staging"
    code, out, _ = run(capsys, "env", "list")
    assert code == 0 and out.splitlines()[0].split() == ["NAME", "KEY", "BASE", "URL", "LIVE"]
    assert "*  staging" in out and "\n   dev " in out

    assert run(capsys, "env", "remove", "staging")[0] == 0
    profiles = Profiles.load()
    assert sorted(profiles.profiles) == ["dev", "production"] and profiles.default == "dev"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600

    code, _, err = run(capsys, "env", "switch", "nowhere")
    assert code == 2 and "no profile 'nowhere'" in err


def test_the_profile_file_follows_xdg_config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCSVC_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))

    assert main(["env", "add", "dev", "--api-key", DEV_KEY]) == 0

    assert (tmp_path / "xdg" / "docsvc" / "config.json").is_file()


def test_a_key_is_masked() -> None:
    assert mask(TEST_KEY) == "svc_test_aaaa…"
    assert mask("sk_svc_" + "c" * 40) == "sk_svc_cccc…"


# Production safety


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_production_delete_needs_confirm_when_not_at_a_terminal(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    api.environment = "production"
    api.routes["DELETE", "/v1/files/file_1"] = lambda _: httpx.Response(204)

    code, out, err = run(capsys, "files", "delete", "file_1", "--api-key", LIVE_KEY, "--base-url", BASE)

    assert code == 2 and out == ""
    assert "--confirm" in err and "production" in err
    assert api.calls("DELETE") == []

    code, out, _ = run(
        capsys, "files", "delete", "file_1", "--api-key", LIVE_KEY, "--base-url", BASE, "--confirm"
    )
    assert code == 0 and "deleted file_1" in out
    assert api.calls("DELETE") == ["/v1/files/file_1"]


def test_at_a_terminal_production_must_be_typed(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    api.environment = "production"
    api.routes["DELETE", "/v1/secrets/TOKEN"] = lambda _: httpx.Response(204)
    monkeypatch.setenv("SERVICE_API_KEY", LIVE_KEY)
    monkeypatch.setenv("SERVICE_BASE_URL", BASE)

    monkeypatch.setattr("sys.stdin", Terminal("yes\n"))
    code, _, err = run(capsys, "secrets", "delete", "TOKEN")
    assert code == 2 and "Type production" in err and "not confirmed" in err
    assert api.calls("DELETE") == []

    monkeypatch.setattr("sys.stdin", Terminal("production\n"))
    assert run(capsys, "secrets", "delete", "TOKEN")[0] == 0
    assert api.calls("DELETE") == ["/v1/secrets/TOKEN"]


def test_deleting_a_production_job_needs_confirm_and_a_running_one_is_a_conflict(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    api.environment = "production"
    api.routes["DELETE", "/v1/jobs/job_1"] = lambda _: httpx.Response(204)
    api.routes["DELETE", "/v1/jobs/job_2"] = lambda _: httpx.Response(
        409, json={"detail": "job 'job_2' is queued; cancel it first (POST /v1/jobs/job_2/cancel)"}
    )
    live = ("--api-key", LIVE_KEY, "--base-url", BASE)

    refused = run(capsys, "jobs", "delete", "job_1", *live)
    deleted = run(capsys, "jobs", "delete", "job_1", *live, "--confirm")
    conflict = run(capsys, "jobs", "delete", "job_2", *live, "--confirm")

    assert refused[0] == 2 and "--confirm" in refused[2]
    assert deleted[0] == 0 and "deleted job_1" in deleted[1]
    assert conflict[0] == 1 and "cancel it first" in conflict[2]
    assert api.calls("DELETE") == ["/v1/jobs/job_1", "/v1/jobs/job_2"]


def test_the_test_environment_needs_no_confirmation(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    api.routes["POST", "/v1/jobs/job_1/retry"] = lambda _: httpx.Response(
        200, json={"id": "job_1", "status": "queued"}
    )

    code, out, _ = run(capsys, "jobs", "retry", "job_1", "--api-key", TEST_KEY, "--base-url", BASE, "--json")

    assert code == 0 and json.loads(out)["status"] == "queued"


def test_rotating_a_production_secret_needs_confirm_but_creating_one_does_not(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    api.environment = "production"
    meta = {"name": "NEW", "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z"}
    sent: list[Any] = []

    def put(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"secret": meta})

    api.routes["PUT", "/v1/secrets/NEW"] = put
    api.routes["PUT", "/v1/secrets/OLD"] = put
    api.routes["GET", "/v1/secrets/OLD"] = lambda _: httpx.Response(
        200, json={"secret": {**meta, "name": "OLD"}}
    )
    options = ["--api-key", LIVE_KEY, "--base-url", BASE]

    monkeypatch.setattr("sys.stdin", io.StringIO("s3cret-value\n"))
    code, out, _ = run(capsys, "secrets", "set", "NEW", *options)
    assert code == 0 and sent == [{"value": "s3cret-value"}] and "s3cret" not in out

    monkeypatch.setattr("sys.stdin", io.StringIO("rotated\n"))
    code, _, err = run(capsys, "secrets", "set", "OLD", *options)
    assert code == 2 and "rotate secret OLD" in err and "--confirm" in err
    assert len(sent) == 1

    monkeypatch.setattr("sys.stdin", io.StringIO("rotated\n"))
    assert run(capsys, "secrets", "set", "OLD", "--confirm", *options)[0] == 0
    assert sent[-1] == {"value": "rotated"}


def test_a_secret_value_may_come_from_a_file(
    api: FakeAPI, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sent: list[Any] = []

    def put(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(201, json={"secret": {"name": "PEM"}})

    api.routes["PUT", "/v1/secrets/PEM"] = put
    (tmp_path / "key.pem").write_text("line 1\nline 2\n")

    code, _, _ = run(
        capsys,
        "secrets",
        "set",
        "PEM",
        "--from-file",
        str(tmp_path / "key.pem"),
        "--api-key",
        TEST_KEY,
        "--base-url",
        BASE,
    )

    assert code == 0 and sent == [{"value": "line 1\nline 2\n"}]


# Output


def test_a_table_is_aligned_under_its_headers() -> None:
    rows: list[dict[str, Any]] = [
        {"id": "file_1", "filename": "a.pdf", "pages": 3, "meta": {"ok": True}},
        {"id": "file_22", "filename": None, "pages": 12, "meta": None},
    ]

    text = render_table(rows, [("id", "id"), ("filename", "filename"), ("pages", "pages"), ("ok", "meta.ok")])

    assert text.splitlines() == [
        "ID       FILENAME  PAGES  OK",
        "file_1   a.pdf     3      yes",
        "file_22  -         12     -",
    ]


def test_cells_are_one_short_line() -> None:
    assert cell(["a", "b"]) == "a, b"
    assert cell({"a": 1}) == '{"a":1}'
    assert cell("line 1\nline 2") == "line 1 line 2"
    assert cell(False) == "no"
    long = cell("x" * 100)
    assert len(long) == 60 and long.endswith("…")
    assert render_fields({"id": "f", "size": 10}) == "id    f\nsize  10"


def test_progress_is_silent_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    with Progress("uploading", stream=stream) as progress:
        progress.update("still uploading")
    assert stream.getvalue() == ""


def test_a_list_prints_a_table_or_json_and_follows_pages_with_all(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [
        {"object": "file", "id": f"file_{n}", "filename": f"doc-{n}.pdf", "mime_type": "application/pdf"}
        for n in range(3)
    ]

    def listing(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params.get("after", "file_-1").removeprefix("file_")) + 1
        data = files[start : start + 2]
        after = data[-1]["id"] if start + 2 < len(files) else None
        return httpx.Response(200, json={"data": data, "list_metadata": {"before": None, "after": after}})

    api.routes["GET", "/v1/files"] = listing
    options = ["--api-key", TEST_KEY, "--base-url", BASE]

    code, out, err = run(capsys, "files", "list", "--limit", "2", *options)
    assert code == 0 and out.splitlines()[0].split()[:3] == ["ID", "FILENAME", "TYPE"]
    assert len(out.splitlines()) == 3 and "--after file_1" in err

    code, out, _ = run(capsys, "--json", "files", "list", "--limit", "2", "--all", *options)
    assert code == 0 and json.loads(out) == files
    assert api.requests[-1].url.params["after"] == "file_1"


def test_an_api_error_prints_status_detail_and_request_id(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "files", "get", "file_missing", "--api-key", TEST_KEY, "--base-url", BASE)

    assert code == 1 and out == ""
    assert err.strip() == "docsvc: 404 Not found (request id req_404)"


def test_a_usage_error_of_argparse_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["files", "download"])
    assert raised.value.code == 2


def test_a_background_parse_is_waited_for(api: FakeAPI, capsys: pytest.CaptureFixture[str]) -> None:
    states = iter(["queued", "in_progress", "completed"])
    parse = {"object": "parse", "id": "parse_1", "file": {"filename": "u.pdf"}}
    api.routes["POST", "/v1/parses"] = lambda _: httpx.Response(202, json={**parse, "status": "queued"})
    api.routes["GET", "/v1/parses/parse_1"] = lambda _: httpx.Response(
        200, json={**parse, "status": next(states)}
    )

    code, out, _ = run(
        capsys,
        "parses",
        "create",
        "https://example.com/u.pdf",
        "--background",
        "--wait",
        "--api-key",
        TEST_KEY,
        "--base-url",
        BASE,
        "--json",
    )

    assert code == 0 and json.loads(out)["status"] == "completed"
    body = json.loads(api.requests[0].content)
    assert body == {"document": {"filename": "u.pdf", "url": "https://example.com/u.pdf"}, "background": True}
    assert api.calls("GET") == ["/v1/parses/parse_1"] * 3


def test_classification_categories_take_an_optional_description(
    api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    api.routes["POST", "/v1/classifications"] = lambda _: httpx.Response(
        200, json={"id": "cls_1", "output": {"category": "invoice", "reasoning": "…"}}
    )

    code, out, _ = run(
        capsys,
        "classifications",
        "create",
        "file_abc",
        "--category",
        "invoice:a bill",
        "--category",
        "receipt",
        "--api-key",
        TEST_KEY,
        "--base-url",
        BASE,
    )

    assert code == 0 and '"category": "invoice"' in out
    assert json.loads(api.requests[0].content)["categories"] == [
        {"name": "invoice", "description": "a bill"},
        {"name": "receipt"},
    ]


# Extension groups, --version and completion


@dataclass
class FakeDistribution:
    name: str
    version: str


@dataclass
class FakeEntryPoint:
    """An entry point of the group docsvc_client.commands, as another installed distribution has one."""

    name: str
    register: Callable[[Any], None]
    dist: FakeDistribution | None = None

    def load(self) -> Callable[[Any], None]:
        return self.register


def register_hello(commands: Any) -> None:
    hello = commands.add_parser("hello", help="an extension's group")
    hello.add_argument("--name", default="world")
    hello.add_argument("--refuse", action="store_true")
    hello.set_defaults(run_group=_hello)


def _hello(arguments: Any) -> int:
    if arguments.refuse:
        raise cli_errors.UsageError("refused")
    print(f"hello {arguments.name}")
    return 3


@pytest.fixture
def extensions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Installs the group `hello` of a distribution `greeter`; records each look-up of the group."""
    lookups: list[str] = []

    def entry_points(*, group: str) -> list[FakeEntryPoint]:
        lookups.append(group)
        return [FakeEntryPoint("hello", register_hello, FakeDistribution("greeter", "2.5"))]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    return lookups


def test_a_group_of_another_distribution_runs_through_the_entry_points(
    extensions: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "hello", "--name", "ops")

    assert (code, out) == (3, "hello ops\n")
    assert extensions == ["docsvc_client.commands"]


def test_a_usage_error_of_an_extension_exits_2(
    extensions: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "hello", "--refuse")

    assert code == 2 and err == "docsvc: refused\n"


def test_a_built_in_command_never_looks_the_extensions_up(
    extensions: list[str], api: FakeAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    api.routes["GET", "/v1/files"] = lambda _: httpx.Response(200, json={"data": [], "list_metadata": {}})

    assert run(capsys, "--api-key", TEST_KEY, "--base-url", BASE, "files", "list")[0] == 0
    assert run(capsys, "--env", "dev", "env", "list")[0] == 0
    assert extensions == []


def test_the_command_word_skips_options_and_their_values() -> None:
    assert command_word(["--api-key", "files", "--json", "jobs", "list"]) == "jobs"
    assert command_word(["--base-url=https://x", "admin", "orgs"]) == "admin"
    assert command_word(["--json", "--", "files"]) == "files"
    assert command_word(["--help"]) is None


def test_version_names_the_client_and_each_distribution_that_adds_a_group(
    extensions: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--version"])

    assert raised.value.code == 0
    assert (
        capsys.readouterr().out == f"docsvc-client {docsvc_client.__version__}\ngreeter 2.5 (docsvc hello)\n"
    )


def complete(script: str, *words: str) -> list[str]:
    """What bash's completion of `script` offers for the command line `words` (the last one being typed)."""
    driver = (
        f"{script}\n"
        f"COMP_WORDS=({' '.join(shlex.quote(word) for word in words)})\n"
        f"COMP_CWORD={len(words) - 1}\n"
        "_docsvc\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    result = subprocess.run(["bash", "-c", driver], capture_output=True, text=True, timeout=30, check=True)
    return result.stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_the_bash_completion_walks_the_command_tree(
    extensions: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, script, _ = run(capsys, "completion", "bash")
    (tmp_path / "invoice.pdf").write_bytes(b"%PDF-1.7")

    assert code == 0 and "complete -o filenames -F _docsvc docsvc" in script
    assert {"files", "jobs", "env", "completion", "hello"} <= set(complete(script, "docsvc", ""))
    assert {"--api-key", "--version", "--json"} <= set(complete(script, "docsvc", "-"))
    assert complete(script, "docsvc", "files", "l") == ["list"]
    assert complete(script, "docsvc", "--json", "jobs", "c") == ["cancel", "create"]
    assert {"--limit", "--live"} == set(complete(script, "docsvc", "files", "list", "--li"))
    assert complete(script, "docsvc", "hello", "--na") == ["--name"]
    assert complete(script, "docsvc", "completion", "") == ["bash", "zsh"]
    assert complete(script, "docsvc", "files", "upload", str(tmp_path / "inv")) == [
        str(tmp_path / "invoice.pdf")
    ]


def complete_in_zsh(script: str, *words: str) -> list[str]:
    """What the zsh script hands to compadd (zsh filters those by the prefix itself), `FILES` for _files."""
    driver = (
        'compdef() { :; }; compadd() { shift; print -l -- "$@"; }; _files() { print FILES; }\n'
        f"{script}\n"
        f"words=({' '.join(shlex.quote(word) for word in words)}); CURRENT={len(words)}; "
        f"PREFIX={shlex.quote(words[-1])}\n"
        "_docsvc\n"
    )
    result = subprocess.run(
        ["zsh", "-f", "-c", driver], capture_output=True, text=True, timeout=30, check=True
    )
    return result.stdout.split()


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_the_zsh_completion_walks_the_same_tree(
    extensions: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, bash, _ = run(capsys, "completion", "bash")
    code, zsh, _ = run(capsys, "completion", "zsh")

    assert code == 0 and zsh.rstrip().endswith("compdef _docsvc docsvc")
    tree = bash[: bash.index("_docsvc() {")]
    assert zsh.startswith(tree.replace("completion bash", "completion zsh"))
    assert complete_in_zsh(zsh, "docsvc", "--json", "files", "l") == [
        "delete",
        "download",
        "get",
        "list",
        "upload",
    ]
    assert "--name" in complete_in_zsh(zsh, "docsvc", "hello", "--na")
    assert complete_in_zsh(zsh, "docsvc", "files", "upload", "inv") == ["FILES"]


def test_completion_of_another_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["completion", "fish"])

    assert raised.value.code == 2

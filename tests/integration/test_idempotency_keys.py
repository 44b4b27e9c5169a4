"""`Idempotency-Key` on every creating POST, through the real handlers on moto: a request sent again with
its key (as the SDK does when the connection dropped after the server committed) is done once and
answered again; another request with the key, a key in flight, a 5xx, environments, bad keys."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from docsvc.adapters import aws
from docsvc.adapters.dynamo.idempotency import DynamoClaimStore
from docsvc.api.idempotency import NOT_CREATING, OWN_MECHANISM, fingerprint, is_creating
from docsvc.config import settings
from docsvc.domain.accounts import ApiKey
from docsvc.domain.idempotency import Claim
from docsvc.local.functions import functions_of
from docsvc.local.openapi import merged_openapi
from docsvc.local.stack import Deployment
from docsvc.local.template import Resolver, load_template, parameter_defaults
from docsvc.services import account_service, workflow_service
from docsvc.tenancy import Tenant
from docsvc.workflows.graph import Graph

from tests.conftest import TEMPLATE, Org, auth
from tests.integration.test_edits import INSTRUCTIONS, form
from tests.integration.test_evals import EVALS, TRUTH, add_document, new_eval, new_iteration
from tests.integration.test_intelligence import CATEGORIES, INVOICE_SCHEMA, doc, invoice
from tests.integration.test_workflows import block, edge

# What a test sends: the URL and httpx's keyword arguments (json=, files=, data=).
Sent = tuple[str, dict[str, Any]]


# How many resources a route made, given the API key and the first answer's body.
Made = Callable[[httpx.Client, str, Any], int]


def listed(path: str, key: str = "data", **params: Any) -> Made:
    """How many resources `GET path` lists."""

    def count(api: httpx.Client, api_key: str, answer: Any = None) -> int:
        response = api.get(path, headers=auth(api_key), params={"limit": 100, **params})
        assert response.status_code == 200, response.text
        return len(response.json()[key])

    return count


def operations(api: httpx.Client, key: str) -> int:
    """The usage entries (operations charged) of the key's environment."""
    days = api.get("/v1/usage", headers=auth(key)).json()["data"]
    return sum(int(day["operations"]) for day in days)


@dataclass(frozen=True)
class Creating:
    route: str
    send: Callable[[httpx.Client, str], Sent]
    # How many resources of the route exist; None for a route whose answer is all it makes.
    made: Made | None
    billed: bool
    status: int = 201
    environment: str = "test"  # of the API key it is sent with


def json_to(path: str, body: dict[str, Any]) -> Callable[[httpx.Client, str], Sent]:
    return lambda api, key: (path, {"json": body})


def an_eval(api: httpx.Client, key: str) -> str:
    return str(new_eval(api, key)["id"])


def eval_with_a_document(api: httpx.Client, key: str) -> tuple[str, str, str]:
    """(eval, document, iteration) ids."""
    eval_id = an_eval(api, key)
    document = add_document(api, key, eval_id, TRUTH)
    iteration = new_iteration(api, key, eval_id)
    return eval_id, str(document["id"]), str(iteration["id"])


def send_eval_document(api: httpx.Client, key: str) -> Sent:
    eval_id = an_eval(api, key)
    body = {"document": doc(invoice()), "annotation": TRUTH}
    return f"{EVALS}/{eval_id}/documents", {"json": body}


def count_eval_documents(api: httpx.Client, key: str, answer: Any) -> int:
    (evaluation,) = api.get(EVALS, headers=auth(key)).json()["data"]
    return listed(f"{EVALS}/{evaluation['id']}/documents")(api, key, answer)


def send_iteration(api: httpx.Client, key: str) -> Sent:
    return f"{EVALS}/{an_eval(api, key)}/iterations", {"json": {}}


def count_iterations(api: httpx.Client, key: str, answer: Any) -> int:
    (evaluation,) = api.get(EVALS, headers=auth(key)).json()["data"]
    return listed(f"{EVALS}/{evaluation['id']}/iterations")(api, key, answer)


def send_eval_extract(api: httpx.Client, key: str) -> Sent:
    eval_id, document_id, iteration_id = eval_with_a_document(api, key)
    body = {"project_id": eval_id, "iteration_id": iteration_id, "document_id": document_id}
    return f"{EVALS}/extract", {"json": body}


def send_process(api: httpx.Client, key: str) -> Sent:
    eval_id, _, iteration_id = eval_with_a_document(api, key)
    return f"{EVALS}/process", {"json": {"project_id": eval_id, "iteration_id": iteration_id}}


def send_split(api: httpx.Client, key: str) -> Sent:
    eval_id, _, _ = eval_with_a_document(api, key)
    return f"{EVALS}/split", {"json": {"project_id": eval_id, "test_fraction": 0.5, "seed": 7}}


def a_template(api: httpx.Client, key: str) -> str:
    response = api.post(
        "/v1/edits/templates", headers=auth(key), json={"name": "Membership", "document": form()}
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def send_fill(api: httpx.Client, key: str) -> Sent:
    body = {"template_id": a_template(api, key), "instructions": INSTRUCTIONS}
    return "/v1/edits/templates/fill", {"json": body}


def start_graph() -> dict[str, Any]:
    return {
        "blocks": [block("start", "start_document"), block("extract", "extract", json_schema=INVOICE_SCHEMA)],
        "edges": [edge("start", "extract")],
    }


def a_workflow(api: httpx.Client, key: str) -> str:
    response = api.post("/v1/workflows", headers=auth(key), json={"name": "Invoices", **start_graph()})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def send_publish(api: httpx.Client, key: str) -> Sent:
    return f"/v1/workflows/{a_workflow(api, key)}/publish", {}


def versions_published(api: httpx.Client, key: str, answer: Any) -> int:
    (workflow,) = api.get("/v1/workflows", headers=auth(key)).json()["data"]
    return int(workflow["published_version"] or 0)


def send_run(api: httpx.Client, key: str) -> Sent:
    body = {"documents": {"start": doc(invoice())}, "version": "draft"}
    return f"/v1/workflows/{a_workflow(api, key)}/runs", {"json": body}


def count_runs(api: httpx.Client, key: str, answer: Any) -> int:
    (workflow,) = api.get("/v1/workflows", headers=auth(key)).json()["data"]
    return listed(f"/v1/workflows/{workflow['id']}/runs")(api, key, answer)


def send_promotion(api: httpx.Client, key: str) -> Sent:
    """A test workflow of the production key's organization, promoted with that key."""
    organization = api.get("/v1/auth/status", headers=auth(key)).json()["organization_id"]
    source = workflow_service().create(Tenant(organization, "test"), "Invoices", None, Graph(**start_graph()))
    return f"/v1/workflows/{source.id}/promotions", {}


def send_rotation(api: httpx.Client, key: str) -> Sent:
    api.get("/v1/webhooks/signing-secret", headers=auth(key))  # the first secret
    return "/v1/webhooks/signing-secret/rotate", {}


def rotations(api: httpx.Client, key: str, answer: Any) -> int:
    """1 while the secret is the one the rotation answered (a second rotation would replace it)."""
    now = api.get("/v1/webhooks/signing-secret", headers=auth(key)).json()["signing_secret"]
    return 1 if now == answer["signing_secret"] else 2


def file_part(name: str = "invoice.pdf", content: bytes | None = None) -> dict[str, Any]:
    return {"files": {"file": (name, content or invoice(), "application/pdf")}}


CSV = b"insurer,code\nAcme Mutual,AM1\nGlobex Life,GL2\n"

CASES = [
    Creating("/v1/files", lambda api, key: ("/v1/files", file_part()), listed("/v1/files"), False),
    Creating(
        "/v1/files/upload",
        json_to("/v1/files/upload", {"filename": "big.pdf", "size_bytes": 10_000_000}),
        None,
        False,
    ),
    Creating("/v1/parses", json_to("/v1/parses", {"document": doc(invoice())}), listed("/v1/parses"), True),
    Creating(
        "/v1/extractions",
        json_to("/v1/extractions", {"document": doc(invoice()), "json_schema": INVOICE_SCHEMA}),
        listed("/v1/extractions"),
        True,
    ),
    Creating(
        "/v1/classifications",
        json_to("/v1/classifications", {"document": doc(invoice()), "categories": CATEGORIES}),
        listed("/v1/classifications"),
        True,
    ),
    Creating(
        "/v1/splits",
        json_to(
            "/v1/splits",
            {"document": doc(invoice()), "subdocuments": [{"name": "invoice", "description": "an invoice"}]},
        ),
        listed("/v1/splits"),
        True,
    ),
    Creating(
        "/v1/partitions",
        json_to("/v1/partitions", {"document": doc(invoice()), "key": "invoice number"}),
        listed("/v1/partitions"),
        True,
    ),
    Creating(
        "/v1/schemas/generate", json_to("/v1/schemas/generate", {"documents": [doc(invoice())]}), None, True
    ),
    Creating(
        "/v1/beta/deepresearch/extract",
        json_to(
            "/v1/beta/deepresearch/extract",
            {
                "document": doc(invoice()),
                "json_schema": INVOICE_SCHEMA,
                "inference_settings": {"model": "docsvc-extract-1", "reasoning_effort": "medium"},
                "num_agentic_steps": 2,
            },
        ),
        None,
        True,
        status=200,
    ),
    Creating(
        "/v1/edits",
        json_to("/v1/edits", {"document": form(), "instructions": INSTRUCTIONS}),
        listed("/v1/edits"),
        True,
    ),
    Creating(
        "/v1/edits/templates",
        json_to("/v1/edits/templates", {"name": "Membership", "document": form()}),
        listed("/v1/edits/templates"),
        False,
    ),
    Creating("/v1/edits/templates/fill", send_fill, listed("/v1/edits"), True),
    Creating(
        "/v1/edits/templates/generate",
        json_to("/v1/edits/templates/generate", {"document": form()}),
        None,
        False,
    ),
    Creating(
        EVALS, json_to(EVALS, {"name": "invoices", "json_schema": INVOICE_SCHEMA}), listed(EVALS), False
    ),
    Creating(f"{EVALS}/{{eval_id}}/documents", send_eval_document, count_eval_documents, False),
    Creating(f"{EVALS}/{{eval_id}}/iterations", send_iteration, count_iterations, False),
    Creating(f"{EVALS}/extract", send_eval_extract, listed("/v1/extractions"), True),
    Creating(f"{EVALS}/process", send_process, None, True),
    Creating(f"{EVALS}/split", send_split, None, False),
    Creating(
        "/v1/secrets",
        json_to("/v1/secrets", {"name": "LEDGER_TOKEN", "value": "s3cr3t"}),
        listed("/v1/secrets", key="secrets"),
        False,
    ),
    Creating(
        "/v1/tables",
        lambda api, key: ("/v1/tables", {"data": {"name": "insurers"}, "files": {"file": ("i.csv", CSV)}}),
        listed("/v1/tables", key="tables"),
        False,
    ),
    Creating(
        "/v1/webhooks/endpoints",
        json_to("/v1/webhooks/endpoints", {"url": "https://93.184.216.34/hooks"}),
        listed("/v1/webhooks/endpoints", key="endpoints"),
        False,
    ),
    Creating("/v1/webhooks/signing-secret/rotate", send_rotation, rotations, False, status=200),
    Creating(
        "/v1/workflows",
        json_to("/v1/workflows", {"name": "Invoices", **start_graph()}),
        listed("/v1/workflows"),
        False,
    ),
    Creating("/v1/workflows/{workflow_id}/publish", send_publish, versions_published, False, status=200),
    Creating("/v1/workflows/{workflow_id}/runs", send_run, count_runs, False, status=202),
    Creating(
        "/v1/workflows/{workflow_id}/promotions",
        send_promotion,
        listed("/v1/workflows"),
        False,
        environment="production",
    ),
]


def with_key(api_key: str, idempotency_key: str) -> dict[str, str]:
    return {**auth(api_key), "Idempotency-Key": idempotency_key}


# ---------------------------------------------------------------------------- every creating route


def post_routes() -> set[str]:
    template = load_template(TEMPLATE)
    resolve = Resolver(
        pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: f"{a}.{b}"
    )
    paths = merged_openapi(functions_of(template, resolve))["paths"]
    return {path for path, operations in paths.items() if "post" in operations}


def test_every_creating_post_of_the_api_is_proven_idempotent_here_and_the_others_are_named() -> None:
    posts = post_routes()

    creating = {path for path in posts if is_creating("POST", path)}
    assert {case.route for case in CASES} == creating, "a creating POST route without its case here"
    assert set(NOT_CREATING) | OWN_MECHANISM <= posts, "an exempted route that does not exist"


def test_the_openapi_description_gives_the_header_on_every_creating_post_only() -> None:
    from tests.conftest import ROOT

    paths = json.loads((ROOT / "docs" / "openapi.json").read_text())["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            names = {parameter.get("name") for parameter in operation.get("parameters", [])}
            documented = "Idempotency-Key" in names
            wanted = method == "post" and (is_creating("POST", path) or path in OWN_MECHANISM)
            assert documented == wanted, (method, path)


@pytest.mark.parametrize("case", CASES, ids=[case.route for case in CASES])
def test_a_creating_post_sent_again_with_its_key_is_done_once_and_answered_the_same(
    api: httpx.Client, org: Org, case: Creating
) -> None:
    key = org.production.key if case.environment == "production" else org.test.key
    url, sent = case.send(api, key)
    before = operations(api, key)
    headers = with_key(key, "retry-" + case.route)

    first = api.post(url, headers=headers, **sent)
    assert first.status_code == case.status, first.text
    charged = operations(api, key)
    again = api.post(url, headers=headers, **sent)

    assert again.status_code == first.status_code
    assert again.content == first.content
    for name in ("content-type", "location"):
        assert again.headers.get(name) == first.headers.get(name)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    if case.made is not None:
        assert case.made(api, key, first.json()) == 1
    assert charged - before == (1 if case.billed else 0)
    assert operations(api, key) == charged


# ---------------------------------------------------------------------------- the other answers


def test_the_same_key_with_another_body_is_422_and_does_nothing(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "one-secret")
    first = api.post("/v1/secrets", headers=headers, json={"name": "A_TOKEN", "value": "1"})

    other = api.post("/v1/secrets", headers=headers, json={"name": "B_TOKEN", "value": "1"})

    assert first.status_code == 201
    assert other.status_code == 422
    (problem,) = other.json()["detail"]
    assert problem["loc"] == ["header", "Idempotency-Key"] and "another request" in problem["msg"]
    secrets = api.get("/v1/secrets", headers=auth(org.test.key)).json()["secrets"]
    assert [secret["name"] for secret in secrets] == ["A_TOKEN"]


def test_the_same_key_on_another_route_or_query_is_another_request(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "shared")
    assert api.post("/v1/secrets", headers=headers, json={"name": "A_TOKEN", "value": "1"}).status_code == 201

    elsewhere = api.post("/v1/webhooks/endpoints", headers=headers, json={"name": "A_TOKEN", "value": "1"})
    with_query = api.post("/v1/secrets?x=1", headers=headers, json={"name": "A_TOKEN", "value": "1"})

    assert elsewhere.status_code == 422 and with_query.status_code == 422


def test_an_upload_with_the_same_key_and_other_bytes_is_422(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "upload")
    content = invoice("INV-1")
    first = api.post("/v1/files", headers=headers, **file_part(content=content))

    other = api.post("/v1/files", headers=headers, **file_part(content=content + b" "))
    same = api.post("/v1/files", headers=headers, **file_part(content=content))

    assert first.status_code == 201 and other.status_code == 422
    assert same.status_code == 201 and same.headers["Idempotent-Replayed"] == "true"
    assert same.json() == first.json()
    assert len(api.get("/v1/files", headers=auth(org.test.key)).json()["data"]) == 1


def test_a_table_upload_is_told_apart_by_its_csv_bytes(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "table")
    form_fields = {"name": "insurers"}
    first = api.post("/v1/tables", headers=headers, data=form_fields, files={"file": ("i.csv", CSV)})

    other_csv = {"file": ("i.csv", CSV + b"X,Y\n")}
    other = api.post("/v1/tables", headers=headers, data=form_fields, files=other_csv)

    assert first.status_code == 201 and other.status_code == 422


def test_a_streamed_parse_is_answered_again_whole(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "stream")
    body = {"document": doc(invoice()), "stream": True}

    first = api.post("/v1/parses", headers=headers, json=body)
    again = api.post("/v1/parses", headers=headers, json=body)

    assert first.status_code == 201 and first.headers["content-type"].startswith("text/event-stream")
    assert again.content == first.content and again.headers["content-type"] == first.headers["content-type"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(api.get("/v1/parses", headers=auth(org.test.key)).json()["data"]) == 1


def secret_request(name: str) -> tuple[bytes, str]:
    body = json.dumps({"name": name, "value": "1"}).encode()
    return body, fingerprint("POST", "/v1/secrets", b"", b"application/json", body)


def test_a_key_whose_request_is_still_running_is_409_with_retry_after(
    deployment: Deployment, api: httpx.Client, org: Org
) -> None:
    body, requested = secret_request("A_TOKEN")
    now = int(time.time())
    running = Claim("running", requested, "another-request", "in_flight", now + 20)
    assert DynamoClaimStore().take(Tenant(org.id, "test"), running, now) is None

    response = api.post(
        "/v1/secrets",
        headers={**with_key(org.test.key, "running"), "Content-Type": "application/json"},
        content=body,
    )

    assert response.status_code == 409, response.text
    assert "still being processed" in response.json()["detail"]
    assert 1 <= int(response.headers["Retry-After"]) <= 20
    assert api.get("/v1/secrets", headers=auth(org.test.key)).json()["secrets"] == []


def test_a_key_whose_request_died_is_free_once_its_time_limit_has_passed(
    deployment: Deployment, api: httpx.Client, org: Org
) -> None:
    body, requested = secret_request("A_TOKEN")
    now = int(time.time())
    died = Claim("died", requested, "a-request-that-timed-out", "in_flight", now - 1)
    assert DynamoClaimStore().take(Tenant(org.id, "test"), died, now - 30) is None

    response = api.post(
        "/v1/secrets",
        headers={**with_key(org.test.key, "died"), "Content-Type": "application/json"},
        content=body,
    )

    assert response.status_code == 201, response.text
    assert "Idempotent-Replayed" not in response.headers


def test_a_claim_lasts_the_time_the_function_has_left() -> None:
    from docsvc.api.idempotency import FALLBACK_SECONDS, seconds_left

    class Context:
        def get_remaining_time_in_millis(self) -> int:
            return 12_345

    assert seconds_left({"aws.context": Context()}) == 14
    assert seconds_left({}) == FALLBACK_SECONDS


def test_a_5xx_answer_is_not_kept_and_the_retry_runs_again(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    s3 = aws.s3()
    put_object = s3.put_object
    failures = [True]

    def failing_once(**arguments: Any) -> Any:
        if arguments.get("Key", "").startswith("files/") and failures:
            failures.pop()
            raise RuntimeError("S3 is down")
        return put_object(**arguments)

    monkeypatch.setattr(s3, "put_object", failing_once)
    headers = with_key(org.test.key, "upload-during-an-outage")
    upload = file_part()

    failed = api.post("/v1/files", headers=headers, **upload)
    retried = api.post("/v1/files", headers=headers, **upload)

    assert failed.status_code == 500
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried.headers
    again = api.post("/v1/files", headers=headers, **upload)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == retried.json()
    assert len(api.get("/v1/files", headers=auth(org.test.key)).json()["data"]) == 1


def test_a_4xx_answer_is_kept_and_answered_again(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "bad-name")

    first = api.post("/v1/secrets", headers=headers, json={"name": "no spaces", "value": "1"})
    again = api.post("/v1/secrets", headers=headers, json={"name": "no spaces", "value": "1"})

    assert first.status_code == 422 and again.status_code == 422
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"


def test_a_key_of_test_is_not_seen_in_production(api: httpx.Client, org: Org) -> None:
    body = {"name": "LEDGER_TOKEN", "value": "1"}

    test = api.post("/v1/secrets", headers=with_key(org.test.key, "same-key"), json=body)
    production = api.post("/v1/secrets", headers=with_key(org.production.key, "same-key"), json=body)

    assert test.status_code == production.status_code == 201
    assert "Idempotent-Replayed" not in production.headers
    for key in (org.test.key, org.production.key):
        assert len(api.get("/v1/secrets", headers=auth(key)).json()["secrets"]) == 1


def test_a_key_of_another_organization_is_not_seen(api: httpx.Client, org: Org, other_org: Org) -> None:
    body = {"name": "LEDGER_TOKEN", "value": "1"}

    first = api.post("/v1/secrets", headers=with_key(org.test.key, "same-key"), json=body)
    other = api.post("/v1/secrets", headers=with_key(other_org.test.key, "same-key"), json=body)

    assert first.status_code == other.status_code == 201 and "Idempotent-Replayed" not in other.headers


@pytest.mark.parametrize(
    ("key", "words"),
    [
        ("k" * 256, "at most 255"),
        ("", "empty"),
        ("clé".encode(), "printable ASCII"),
        ("tab\there", "printable ASCII"),
    ],
)
def test_a_key_too_long_empty_or_not_printable_ascii_is_422_naming_the_header(
    api: httpx.Client, org: Org, key: str | bytes, words: str
) -> None:
    headers: dict[str, str | bytes] = {**auth(org.test.key), "Idempotency-Key": key}

    response = api.post("/v1/secrets", headers=headers, json={"name": "A_TOKEN", "value": "1"})

    assert response.status_code == 422, response.text
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["header", "Idempotency-Key"] and words in problem["msg"]
    assert api.get("/v1/secrets", headers=auth(org.test.key)).json()["secrets"] == []


def test_a_key_of_255_characters_is_taken(api: httpx.Client, org: Org) -> None:
    headers = with_key(org.test.key, "k" * 255)
    body = {"name": "A_TOKEN", "value": "1"}

    assert api.post("/v1/secrets", headers=headers, json=body).status_code == 201
    assert api.post("/v1/secrets", headers=headers, json=body).headers["Idempotent-Replayed"] == "true"


def test_without_a_valid_api_key_the_route_answers_401(api: httpx.Client, org: Org) -> None:
    headers = {"Authorization": "Bearer svc_test_unknown", "Idempotency-Key": "k"}

    assert api.post("/v1/secrets", headers=headers, json={"name": "A_TOKEN", "value": "1"}).status_code == 401


def test_a_request_with_a_key_reads_its_api_key_once(
    api: httpx.Client, org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    accounts = account_service()
    reads: list[str] = []
    authenticate = accounts.authenticate

    def counted(presented: str | None) -> ApiKey:
        reads.append(str(presented))
        return authenticate(presented)

    monkeypatch.setattr(accounts, "authenticate", counted)

    response = api.post(
        "/v1/secrets", headers=with_key(org.test.key, "once"), json={"name": "A_TOKEN", "value": "1"}
    )

    assert response.status_code == 201 and reads == [org.test.key]


def test_an_answer_too_large_for_an_item_is_kept_in_s3_and_answered_again(
    deployment: Deployment, org: Org
) -> None:
    from docsvc.domain.idempotency import IdempotencyService, StoredAnswer

    tenant = Tenant(org.id, "test")
    service = IdempotencyService(DynamoClaimStore())
    claim = service.begin(tenant, "large", "print", 30)
    assert isinstance(claim, Claim)
    body = b"x" * (500 * 1024)

    service.finish(tenant, claim, StoredAnswer(201, (("content-type", "application/json"),), body))

    kept = aws.s3().list_objects_v2(Bucket=settings().files_bucket, Prefix="idempotency/")
    assert [item["Key"].split("/")[1:3] for item in kept["Contents"]] == [[org.id, "test"]]
    again = service.begin(tenant, "large", "print", 30)
    assert again == StoredAnswer(201, (("content-type", "application/json"),), body)

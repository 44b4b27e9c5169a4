"""Load: bursts of concurrent clients, each request on a new connection, against every route group.

    .venv/bin/python bench/load.py [--clients 200] [--rounds 1] [--groups parses jobs ...] [--json PATH]
        [--url URL --key KEY]

Without --url it starts the local stack (`make dev`) on a free port and stops it at the end; with --url
and --key it loads a running deployment (a test key: it creates files, parses and jobs there).
For each route group, `--clients` threads are released together, each opens a new TCP connection,
sends one request and reads the answer; that is repeated `--rounds` times. Printed per group: the
answers by status, connections reset or refused without an answer, 5xx, and p50/p99 latency. Any
503 or 429 must carry Retry-After.

Target: 0 resets and 0 5xx under 200 concurrent new connections (only 2xx, 4xx, 429 or 503 with
Retry-After). The exit code is 1 if the target is not met, 0 otherwise. Every request loop here is
bounded by --clients x --rounds and a 60 s timeout a request, and it only talks to the URL given (by
default the stack it started on loopback).
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout: the end-to-end tests' stack helpers

from tests.e2e.conftest import start_stack, stop_stack  # noqa: E402

REQUEST_SECONDS = 60.0
Request = tuple[str, str, dict[str, Any] | None]  # method, path, JSON body


def one_page_pdf() -> str:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "Invoice INV-2041, total 120.00 EUR")
    return "data:application/pdf;base64," + base64.b64encode(document.tobytes()).decode()


def route_groups() -> dict[str, Callable[[int], Request]]:
    """Each group's request, given the client's number."""
    pdf = one_page_pdf()
    document = {"filename": "invoice.pdf", "url": pdf}
    return {
        "auth": lambda n: ("GET", "/v1/auth/status", None),
        "files": lambda n: ("GET", "/v1/files?limit=10", None),
        "parses": lambda n: ("POST", "/v1/parses", {"document": document}),
        "jobs": lambda n: ("POST", "/v1/jobs", {"endpoint": "/v1/parses", "request": {"document": document}}),
        "extractions": lambda n: (
            "POST",
            "/v1/extractions",
            {
                "document": document,
                "json_schema": {"type": "object", "properties": {"invoice_number": {"type": "string"}}},
            },
        ),
        "tables": lambda n: ("GET", "/v1/tables", None),
        "secrets": lambda n: ("GET", "/v1/secrets", None),
        "webhooks": lambda n: ("GET", "/v1/webhooks/endpoints", None),
        "workflows": lambda n: ("GET", "/v1/workflows", None),
        "events": lambda n: ("GET", "/v1/events?limit=10", None),
        "unknown route": lambda n: ("GET", f"/v1/nothing-here/{n}", None),
    }


@dataclass
class Outcome:
    status: int | None  # None: no answer (reset, refused, timed out)
    seconds: float
    retry_after: str | None = None
    error: str | None = None


@dataclass
class GroupReport:
    group: str
    requests: int
    statuses: dict[str, int]
    no_answer: int
    server_errors: int
    throttled_without_retry_after: int
    p50_seconds: float | None
    p99_seconds: float | None
    errors: list[str] = field(default_factory=list)

    @property
    def met(self) -> bool:
        return self.no_answer == 0 and self.server_errors == 0 and self.throttled_without_retry_after == 0


def send(url: str, key: str, request: Request) -> Outcome:
    method, path, body = request
    parts = urlsplit(url)
    payload = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Bearer {key}", "Connection": "close"}
    if payload is not None:
        headers["Content-Type"] = "application/json"
    started = time.perf_counter()
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=REQUEST_SECONDS
    )
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        response.read()
        return Outcome(response.status, time.perf_counter() - started, response.getheader("Retry-After"))
    except (OSError, http.client.HTTPException) as error:
        return Outcome(None, time.perf_counter() - started, error=f"{type(error).__name__}: {error}")
    finally:
        connection.close()


def burst(url: str, key: str, make: Callable[[int], Request], clients: int) -> list[Outcome]:
    outcomes: list[Outcome | None] = [None] * clients
    gate = threading.Barrier(clients)

    def client(number: int) -> None:
        request = make(number)
        gate.wait()
        outcomes[number] = send(url, key, request)

    threads = [threading.Thread(target=client, args=(number,)) for number in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [outcome for outcome in outcomes if outcome is not None]


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(group: str, outcomes: list[Outcome]) -> GroupReport:
    statuses = Counter(str(outcome.status) for outcome in outcomes if outcome.status is not None)
    answered = [outcome.seconds for outcome in outcomes if outcome.status is not None]
    return GroupReport(
        group=group,
        requests=len(outcomes),
        statuses=dict(sorted(statuses.items())),
        no_answer=sum(outcome.status is None for outcome in outcomes),
        server_errors=sum(  # a 503 with Retry-After is a refusal to send again, not a failure
            outcome.status is not None
            and outcome.status >= 500
            and not (outcome.status == 503 and outcome.retry_after)
            for outcome in outcomes
        ),
        throttled_without_retry_after=sum(
            outcome.status in {429, 503} and not outcome.retry_after for outcome in outcomes
        ),
        p50_seconds=statistics.median(answered) if answered else None,
        p99_seconds=percentile(answered, 0.99),
        errors=sorted({outcome.error for outcome in outcomes if outcome.error})[:5],
    )


def run(url: str, key: str, groups: list[str], clients: int, rounds: int) -> list[GroupReport]:
    makers = route_groups()
    reports = []
    for group in groups:
        outcomes: list[Outcome] = []
        for _ in range(rounds):
            outcomes += burst(url, key, makers[group], clients)
        reports.append(report(group, outcomes))
        print(format_row(reports[-1]), flush=True)
    return reports


def format_row(row: GroupReport) -> str:
    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value * 1000:.0f} ms"

    statuses = " ".join(f"{status}:{count}" for status, count in row.statuses.items())
    line = (
        f"{row.group:<14} {row.requests:>5}  {statuses:<28} no answer {row.no_answer:>3}  "
        f"5xx {row.server_errors:>3}  p50 {ms(row.p50_seconds):>8}  p99 {ms(row.p99_seconds):>8}"
    )
    return line + ("" if not row.errors else f"\n{'':<16}{'; '.join(row.errors)}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--groups", nargs="*", default=list(route_groups()))
    parser.add_argument("--url")
    parser.add_argument("--key")
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    unknown = set(arguments.groups) - set(route_groups())
    if unknown:
        parser.error(f"unknown groups {sorted(unknown)}; the groups are {list(route_groups())}")
    rounds = f"{arguments.rounds} round(s) a group"
    print(f"{arguments.clients} concurrent clients, each on a new connection, {rounds}")
    if arguments.url:
        if not arguments.key:
            parser.error("--url needs --key")
        reports = run(arguments.url, arguments.key, arguments.groups, arguments.clients, arguments.rounds)
    else:
        with tempfile.TemporaryDirectory(prefix="docsvc-load-") as folder:
            stack = start_stack(Path(folder) / "local.json")
            try:
                reports = run(
                    stack.url, stack.test_key, arguments.groups, arguments.clients, arguments.rounds
                )
            finally:
                stop_stack(stack)
    met = all(row.met for row in reports)
    print("target (0 resets, 0 5xx, every 429/503 with Retry-After):", "met" if met else "NOT met")
    if arguments.json:
        arguments.json.write_text(json.dumps([asdict(row) for row in reports], indent=2))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())

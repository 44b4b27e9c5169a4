"""Background parses through the real path: POST /v1/parses with `background: true`, then poll.

    .venv/bin/python bench/background_throughput.py [--parses 20] [--pages 10] [--json PATH]

Starts the local stack in this process (moto server, the gateway and the pollers of template.yaml, on
a free port, with its own state file), creates an organization and a test key, then sends `--parses`
background parses of the same `--pages`-page text PDF (the prose PDF of bench/parse_throughput.py,
as a data URL, `bust_cache: true` so that every one is parsed) one after the other, and polls
GET /v1/parses/{id} until each is completed: the oldest unfinished parse first, every
`--poll-interval` seconds while it is not.

Reports pages/s over the whole run (first POST to the last completion seen), the submit time (the
POST), and the latency from submit to completed at p50 and p95, both as the client saw it (polling
adds up to one interval) and as the service stored it (the record's `created_at` to the `updated_at`
of its completing write, read from the parses table: the API answers only `created_at`). The local
stack runs one poller per queue, so background parses run one at a time here; on AWS the parse worker
runs up to its reserved concurrency (50) at once. Absolute times on a shared 2-core machine are noisy;
compare runs made together. The exit code is 1 if a parse did not complete.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from docsvc.local.stack import LocalStack, free_port  # noqa: E402
from parse_throughput import text_pdf  # noqa: E402

HTTP_TIMEOUT = 120.0


@dataclass
class Submitted:
    parse_id: str
    submitted: float  # perf_counter before the POST
    post_seconds: float
    seen_completed: float | None = None  # perf_counter when a GET first answered `completed`
    status: str = "queued"
    server_seconds: float | None = None  # created_at to updated_at, as stored
    error: str | None = None


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def moment(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def submit(client: httpx.Client, url: str) -> Submitted:
    body = {"document": {"filename": "bench.pdf", "url": url}, "background": True, "bust_cache": True}
    started = time.perf_counter()
    response = client.post("/v1/parses", json=body)
    elapsed = time.perf_counter() - started
    if response.status_code != 201:
        raise RuntimeError(f"POST /v1/parses answered {response.status_code}: {response.text[:500]}")
    answer = response.json()
    if answer["status"] != "queued":
        raise RuntimeError(f"a background parse answered {answer['status']}, not queued")
    return Submitted(answer["id"], started, elapsed)


def wait_for(
    client: httpx.Client, parses: list[Submitted], pages: int, interval: float, timeout: float
) -> None:
    """Polls the oldest unfinished parse until it is finished, then the next one."""
    deadline = time.monotonic() + timeout
    for parse in parses:
        while True:
            response = client.get(f"/v1/parses/{parse.parse_id}")
            now = time.perf_counter()
            response.raise_for_status()
            answer = response.json()
            parse.status = answer["status"]
            if parse.status in {"completed", "failed", "cancelled"}:
                break
            if time.monotonic() > deadline:
                parse.error = f"still {parse.status} after {timeout:.0f} s"
                return
            time.sleep(interval)
        parse.seen_completed = now
        if parse.status != "completed":
            parse.error = f"{parse.status}: {answer.get('error')}"
            continue
        if len(answer["output"]["pages"]) != pages:
            parse.error = f"{len(answer['output']['pages'])} pages in the output, the PDF has {pages}"


def stored_times(tenant: Any, parses: list[Submitted]) -> None:
    """created_at to updated_at of each completed parse, as stored (the API answers only created_at)."""
    from docsvc.adapters.dynamo.parses import DynamoParseRepository

    repository = DynamoParseRepository()
    for parse in parses:
        record = repository.get(tenant, parse.parse_id)
        if record is not None and record.status == "completed":
            parse.server_seconds = (moment(record.updated_at) - moment(record.created_at)).total_seconds()


def run(count: int, pages: int, interval: float, timeout: float) -> dict[str, Any]:
    content = text_pdf(pages)
    url = "data:application/pdf;base64," + base64.b64encode(content).decode("ascii")
    with tempfile.TemporaryDirectory(prefix="docsvc-bench-") as folder:
        # Its own state file: a `make dev` running in this checkout keeps its own.
        os.environ["DOCSVC_STATE_FILE"] = str(Path(folder) / "local.json")
        stack = LocalStack(ROOT, port=free_port())
        stack.start()
        try:
            from docsvc.services import account_service

            accounts = account_service()
            organization = accounts.create_organization("bench")
            key = accounts.create_key(organization.id, "test", name="bench").key
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=stack.url, headers=headers, timeout=HTTP_TIMEOUT) as client:
                parses = [submit(client, url) for _ in range(count)]
                submitted_all = time.perf_counter()
                wait_for(client, parses, pages, interval, timeout)
            stored_times(accounts.authenticate(key).tenant, parses)
        finally:
            stack.stop()
    first = parses[0].submitted
    completed = [p for p in parses if p.status == "completed" and p.error is None]
    last = max((p.seen_completed for p in completed if p.seen_completed is not None), default=None)
    client_latency = [p.seen_completed - p.submitted for p in completed if p.seen_completed is not None]
    server_latency = [p.server_seconds for p in completed if p.server_seconds is not None]
    post = [p.post_seconds for p in parses]

    def summary(values: list[float]) -> dict[str, float] | None:
        if not values:
            return None
        return {"p50": percentile(values, 50), "p95": percentile(values, 95), "max": max(values)}

    return {
        "parses": count,
        "pages_per_parse": pages,
        "pdf_bytes": len(content),
        "completed": len(completed),
        "submit_phase_seconds": submitted_all - first,
        "wall_seconds": None if last is None else last - first,
        "pages_per_second": None if last is None else len(completed) * pages / (last - first),
        "post_seconds": summary(post),
        "latency_client_seconds": summary(client_latency),
        "latency_server_seconds": summary(server_latency),
        "poll_interval": interval,
        "failures": [asdict(p) for p in parses if p.error is not None or p.status != "completed"],
    }


def report(figures: dict[str, Any]) -> None:
    print(
        f"{figures['parses']} background parses of a {figures['pages_per_parse']}-page text PDF "
        f"({figures['pdf_bytes'] / 1024:.0f} KiB), {figures['completed']} completed"
    )
    if figures["wall_seconds"] is not None:
        print(
            f"  first POST to last completion: {figures['wall_seconds']:.2f} s, "
            f"{figures['pages_per_second']:.1f} pages/s "
            f"({figures['submit_phase_seconds']:.2f} s to submit all)"
        )
    print(f"  {'':<38} {'p50 s':>8} {'p95 s':>8} {'max s':>8}")
    for label, name in (
        ("POST (submit)", "post_seconds"),
        ("submit -> completed (client, polled)", "latency_client_seconds"),
        ("created_at -> updated_at (service)", "latency_server_seconds"),
    ):
        values = figures[name]
        if values is None:
            print(f"  {label:<38} no figure")
            continue
        print(f"  {label:<38} {values['p50']:>8.3f} {values['p95']:>8.3f} {values['max']:>8.3f}")
    for failure in figures["failures"]:
        print(f"  FAILED {failure['parse_id']}: {failure['error'] or failure['status']}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--parses", type=int, default=20, help="background parses to send")
    parser.add_argument("--pages", type=int, default=10, help="pages of the PDF each parse reads")
    parser.add_argument("--poll-interval", type=float, default=0.1, help="seconds between GETs of a parse")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for all parses")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()
    if arguments.parses < 1 or arguments.pages < 1:
        parser.error("--parses and --pages must be at least 1")
    figures = run(arguments.parses, arguments.pages, arguments.poll_interval, arguments.timeout)
    report(figures)
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if figures["completed"] == arguments.parses else 1


if __name__ == "__main__":
    sys.exit(main())

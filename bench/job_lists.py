"""Job list latency at 1k and 100k jobs in one environment: does a page cost the same however many
jobs the environment holds?

    .venv/bin/python bench/job_lists.py [--sizes 1000 100000] [--runs 15] [--endpoint URL [--no-moto]]

For each size, a JobsTable made from template.yaml is filled with that many jobs of one tenant
(statuses, endpoints, models and a few workflow jobs spread the way a busy environment has them), then
the first page (limit 20) of each list below is read `--runs` times through JobService.list, the code
path of GET /v1/jobs. It prints the median time per page, the items DynamoDB read for it, and the
ratio of the largest size to the smallest. Target: 100k within 1.2x of 1k.

The backends, measured in the same run:
- moto (always, in process): the emulator of the tests and the local stack. Its Query looks at every
  item of the table on each call, so its times grow with the table whatever the keys: its figures show
  the emulator, and its item counts show what the service asks for.
- `--endpoint URL` (optional): any DynamoDB endpoint, e.g. dynalite from npm, which keeps items in key
  order as DynamoDB does (`npx dynalite --port 4567`, then `--endpoint http://127.0.0.1:4567`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import boto3

ROOT = Path(__file__).resolve().parents[1]

os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

from docsvc.adapters import aws  # noqa: E402
from docsvc.adapters.jobs_table import DynamoJobRepository, job_item  # noqa: E402
from docsvc.domain.jobs import JobQuery, JobRecord, JobService, facts_of  # noqa: E402
from docsvc.ids import new_id  # noqa: E402
from docsvc.local.template import load_template  # noqa: E402
from docsvc.tenancy import Tenant  # noqa: E402

TENANT = Tenant("org_bench", "test")
STATUSES = [("completed", 70), ("failed", 15), ("queued", 10), ("cancelled", 5)]
ENDPOINTS = [("/v1/parses", 60), ("/v1/extractions", 30), ("/v1/splits", 10)]
WORKFLOW_SHARE = 0.05
LISTS: dict[str, dict[str, Any]] = {
    "unfiltered": {},
    "status=failed (index)": {"status": "failed"},
    "endpoint=/v1/extractions (index)": {"endpoint": "/v1/extractions"},
    "workflow_id (index)": {"workflow_id": "wf_bench"},
    "status + endpoint (index, then filter)": {"status": "completed", "endpoint": "/v1/splits"},
    "model (filter after the read)": {"model": "model-b"},
}


@dataclass
class Figure:
    backend: str
    size: int
    list: str
    median_ms: float
    items_read: int
    page_items: int


def weighted(generator: random.Random, choices: list[tuple[str, int]]) -> str:
    return generator.choices([name for name, _ in choices], weights=[weight for _, weight in choices])[0]


def jobs(size: int) -> Iterator[JobRecord]:
    """`size` jobs, oldest first, one every 30 s before now; the same jobs every run."""
    generator, start = random.Random(size), int(time.time()) - 30 * size
    for index in range(size):
        created = start + 30 * index
        request = {"document": {"filename": f"doc-{index}.pdf", "url": "https://example.com/d.pdf"}}
        request["model"] = generator.choice(["model-a", "model-b", "model-c"])
        workflow = generator.random() < WORKFLOW_SHARE
        yield JobRecord(
            id=new_id("job", now_ms=created * 1000),
            organization_id=TENANT.organization_id,
            endpoint=weighted(generator, ENDPOINTS),
            status=weighted(generator, STATUSES),  # type: ignore[arg-type]
            metadata={"workflow_id": "wf_bench", "workflow_block_id": "extract-1"} if workflow else None,
            created_at=created,
            expires_at=created + 7 * 24 * 3600,
            facts=facts_of(request),
        )


def create_table(name: str) -> None:
    properties = load_template(ROOT / "template.yaml")["Resources"]["JobsTable"]["Properties"]
    client: Any = boto3.client("dynamodb")
    client.create_table(
        TableName=name,
        AttributeDefinitions=properties["AttributeDefinitions"],
        KeySchema=properties["KeySchema"],
        GlobalSecondaryIndexes=properties["GlobalSecondaryIndexes"],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=name)


def fill(name: str, size: int) -> float:
    started = time.perf_counter()
    with aws.table(name).batch_writer() as batch:
        for job in jobs(size):
            batch.put_item(Item=job_item(TENANT, job, {"json": "{}"}))
    return time.perf_counter() - started


class CountingTable:
    """The table, counting the items each Query read (DynamoDB's ScannedCount)."""

    def __init__(self, table: Any) -> None:
        self._table, self.read = table, 0

    def query(self, **params: Any) -> Any:
        response = self._table.query(**params)
        self.read += int(response.get("ScannedCount", response.get("Count", 0)))
        return response

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


class CountedRepository(DynamoJobRepository):
    def __init__(self, name: str, counting: CountingTable) -> None:
        super().__init__(name, bucket="unused")
        self._counting = counting

    @property
    def _table(self) -> Any:
        return self._counting


def measure(backend: str, sizes: list[int], runs: int, say: Callable[[str], None]) -> list[Figure]:
    figures = []
    for size in sizes:
        name = f"bench-jobs-{size}-{new_id('t').lower()[-8:]}"
        create_table(name)
        say(f"{backend}: filling {name} with {size:,} jobs ...")
        say(f"{backend}: {size:,} jobs written in {fill(name, size):.1f} s")
        counting = CountingTable(aws.table(name))
        service = JobService(CountedRepository(name, counting), {}, lambda tenant, job_id: None)
        for label, filters in LISTS.items():
            times, page_items = [], 0
            service.list(TENANT, JobQuery(limit=20, **filters))  # warm: clients, connections, caches
            counting.read = 0
            for _ in range(runs):
                started = time.perf_counter()
                page = service.list(TENANT, JobQuery(limit=20, **filters))
                times.append(time.perf_counter() - started)
                page_items = len(page.items)
            figure = Figure(
                backend, size, label, statistics.median(times) * 1000, counting.read // runs, page_items
            )
            figures.append(figure)
            say(f"  {size:>7,}  {label:<40} {figure.median_ms:8.2f} ms  {figure.items_read:>4} items read")
    return figures


@contextmanager
def moto_backend() -> Iterator[None]:
    from moto import mock_aws

    os.environ.pop("AWS_ENDPOINT_URL", None)
    with mock_aws():
        aws.reset()
        yield
    aws.reset()


@contextmanager
def endpoint_backend(url: str) -> Iterator[None]:
    os.environ["AWS_ENDPOINT_URL"] = url
    aws.reset()
    try:
        yield
    finally:
        os.environ.pop("AWS_ENDPOINT_URL", None)
        aws.reset()


def report(figures: list[Figure], sizes: list[int]) -> None:
    smallest, largest = min(sizes), max(sizes)
    print(f"\nfirst page (limit 20), median ms; ratio = {largest:,} jobs / {smallest:,} jobs (target <= 1.2)")
    for backend in dict.fromkeys(figure.backend for figure in figures):
        print(f"\n{backend}")
        print(f"  {'list':<40} {smallest:>10,} {largest:>10,}  ratio  items read")
        for label in LISTS:
            small = next(f for f in figures if (f.backend, f.size, f.list) == (backend, smallest, label))
            large = next(f for f in figures if (f.backend, f.size, f.list) == (backend, largest, label))
            ratio = large.median_ms / small.median_ms
            reads = f"{small.items_read} / {large.items_read}"
            print(f"  {label:<40} {small.median_ms:>10.2f} {large.median_ms:>10.2f}  {ratio:5.2f}  {reads}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--endpoint", help="also measure against this DynamoDB endpoint (e.g. dynalite)")
    parser.add_argument("--no-moto", action="store_true", help="measure the --endpoint only")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    figures: list[Figure] = []
    if not arguments.no_moto:
        with moto_backend():
            figures += measure("moto (in process)", arguments.sizes, arguments.runs, say)
    if arguments.endpoint:
        with endpoint_backend(arguments.endpoint):
            figures += measure(f"endpoint {arguments.endpoint}", arguments.sizes, arguments.runs, say)
    report(figures, arguments.sizes)
    if arguments.json:
        arguments.json.write_text(json.dumps([asdict(figure) for figure in figures], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

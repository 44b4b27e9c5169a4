"""List latency at 1k and 100k items in one environment: does a page of files or of jobs cost the
same however many the environment holds?

    .venv/bin/python bench/list_scale.py [--sizes 1000 100000] [--runs 15] [--lists files jobs]
                                         [--endpoint URL [--no-moto]]

For each kind and size, a table made from template.yaml (FilesTable, JobsTable) is filled with that
many items of one tenant, spread the way a busy environment has them (file names and types; job
statuses, endpoints, models and a few workflow jobs). Then the first page (limit 20) of each list
below is read `--runs` times through the service, the code path of GET /v1/files and GET /v1/jobs.
It prints the median time per page, the items DynamoDB read for it, and the ratio of the largest
size to the smallest. Target: 100k within 1.2x of 1k.

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
from docsvc.adapters.dynamo.files import DynamoFileRepository, file_item  # noqa: E402
from docsvc.adapters.dynamo.jobs import DynamoJobRepository, job_item  # noqa: E402
from docsvc.domain.files import FileQuery, FileRecord, FileService  # noqa: E402
from docsvc.domain.jobs import JobQuery, JobRecord, JobService, facts_of  # noqa: E402
from docsvc.domain.lists import Page  # noqa: E402
from docsvc.ids import new_id  # noqa: E402
from docsvc.local.template import load_template  # noqa: E402
from docsvc.tenancy import Tenant  # noqa: E402

TENANT = Tenant("org_bench", "test")
STATUSES = [("completed", 70), ("failed", 15), ("queued", 10), ("cancelled", 5)]
ENDPOINTS = [("/v1/parses", 60), ("/v1/extractions", 30), ("/v1/splits", 10)]
WORKFLOW_SHARE = 0.05
JOB_LISTS: dict[str, dict[str, Any]] = {
    "unfiltered": {},
    "status=failed (index)": {"status": "failed"},
    "endpoint=/v1/extractions (index)": {"endpoint": "/v1/extractions"},
    "workflow_id (index)": {"workflow_id": "wf_bench"},
    "status + endpoint (index, then filter)": {"status": "completed", "endpoint": "/v1/splits"},
    "model (filter after the read)": {"model": "model-b"},
}
MIME_TYPES = [("application/pdf", 70), ("image/png", 20), ("text/csv", 10)]
FILENAMES = [("invoice", 40), ("contract", 30), ("receipt", 25), ("scan", 5)]
FILE_LISTS: dict[str, dict[str, Any]] = {
    "unfiltered (newest first)": {},
    "mime_type=text/csv (index)": {"mime_type": "text/csv"},
    "sort_by=filename (index)": {"sort_by": "filename"},
    "sort_by=filename, filename=scan (index prefix)": {"sort_by": "filename", "filename": "scan"},
    "filename=receipt (filter after the read)": {"filename": "receipt"},
}


@dataclass
class Figure:
    backend: str
    kind: str
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
            environment=TENANT.environment,
            endpoint=weighted(generator, ENDPOINTS),
            status=weighted(generator, STATUSES),  # type: ignore[arg-type]
            metadata={"workflow_id": "wf_bench", "workflow_block_id": "extract-1"} if workflow else None,
            created_at=created,
            expires_at=created + 7 * 24 * 3600,
            facts=facts_of(request),
        )


def files(size: int) -> Iterator[FileRecord]:
    """`size` files, oldest first, one every 30 s before now; the same files every run."""
    generator, start = random.Random(size), int(time.time()) - 30 * size
    for index in range(size):
        created = start + 30 * index
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created))
        yield FileRecord(
            id=new_id("file", now_ms=created * 1000),
            environment=TENANT.environment,
            filename=f"{weighted(generator, FILENAMES)}-{index}.pdf",
            mime_type=weighted(generator, MIME_TYPES),
            created_at=stamp,
            updated_at=stamp,
            size_bytes=generator.randint(10_000, 5_000_000),
        )


def create_table(name: str, resource: str) -> None:
    properties = load_template(ROOT / "template.yaml")["Resources"][resource]["Properties"]
    client: Any = boto3.client("dynamodb")
    client.create_table(
        TableName=name,
        AttributeDefinitions=properties["AttributeDefinitions"],
        KeySchema=properties["KeySchema"],
        GlobalSecondaryIndexes=properties["GlobalSecondaryIndexes"],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=name)


def fill(name: str, items: Iterator[dict[str, Any]]) -> float:
    started = time.perf_counter()
    with aws.table(name).batch_writer() as batch:
        for item in items:
            batch.put_item(Item=item)
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


class CountedJobs(DynamoJobRepository):
    def __init__(self, name: str, counting: CountingTable) -> None:
        super().__init__(name, bucket="unused")
        self._counting = counting

    @property
    def _table(self) -> Any:
        return self._counting


class CountedFiles(DynamoFileRepository):
    def __init__(self, name: str, counting: CountingTable) -> None:
        super().__init__(name)
        self._counting = counting

    @property
    def _table(self) -> Any:
        return self._counting


Lister = Callable[[dict[str, Any]], Page[Any]]  # a list's filters -> its first page


@dataclass(frozen=True)
class Kind:
    """One kind of list: its table in template.yaml, its items, and its lists."""

    name: str
    resource: str
    items: Callable[[int], Iterator[dict[str, Any]]]
    lister: Callable[[str, CountingTable], Lister]
    lists: dict[str, dict[str, Any]]


def _job_lister(name: str, counting: CountingTable) -> Lister:
    service = JobService(CountedJobs(name, counting), {}, lambda tenant, job_id: None)
    return lambda filters: service.list(TENANT, JobQuery(limit=20, **filters))


def _file_lister(name: str, counting: CountingTable) -> Lister:
    service = FileService(CountedFiles(name, counting), blobs=None)  # type: ignore[arg-type]  # lists only
    return lambda filters: service.list(TENANT, FileQuery(limit=20, **filters))


KINDS = {
    "files": Kind(
        "files",
        "FilesTable",
        lambda size: (file_item(TENANT, record) for record in files(size)),
        _file_lister,
        FILE_LISTS,
    ),
    "jobs": Kind(
        "jobs",
        "JobsTable",
        lambda size: (job_item(TENANT, job, {"json": "{}"}) for job in jobs(size)),
        _job_lister,
        JOB_LISTS,
    ),
}


def measure(
    backend: str, kind: Kind, sizes: list[int], runs: int, say: Callable[[str], None]
) -> list[Figure]:
    figures = []
    for size in sizes:
        name = f"bench-{kind.name}-{size}-{new_id('t').lower()[-8:]}"
        create_table(name, kind.resource)
        say(f"{backend}: filling {name} with {size:,} {kind.name} ...")
        say(f"{backend}: {size:,} {kind.name} written in {fill(name, kind.items(size)):.1f} s")
        counting = CountingTable(aws.table(name))
        first_page = kind.lister(name, counting)
        for label, filters in kind.lists.items():
            times, page_items = [], 0
            first_page(filters)  # warm: clients, connections, caches
            counting.read = 0
            for _ in range(runs):
                started = time.perf_counter()
                page = first_page(filters)
                times.append(time.perf_counter() - started)
                page_items = len(page.items)
            median_ms = statistics.median(times) * 1000
            figure = Figure(backend, kind.name, size, label, median_ms, counting.read // runs, page_items)
            figures.append(figure)
            say(f"  {size:>7,}  {label:<48} {figure.median_ms:8.2f} ms  {figure.items_read:>5} items read")
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
    print(f"\nfirst page (limit 20), median ms; ratio = {largest:,} / {smallest:,} items (target <= 1.2)")
    for backend in dict.fromkeys(figure.backend for figure in figures):
        for kind in dict.fromkeys(figure.kind for figure in figures):
            print(f"\n{backend}: {kind}")
            print(f"  {'list':<48} {smallest:>10,} {largest:>10,}  ratio  items read")
            for label in KINDS[kind].lists:
                found = {(f.backend, f.kind, f.size, f.list): f for f in figures}
                small, large = (found[(backend, kind, n, label)] for n in (smallest, largest))
                ratio = large.median_ms / small.median_ms
                reads = f"{small.items_read} / {large.items_read}"
                times = f"{small.median_ms:>10.2f} {large.median_ms:>10.2f}"
                print(f"  {label:<48} {times}  {ratio:5.2f}  {reads}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--lists", nargs="+", choices=sorted(KINDS), default=sorted(KINDS))
    parser.add_argument("--endpoint", help="also measure against this DynamoDB endpoint (e.g. dynalite)")
    parser.add_argument("--no-moto", action="store_true", help="measure the --endpoint only")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    kinds = [KINDS[name] for name in arguments.lists]
    figures: list[Figure] = []
    if not arguments.no_moto:
        with moto_backend():
            for kind in kinds:
                figures += measure("moto (in process)", kind, arguments.sizes, arguments.runs, say)
    if arguments.endpoint:
        with endpoint_backend(arguments.endpoint):
            backend = f"endpoint {arguments.endpoint}"
            for kind in kinds:
                figures += measure(backend, kind, arguments.sizes, arguments.runs, say)
    report(figures, arguments.sizes)
    if arguments.json:
        arguments.json.write_text(json.dumps([asdict(figure) for figure in figures], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

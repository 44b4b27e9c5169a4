"""Console page loads on the local stack with a full environment: 10,000 files and 10,000 jobs.

    .venv/bin/python bench/console_pages.py [--files 10000] [--jobs 10000] [--runs 5] [--json FILE]

Starts the local stack in this process (moto server, the gateway of template.yaml, the functions), makes
an organization with a console admin (as `make dev` does), fills its test environment's FilesTable and
JobsTable with `--files` and `--jobs` items spread as a busy environment has them (bench/list_scale.py's
generators), uploads one real PDF and runs one parse, then signs in over HTTP and loads every page of
the console `--runs` times, as a browser asks for the HTML (no images, styles or scripts; those are
static or cached). It prints the median and the slowest time of each page, and the size of its HTML.
Target: every page within 1 s.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

import list_scale  # noqa: E402
from docsvc.adapters import aws  # noqa: E402
from docsvc.adapters.dynamo.files import file_item  # noqa: E402
from docsvc.adapters.dynamo.jobs import job_item  # noqa: E402
from docsvc.config import settings  # noqa: E402
from docsvc.local.__main__ import console_admin  # noqa: E402
from docsvc.local.stack import LocalStack, free_port  # noqa: E402
from docsvc.tenancy import Tenant  # noqa: E402
from parse_throughput import text_pdf  # noqa: E402

TARGET_SECONDS = 1.0
HTTP_TIMEOUT = 120.0


@dataclass
class Figure:
    page: str
    median_s: float
    slowest_s: float
    html_bytes: int


def sign_in(client: httpx.Client, email: str, password: str) -> None:
    form = client.get("/console/sign-in")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token is not None, form.text
    answer = client.post(
        "/console/sign-in",
        data={"email": email, "password": password, "csrf": token.group(1), "next": "/console"},
    )
    assert answer.status_code == 303, answer.text


def seed(tenant: Tenant, files: int, jobs: int) -> tuple[float, float]:
    """The environment's files and jobs, written straight into its tables; the seconds each took."""
    list_scale.TENANT = tenant  # the generators make their records for this tenant
    spent = []
    for table, items in (
        (settings().files_table, (file_item(tenant, record) for record in list_scale.files(files))),
        (settings().jobs_table, (job_item(tenant, job, {"json": "{}"}) for job in list_scale.jobs(jobs))),
    ):
        started = time.perf_counter()
        with aws.table(table).batch_writer() as batch:
            for item in items:
                batch.put_item(Item=item)
        spent.append(time.perf_counter() - started)
    return spent[0], spent[1]


def first_id(client: httpx.Client, path: str, prefix: str) -> str:
    """The first id of `prefix` linked from a list page."""
    found = re.search(rf"/({prefix}_[A-Za-z0-9]+)", client.get(path).text)
    assert found is not None, f"no {prefix} id on {path}"
    return found.group(1)


def measure(client: httpx.Client, pages: dict[str, str], runs: int) -> list[Figure]:
    figures = []
    for label, path in pages.items():
        times, size = [], 0
        for _ in range(runs):
            started = time.perf_counter()
            answer = client.get(path)
            times.append(time.perf_counter() - started)
            assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
            size = len(answer.content)
        figures.append(Figure(label, round(statistics.median(times), 3), round(max(times), 3), size))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    arguments = parser.parse_args()

    stack = LocalStack(root=ROOT, port=free_port(), log_level="ERROR")
    stack.start()
    try:
        from docsvc.services import account_service

        accounts = account_service()
        organization = accounts.create_organization("bench")
        key = accounts.create_key(organization.id, "test", name="bench").key
        email, password = console_admin(organization.id)
        tenant = Tenant(organization.id, "test")
        files_s, jobs_s = seed(tenant, arguments.files, arguments.jobs)
        print(f"seeded {arguments.files:,} files ({files_s:.1f} s), {arguments.jobs:,} jobs ({jobs_s:.1f} s)")

        with httpx.Client(base_url=stack.url, timeout=HTTP_TIMEOUT) as client:
            headers = {"Authorization": f"Bearer {key}"}
            upload = client.post("/v1/files", headers=headers, files={"file": ("bench.pdf", text_pdf(3))})
            upload.raise_for_status()
            file_id = upload.json()["id"]
            parse = client.post("/v1/parses", headers=headers, json={"document": {"id": file_id}})
            parse.raise_for_status()
            parse_id = parse.json()["id"]

            sign_in(client, email, password)
            base = f"/console/{organization.id}/test"
            job_id = first_id(client, f"{base}/jobs", "job")
            pages = {
                "files": f"{base}/files",
                "files, name starts with scan": f"{base}/files?name=scan",
                "files, a name no file has": f"{base}/files?name=nothing",
                "files, second page": f"{base}/files?after=" + _next_cursor(client, f"{base}/files"),
                "a file (viewer, page 1)": f"{base}/files/{file_id}",
                "a file with its parse": f"{base}/files/{file_id}?parse={parse_id}",
                "jobs": f"{base}/jobs",
                "jobs, status failed": f"{base}/jobs?status=failed",
                "jobs, failed splits": f"{base}/jobs?status=failed&endpoint=/v1/splits",
                "jobs, second page": f"{base}/jobs?after=" + _next_cursor(client, f"{base}/jobs"),
                "a job": f"{base}/jobs/{job_id}",
                "parses": f"{base}/parses",
                "a parse": f"{base}/parses/{parse_id}",
                "extractions": f"{base}/extractions",
                "workflows": f"{base}/workflows",
                "secrets": f"{base}/secrets",
                "lookup tables": f"{base}/tables",
                "webhooks": f"{base}/webhooks",
                "usage (30 days)": f"{base}/usage",
                "API keys": f"{base}/keys",
                "members": f"{base}/members",
            }
            figures = measure(client, pages, arguments.runs)
    finally:
        stack.stop()

    width = max(len(figure.page) for figure in figures)
    print(f"\n{'page':<{width}}  median   slowest   HTML")
    for figure in figures:
        times = f"{figure.median_s:5.3f} s  {figure.slowest_s:5.3f} s"
        print(f"{figure.page:<{width}}  {times}  {figure.html_bytes:,} B")
    over = [figure.page for figure in figures if figure.slowest_s > TARGET_SECONDS]
    print(f"\npages over {TARGET_SECONDS:.0f} s: {', '.join(over) if over else 'none'}")
    if arguments.json:
        arguments.json.write_text(json.dumps([asdict(figure) for figure in figures], indent=2) + "\n")
    return 1 if over else 0


def _next_cursor(client: httpx.Client, path: str) -> str:
    found = re.search(r'rel="next" href="[^"]*[?&]after=([^"&]+)', client.get(path).text)
    assert found is not None, f"no next page on {path}"
    return found.group(1)


if __name__ == "__main__":
    sys.exit(main())

"""Cost model: what 1,000 parsed pages cost on AWS (arm64, us-east-1), next to per-page services.

    .venv/bin/python bench/cost_model.py [--text-ms-per-page 1.3] [--ocr-ms-per-page MS] [--json PATH]

Inputs, each a flag with its default:
- text ms/page: 1.3, the docsvc engine's in-process median per page for the 120-page text PDF
  (bench/parse_throughput.py, README "Performance": 0.153-0.160 s for 120 pages), measured with two
  cores reading in parallel. Lambda gives a 2048 MB function about 2048/1769 = 1.16 vCPU, so the model
  multiplies by measured cores / Lambda vCPUs (--measured-cores 2): about 1.73. The reader function
  (DocumentReaderFunction) and the parse worker have the same 2048 MB.
- OCR ms/page: measured here when Tesseract's language data is installed (a page of the text PDF
  rendered at 150 dpi into an image-only PDF, read by the engine at 150 dpi with one Tesseract thread
  (OMP_THREAD_LIMIT=1), median of --ocr-runs pages; one core's time, not scaled); else 1,500 ms, a
  stated assumption.
- fixed time per invocation: 65 ms, what the HTTP path added to the engine for the 120-page PDF in the
  local stack when this model was first made (now 30 to 55 ms: docs/performance.md, "Parse
  throughput"; the larger figure is kept, to err on the side of cost). The same figure is used for
  every other invocation of the pattern (a POST that queues, a GET that polls), which overstates those.
- memory: MemorySize of ParsesApiFunction, DocumentReaderFunction, ParseWorkerFunction and
  WebhookDispatcherFunction, read from template.yaml.

Request patterns, counted from the code (layers/core/docsvc/domain/parses.py, adapters/dynamo/parses.py,
adapters/parse_store.py, domain/accounts.py):
- sync: one POST /v1/parses of a --pages-per-request PDF as a data URL, answered `completed`. The key is
  read with a strongly consistent GetItem (1 RRU), the cache entry with an eventually consistent one
  (0.5 RRU); ParsesApiFunction invokes DocumentReaderFunction with the document (under 4 MB: in the
  request, no S3) and waits for its pages, so both are billed for the read, each at its own memory;
  the output goes to S3 (1 PUT); one TransactWriteItems writes the parse, its event, its usage counter
  and its cache entry (4 items, 2 WRU each when under 1 KB: 8 WRU).
- background: the POST stores the input (1 S3 PUT), puts the parse `pending` and moves it `queued`
  (2 WRU), sends 1 SQS message; the worker receives and deletes it (2 SQS requests; the event source's
  empty polls are left out), reads the parse (1 RRU), moves it `in_progress` (1 WRU), reads the input
  (1 S3 GET) and the cache entry (0.5 RRU), reads the parse every 0.5 s of reading (cancellation check,
  1 RRU),
  stores the output (1 S3 PUT) and completes in the same 4-item transaction (8 WRU); the client polls
  --polls times (each an API request and a ParsesApi invocation reading the key and the parse: 2 RRU;
  the last reads the output: 1 S3 GET).
- both: the event written with the parse goes through the events table's stream to the webhook
  dispatcher (one 256 MB invocation per event assumed, low traffic: batches of 1; it queries the
  environment's webhook endpoints, 0.5 RRU); the output is stored for one month (3.3 KB per text
  page: the 390 KB of the 120-page PDF's pages).
DynamoDB Streams reads by Lambda, data transfer, CloudWatch Logs and X-Ray are not counted.

Prices: us-east-1, published list prices as of 2026-11 (constants below name their pages). The peer
per-page prices are list prices too; LlamaParse's and Reducto's are assumptions to check (see below).
Target: <= $0.05 per 1,000 text pages (sync, --pages-per-request pages); prints met / not met.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from docsvc.local.template import load_template  # noqa: E402

# AWS list prices, us-east-1, as published in 2026-11.
# https://aws.amazon.com/lambda/pricing/ (Arm): duration and requests
LAMBDA_ARM_GB_SECOND = 0.0000133334
LAMBDA_REQUEST = 0.20 / 1_000_000
# https://aws.amazon.com/api-gateway/pricing/ (HTTP APIs, first 300 million a month)
HTTP_API_REQUEST = 1.00 / 1_000_000
# https://aws.amazon.com/dynamodb/pricing/on-demand/
DYNAMODB_WRITE_UNIT = 1.25 / 1_000_000
DYNAMODB_READ_UNIT = 0.25 / 1_000_000
# https://aws.amazon.com/s3/pricing/ (S3 Standard)
S3_PUT = 0.005 / 1_000
S3_GET = 0.0004 / 1_000
S3_GB_MONTH = 0.023
# https://aws.amazon.com/sqs/pricing/ (standard queues, beyond the free tier)
SQS_REQUEST = 0.40 / 1_000_000

# Per-page services, US list prices per 1,000 pages.
PEERS = {
    # https://aws.amazon.com/textract/pricing/ : DetectDocumentText, first million pages a month
    "AWS Textract DetectDocumentText": (1.50, "published"),
    # https://azure.microsoft.com/pricing/details/ai-document-intelligence/ : Read, 0-1M pages
    "Azure Document Intelligence Read": (1.50, "published"),
    # ASSUMPTION to check: developers.llamaindex.ai FAQ, pay-as-you-go $1.25 per 1,000 credits; the
    # cost-effective parse mode at 3 credits a page (fast mode: 1 credit, $1.25 per 1,000 pages).
    "LlamaParse (cost-effective, 3 credits/page)": (3 * 1.25, "assumption"),
    # ASSUMPTION to check: docs.reducto.ai credit usage, 1 credit per standard page; the dollar price of a
    # credit is not on that page: $0.015 a credit (pay-as-you-go) is assumed.
    "Reducto (standard page, 1 credit)": (1 * 0.015 * 1000, "assumption"),
}

LAMBDA_MB_PER_VCPU = 1769  # Lambda: a function gets one full vCPU at 1,769 MB, in proportion below and above
OUTPUT_KB_PER_TEXT_PAGE = 3.3
DEFAULT_OCR_MS = 1500.0
TARGET_PER_1000 = 0.05
SYNC_SECONDS = 29  # Globals.Function.Timeout in template.yaml: API Gateway's 30 s integration limit


@dataclass
class Invocation:
    function: str
    memory_mb: int
    seconds: float

    @property
    def cost(self) -> float:
        return LAMBDA_REQUEST + self.memory_mb / 1024 * self.seconds * LAMBDA_ARM_GB_SECOND


@dataclass
class Pattern:
    """Everything one request of a pattern costs; `pages` pages per request."""

    name: str
    pages: int
    invocations: list[Invocation]
    api_requests: int = 0
    write_units: float = 0
    read_units: float = 0
    s3_puts: int = 0
    s3_gets: int = 0
    sqs_requests: int = 0
    stored_kb: float = 0

    def costs(self) -> dict[str, float]:
        return {
            "lambda": sum(invocation.cost for invocation in self.invocations),
            "http_api": self.api_requests * HTTP_API_REQUEST,
            "dynamodb": self.write_units * DYNAMODB_WRITE_UNIT + self.read_units * DYNAMODB_READ_UNIT,
            "s3": self.s3_puts * S3_PUT + self.s3_gets * S3_GET + self.stored_kb / 1024 / 1024 * S3_GB_MONTH,
            "sqs": self.sqs_requests * SQS_REQUEST,
        }

    def per_1000_pages(self) -> dict[str, float]:
        return {key: value * 1000 / self.pages for key, value in self.costs().items()}


def memory_sizes() -> dict[str, int]:
    template = load_template(ROOT / "template.yaml")
    default = int(template["Globals"]["Function"]["MemorySize"])
    return {
        logical_id: int(resource["Properties"].get("MemorySize", default))
        for logical_id, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }


def measure_ocr_ms(runs: int) -> float | None:
    """The engine's time per OCR'd page (150 dpi), or None without Tesseract's language data."""
    import pymupdf
    from docsvc.documents import engine
    from docsvc.documents.engine.ocr import tessdata
    from parse_throughput import text_pdf

    if tessdata() is None:
        return None
    # One Tesseract thread (the engine's child inherits this): the figure is one core's, which Lambda's
    # 1.16 vCPU at least matches.
    os.environ["OMP_THREAD_LIMIT"] = "1"
    with pymupdf.open(stream=text_pdf(1), filetype="pdf") as source, pymupdf.open() as scanned:
        image = source[0].get_pixmap(dpi=150).tobytes("png")
        for _ in range(runs):
            page = scanned.new_page(width=source[0].rect.width, height=source[0].rect.height)
            page.insert_image(page.rect, stream=image)
        content = bytes(scanned.tobytes())
    times, last = [], time.perf_counter()
    for page in engine.parse_pages(content, "pdf", engine.ParseOptions(dpi=150)):
        now = time.perf_counter()
        if page.number > 1:  # the first includes the child's start
            times.append(now - last)
        if not page.text.strip():
            raise RuntimeError(f"OCR gave no text: {page.warnings}")
        last = now
    return statistics.median(times) * 1000 if times else None


def sync_pattern(
    pages: int, page_ms: float, overhead_ms: float, memory: dict[str, int], kb: float
) -> Pattern:
    read_seconds = pages * page_ms / 1000
    parse = Invocation("ParsesApiFunction", memory["ParsesApiFunction"], overhead_ms / 1000 + read_seconds)
    reader = Invocation("DocumentReaderFunction", memory["DocumentReaderFunction"], read_seconds)
    dispatch = Invocation(
        "WebhookDispatcherFunction", memory["WebhookDispatcherFunction"], overhead_ms / 1000
    )
    return Pattern(
        "sync",
        pages,
        [parse, reader, dispatch],
        api_requests=1,
        write_units=8,
        read_units=1 + 0.5 + 0.5,
        s3_puts=1,
        stored_kb=pages * kb,
    )


def cancellation_checks(pages: int, page_ms: float) -> int:
    """How often the worker reads the parse to see whether it was cancelled meanwhile: between pages,
    at most every CANCEL_CHECK_SECONDS."""
    from docsvc.domain.parses import CANCEL_CHECK_SECONDS

    return min(pages, int(pages * page_ms / 1000 / CANCEL_CHECK_SECONDS))


def background_pattern(
    pages: int, page_ms: float, overhead_ms: float, memory: dict[str, int], kb: float, polls: int
) -> Pattern:
    api, worker = memory["ParsesApiFunction"], memory["ParseWorkerFunction"]
    invocations = [
        Invocation("ParsesApiFunction", api, overhead_ms / 1000),  # the POST
        Invocation("ParseWorkerFunction", worker, (overhead_ms + pages * page_ms) / 1000),
        Invocation("WebhookDispatcherFunction", memory["WebhookDispatcherFunction"], overhead_ms / 1000),
        *[Invocation("ParsesApiFunction", api, overhead_ms / 1000) for _ in range(polls)],
    ]
    return Pattern(
        "background",
        pages,
        invocations,
        api_requests=1 + polls,
        write_units=2 + 1 + 8,
        read_units=1 + 1 + 0.5 + cancellation_checks(pages, page_ms) + 0.5 + 2 * polls,
        s3_puts=2,
        s3_gets=1 + 1,
        sqs_requests=3,
        stored_kb=pages * kb,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--text-ms-per-page", type=float, default=1.3, help="engine ms per text page")
    parser.add_argument("--measured-cores", type=float, default=2.0, help="cores the ms/page was measured on")
    parser.add_argument("--ocr-ms-per-page", type=float, help="engine ms per OCR page (default: measure)")
    parser.add_argument("--ocr-runs", type=int, default=4, help="pages OCR'd to measure (the first excluded)")
    parser.add_argument("--overhead-ms", type=float, default=65.0, help="fixed ms per invocation")
    parser.add_argument("--pages-per-request", type=int, default=10)
    parser.add_argument("--polls", type=int, default=2, help="GETs a client sends per background parse")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    arguments = parser.parse_args()

    memory = memory_sizes()
    vcpus = memory["DocumentReaderFunction"] / LAMBDA_MB_PER_VCPU
    factor = max(arguments.measured_cores / vcpus, 1.0)
    text_ms = arguments.text_ms_per_page * factor
    ocr_source = "flag"
    ocr_ms = arguments.ocr_ms_per_page
    if ocr_ms is None:
        ocr_ms = measure_ocr_ms(max(arguments.ocr_runs, 2))
        ocr_source = "measured here (one core)"
        if ocr_ms is None:
            ocr_ms, ocr_source = DEFAULT_OCR_MS, "assumed (no Tesseract data here)"
    pages = arguments.pages_per_request
    print(
        f"memory: ParsesApiFunction {memory['ParsesApiFunction']} MB, DocumentReaderFunction "
        f"{memory['DocumentReaderFunction']} MB, ParseWorkerFunction {memory['ParseWorkerFunction']} MB, "
        f"WebhookDispatcherFunction {memory['WebhookDispatcherFunction']} MB"
    )
    print(
        f"text: {arguments.text_ms_per_page} ms/page measured on {arguments.measured_cores:g} cores x "
        f"{factor:.2f} = {text_ms:.2f} ms/page on {vcpus:.2f} Lambda vCPU; OCR: {ocr_ms:.0f} ms/page "
        f"({ocr_source}); fixed {arguments.overhead_ms:.0f} ms per invocation; {pages} pages per request\n"
    )

    rows: list[dict[str, Any]] = []
    for kind, page_ms in (("text", text_ms), ("OCR", ocr_ms)):
        for pattern in (
            sync_pattern(pages, page_ms, arguments.overhead_ms, memory, OUTPUT_KB_PER_TEXT_PAGE),
            background_pattern(
                pages, page_ms, arguments.overhead_ms, memory, OUTPUT_KB_PER_TEXT_PAGE, arguments.polls
            ),
        ):
            parts = pattern.per_1000_pages()
            rows.append(
                {"pages": kind, "pattern": pattern.name, "per_1000": parts, "total": sum(parts.values())}
            )
    services = ("lambda", "http_api", "dynamodb", "s3", "sqs")
    print(f"{'$ per 1,000 pages':<22} " + " ".join(f"{key:>9}" for key in services) + f" {'total':>9}")
    for row in rows:
        cells = " ".join(
            f"{row['per_1000'][key]:>9.4f}" for key in ("lambda", "http_api", "dynamodb", "s3", "sqs")
        )
        print(f"{row['pages'] + ', ' + row['pattern']:<22} {cells} {row['total']:>9.4f}")

    if pages * ocr_ms / 1000 + arguments.overhead_ms / 1000 > SYNC_SECONDS:
        print(
            f"note: {pages} OCR pages take about {pages * ocr_ms / 1000:.0f} s, over the {SYNC_SECONDS} s "
            "of a synchronous request (the API functions' Timeout): such documents go in the background"
        )
    print("\nsync text parse, by pages per request ($ per 1,000 pages):")
    by_size = {}
    for size in (1, 10, 100):
        pattern = sync_pattern(size, text_ms, arguments.overhead_ms, memory, OUTPUT_KB_PER_TEXT_PAGE)
        by_size[size] = sum(pattern.per_1000_pages().values())
        print(f"  {size:>4} pages: {by_size[size]:.4f}")

    print(f"\n{'per-page services':<46} {'$ / 1,000 pages':>16}")
    ours = {row["pages"] + ", " + row["pattern"]: row["total"] for row in rows}
    for name, total in ours.items():
        print(f"{'docsvc on AWS, ' + name:<46} {total:>16.4f}")
    for name, (price, basis) in PEERS.items():
        print(f"{name:<46} {price:>16.2f}  ({basis})")

    text_sync = ours["text, sync"]
    met = text_sync <= TARGET_PER_1000
    print(
        f"\n{'met' if met else 'not met'}: <= ${TARGET_PER_1000} per 1,000 text pages "
        f"(sync, {pages} pages per request: ${text_sync:.4f})"
    )
    if arguments.json is not None:
        figures = {
            "inputs": {
                "text_ms_per_page_measured": arguments.text_ms_per_page,
                "cpu_factor": factor,
                "text_ms_per_page": text_ms,
                "ocr_ms_per_page": ocr_ms,
                "ocr_source": ocr_source,
                "overhead_ms": arguments.overhead_ms,
                "pages_per_request": pages,
                "polls": arguments.polls,
                "memory_mb": memory,
            },
            "rows": rows,
            "sync_text_by_pages_per_request": by_size,
            "peers": {name: {"per_1000": price, "basis": basis} for name, (price, basis) in PEERS.items()},
            "target": {"limit": TARGET_PER_1000, "value": text_sync, "met": met},
            "patterns": [
                asdict(sync_pattern(pages, text_ms, arguments.overhead_ms, memory, OUTPUT_KB_PER_TEXT_PAGE)),
                asdict(
                    background_pattern(
                        pages,
                        text_ms,
                        arguments.overhead_ms,
                        memory,
                        OUTPUT_KB_PER_TEXT_PAGE,
                        arguments.polls,
                    )
                ),
            ],
        }
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

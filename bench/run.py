"""One entry point for the benchmarks: list them, run one by name, or run them all.

    .venv/bin/python bench/run.py list
    .venv/bin/python bench/run.py parse_throughput -- --repeat 3
    .venv/bin/python bench/run.py all --quick

Each benchmark is its own script in bench/ and runs in a subprocess with this interpreter, from the
checkout's root, with its output passed through; arguments after `--` go to the script. `--quick`
gives each script small settings (fewer repeats, smaller corpora) for a smoke run; the figures in
docs/performance.md come from the commands written next to them, not from --quick. `all` runs every
benchmark one after the other (never two at once: they would time each other) and ends with a table
of exit codes and times. A benchmark that needs something absent (build artefacts for function_sizes)
says so and counts as skipped (exit code 2).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SKIPPED = 2  # the exit code of a benchmark that could not run here (e.g. no build artefacts)


@dataclass(frozen=True)
class Benchmark:
    name: str
    summary: str
    quick: list[str] = field(default_factory=list)

    @property
    def script(self) -> Path:
        return BENCH / f"{self.name}.py"


BENCHMARKS = [
    Benchmark(
        "parse_throughput",
        "PDFs over HTTP and in process vs PyMuPDF, pypdf, pdfplumber, markitdown",
        ["--repeat", "1", "--text-pages", "1", "10", "--slow-peers-max-pages", "10"],
    ),
    Benchmark(
        "text_fidelity",
        "extracted text vs known text, per page kind, per extractor",
        ["--pages-per-kind", "1"],
    ),
    Benchmark(
        "background_throughput",
        "background parses through the local stack: pages/s, latency",
        ["--parses", "5", "--pages", "5"],
    ),
    Benchmark("cold_start", "import time of every function's handler", ["--runs", "2"]),
    Benchmark("bytecode", "an API handler's import without and with shipped bytecode", ["--runs", "2"]),
    Benchmark("parse_memory", "peak RSS of a parse of the 120-page PDF (and the table PDF)", ["--runs", "1"]),
    Benchmark(
        "function_sizes", "unzipped size of each function with its layers (needs `make build`)", ["--no-zip"]
    ),
    Benchmark(
        "cost_model", "AWS cost per 1,000 text and OCR pages vs per-page services", ["--ocr-runs", "2"]
    ),
    Benchmark(
        "list_scale",
        "first page of file and job lists at 1k and 100k items",
        ["--sizes", "200", "2000", "--runs", "3"],
    ),
    Benchmark("table_queries", "parse, snapshot and query a large CSV", ["--megabytes", "2", "--runs", "1"]),
    Benchmark(
        "fuzz",
        "Schemathesis over every operation with both keys: answers by status, 5xx, documented shapes",
        ["--examples", "5"],
    ),
    Benchmark("load", "bursts of concurrent new connections at each route group", ["--clients", "50"]),
    Benchmark(
        "real_documents",
        "real public documents (bench/real_corpus.py assembles them): text, tables, OCR, speed, peers",
        ["--no-rotations", "--no-camelot"],
    ),
    Benchmark(
        "long_documents",
        "real public PDFs of 10 pages or more: speed against raw PyMuPDF, words of the text layer kept",
        ["--max-pages", "60"],
    ),
    Benchmark(
        "forms",
        "real public PDF forms filled from instructions: values in the right field, with and without widgets",
        ["--split", "tune"],
    ),
    Benchmark(
        "forms_pdfjs",
        "the filled forms read back by pdf.js (Node.js): opened, values seen as PyMuPDF sees them",
        ["--split", "tune"],
    ),
    Benchmark(
        "intelligence_quality",
        "extraction, classification and split on synthetic documents",
        ["--limit", "24"],
    ),
]
BY_NAME = {benchmark.name: benchmark for benchmark in BENCHMARKS}


def run(benchmark: Benchmark, arguments: list[str]) -> int:
    command = [sys.executable, str(benchmark.script), *arguments]
    print(
        f"\n=== {benchmark.name}: {' '.join(['python', f'bench/{benchmark.script.name}', *arguments])}",
        flush=True,
    )
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def list_benchmarks() -> None:
    width = max(len(name) for name in BY_NAME)
    for benchmark in BENCHMARKS:
        print(f"{benchmark.name:<{width}}  {benchmark.summary}")
    print(f"{'all':<{width}}  every one of them, in this order")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("name", help="a benchmark, `list` or `all`")
    parser.add_argument("--quick", action="store_true", help="small settings for a smoke run")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    arguments = parser.parse_args(argv[:split])
    extra = argv[split + 1 :]
    if arguments.name == "list":
        list_benchmarks()
        return 0
    if arguments.name == "all":
        if extra:
            parser.error("arguments after -- go to one benchmark, not to all")
        results = []
        for benchmark in BENCHMARKS:
            started = time.perf_counter()
            code = run(benchmark, benchmark.quick if arguments.quick else [])
            results.append((benchmark.name, code, time.perf_counter() - started))
        print(f"\n{'benchmark':<24} {'result':<10} {'seconds':>8}")
        for name, code, seconds in results:
            result = "ok" if code == 0 else "skipped" if code == SKIPPED else f"exit {code}"
            print(f"{name:<24} {result:<10} {seconds:>8.1f}")
        return 1 if any(code not in (0, SKIPPED) for _, code, _ in results) else 0
    benchmark = BY_NAME.get(arguments.name)
    if benchmark is None:
        parser.error(f"no benchmark {arguments.name!r}; `python bench/run.py list` names them")
    return run(benchmark, (benchmark.quick if arguments.quick else []) + extra)


if __name__ == "__main__":
    sys.exit(main())

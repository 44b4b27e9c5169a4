"""Peak memory of a parse: the 120-page text PDF and the 20-page table PDF, each in a fresh process.

    .venv/bin/python bench/parse_memory.py [--runs 3] [--json PATH]

The PDFs are those of bench/parse_throughput.py, written to a temporary folder. Each run is a new
interpreter (this script with --child) that reads the PDF, imports what the method needs (PyMuPDF and
the docsvc engine), then parses the PDF once, and prints two peaks of resident memory:
- its own: VmHWM of /proc/self/status on Linux (else `resource.getrusage(RUSAGE_SELF)`'s ru_maxrss;
  Linux keeps ru_maxrss across exec, so on Linux it would report this script's own peak);
- its children's: `resource.getrusage(RUSAGE_CHILDREN)`'s ru_maxrss, the largest of its finished
  children (the docsvc engine reads a document in forked children, one per core, and waits for them).
A `baseline` method reads the PDF and imports the engine and PyMuPDF without parsing: the difference
is what the parse adds. The median of `--runs` is printed per method, next to the memory of the
functions that parse (2048 MB in template.yaml).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

METHODS = ("baseline", "docsvc engine", "PyMuPDF get_text (raw)")
PDFS = ("text", "tables")
FUNCTION_MEMORY_MB = 2048  # ParsesApiFunction and ParseWorkerFunction, template.yaml


def peak_self_mib() -> float:
    """This process's peak RSS: VmHWM where /proc has it (Linux), else ru_maxrss. Linux carries
    ru_maxrss across exec, so a child started by a fork of a large parent would report the parent's
    peak; VmHWM belongs to the address space, which exec replaces."""
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(method: str, path: str) -> None:
    """In the fresh process: read, import, parse once, print the two peaks in MiB as JSON."""
    import pymupdf
    from docsvc.documents import engine

    content = Path(path).read_bytes()
    pages = 0
    if method == "docsvc engine":
        pages = sum(1 for _ in engine.parse_pages(content, "pdf", engine.ParseOptions()))
    elif method == "PyMuPDF get_text (raw)":
        with pymupdf.open(stream=content, filetype="pdf") as document:
            pages = len([page.get_text() for page in document])
    own = peak_self_mib()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"pages": pages, "self_mib": own, "children_mib": children}))


def measure(method: str, path: Path, runs: int) -> dict[str, float]:
    peaks = []
    for _ in range(runs):
        command = [sys.executable, __file__, "--child", method, str(path)]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        peaks.append(json.loads(result.stdout.strip().splitlines()[-1]))
    return {
        "self_mib": statistics.median(p["self_mib"] for p in peaks),
        "children_mib": statistics.median(p["children_mib"] for p in peaks),
        "pages": peaks[0]["pages"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per method and PDF")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--child", nargs=2, metavar=("METHOD", "PDF"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        child(*arguments.child)
        return 0
    if arguments.runs < 1:
        parser.error("--runs must be at least 1")
    from parse_throughput import table_pdf, text_pdf

    folder = Path(tempfile.mkdtemp(prefix="docsvc-bench-"))
    paths = {"text": folder / "text.pdf", "tables": folder / "tables.pdf"}
    paths["text"].write_bytes(text_pdf())
    paths["tables"].write_bytes(table_pdf())
    figures: dict[str, dict[str, dict[str, float]]] = {}
    print(
        f"{'pdf':<8} {'method':<26} {'peak MiB (self)':>16} {'peak MiB (child)':>17}  runs={arguments.runs}"
    )
    for pdf in PDFS:
        figures[pdf] = {}
        for method in METHODS:
            figure = measure(method, paths[pdf], arguments.runs)
            figures[pdf][method] = figure
            child_peak = f"{figure['children_mib']:>17.1f}" if figure["children_mib"] else f"{'-':>17}"
            print(f"{pdf:<8} {method:<26} {figure['self_mib']:>16.1f} {child_peak}")
    shutil.rmtree(folder, ignore_errors=True)
    engine = figures["text"]["docsvc engine"]
    peak = max(engine["self_mib"], engine["children_mib"])
    print(
        f"\n120-page text PDF, docsvc engine: the largest process peaks at {peak:.0f} MiB "
        f"({peak / FUNCTION_MEMORY_MB:.0%} of the {FUNCTION_MEMORY_MB} MB of the parsing functions; "
        "the parent and its children are alive together, so their sum bounds the total)"
    )
    if arguments.json is not None:
        arguments.json.write_text(json.dumps({"runs": arguments.runs, "figures": figures}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

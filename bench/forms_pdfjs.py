"""Filled forms as pdf.js reads them: does another reader open each filled PDF and see the values?

    .venv/bin/python bench/real_corpus.py --mirrors DIR          # once: assemble .corpus/ (see there)
    .venv/bin/python bench/forms_pdfjs.py [--split tune|heldout|all] [--corpus .corpus]

The forms of `bench/forms/manifest.json` are filled as bench/forms.py fills them on the AcroForm path
(its truth, its instructions; `form_fields` + `field_values` + `filled`). Each filled PDF is then read
by pdf.js (`pdfjs-dist`, the library of Firefox's viewer and of most web viewers, installed with npm
into `.bench-node/` on first use; needs Node.js) through `getFieldObjects`. Counted: the forms pdf.js
opens with the same page count, and, of the fields whose value PyMuPDF reads back right, those whose
value pdf.js reads the same (a check box: any on state).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the bench is run from a checkout

from bench.forms import SPLITS, fill, forms_of, instructions, truth  # noqa: E402
from bench.real_corpus import corpus_arguments, corpus_path  # noqa: E402

NODE_DIR = ROOT / ".bench-node"
PDFJS = "pdfjs-dist@4"


def pdfjs_fields(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """What pdf.js reads of each PDF, by path."""
    if not (NODE_DIR / "node_modules" / "pdfjs-dist").is_dir():
        NODE_DIR.mkdir(exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--prefix", str(NODE_DIR), PDFJS], check=True)
    script = NODE_DIR / "forms_pdfjs.mjs"
    script.write_text((ROOT / "bench" / "forms_pdfjs.mjs").read_text(encoding="utf-8"), encoding="utf-8")
    output = subprocess.run(
        ["node", str(script), *map(str, paths)], check=True, capture_output=True, text=True, cwd=NODE_DIR
    ).stdout
    return {read["file"]: read for read in map(json.loads, output.splitlines())}


def main() -> int:
    parser = corpus_arguments(__doc__, SPLITS)
    parser.set_defaults(split="all")
    args = parser.parse_args()
    documents = forms_of(args.split)
    checks: list[tuple[str, Path, int, dict[str, str]]] = []  # id, filled file, pages, right values
    with tempfile.TemporaryDirectory() as folder:
        for document in documents:
            content = corpus_path(args.corpus, str(document["repo"]), str(document["path"])).read_bytes()
            given = truth(content, str(document["language"]))
            out, _, _ = fill(content, instructions(given))
            path = Path(folder) / f"{document['id']}.pdf"
            path.write_bytes(out)
            right: dict[str, str] = {}
            with pymupdf.open(stream=out, filetype="pdf") as filled_form:
                pages = filled_form.page_count
                values = {
                    widget.xref: widget.field_value for page in filled_form for widget in page.widgets()
                }
            for item in given:
                value = values.get(item.xref)
                if item.kind == "checkbox" and value not in (None, "", False, "Off"):
                    right[item.name] = "on"
                elif item.kind == "text" and str(value or "") == item.value:
                    right[item.name] = item.value
            checks.append((str(document["id"]), path, pages, right))
        reads = pdfjs_fields([path for _, path, _, _ in checks])
    opened = same = compared = 0
    for form_id, path, pages, right in checks:
        read = reads.get(str(path), {"error": "not read"})
        if "error" in read or read["pages"] != pages:
            print(f"NOT OPENED {form_id}: {read.get('error') or read['pages']} pages")
            continue
        opened += 1
        for name, value in right.items():
            compared += 1
            seen = read["fields"].get(name)
            if (value == "on" and seen not in (None, "", "Off", False)) or str(seen) == value:
                same += 1
            else:
                print(f"{form_id}: {name!r} reads {seen!r} in pdf.js, {value!r} in PyMuPDF")
    print(f"forms pdf.js opens with their pages: {opened} of {len(checks)}")
    print(f"values pdf.js reads as PyMuPDF does: {same} of {compared} ({same / max(compared, 1):.1%})")
    return 0 if opened == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())

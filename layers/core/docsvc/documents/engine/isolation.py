"""Reading a document in a child process, so a pathological document cannot hang or sink the service.

The child reads pages and sends them one by one. The parent gives each page `page_seconds`: a page
that takes longer, or a child that crashes or runs out of its memory allowance (an address-space
limit), yields an empty page with a warning, and a fresh child resumes at the next page. A child is
a fork of the parent, which has the readers imported, so starting one costs a few milliseconds; the
child touches nothing but the reader and its pipe. (A fork server would re-run the `__main__` module,
which under Lambda is the runtime's own bootstrap.)
"""

from __future__ import annotations

import multiprocessing
import os
import resource
from collections.abc import Iterator
from multiprocessing.connection import Connection
from typing import Any

from docsvc.documents.engine import errors
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.readers import reader_for

MEMORY_BUDGET_BYTES = int(os.environ.get("DOCSVC_PARSE_MEMORY_MB", "1536")) * 1024 * 1024
MAX_FAILED_PAGES_IN_A_ROW = 3
_context = multiprocessing.get_context("fork")
_ERRORS: dict[str, type[errors.DocumentError]] = {
    error.code: error
    for error in (
        errors.UnsupportedDocument,
        errors.DamagedDocument,
        errors.EncryptedDocument,
        errors.EmptyDocument,
        errors.DecompressionLimit,
    )
}


def count_pages(content: bytes, kind: str, seconds: float) -> int:
    for message in _messages(content, kind, ParseOptions(), 0, seconds):
        if message[0] == "count":
            return int(message[1])
    raise errors.DamagedDocument(f"the {kind.upper()} could not be opened within {seconds:g} s")


def read_pages(content: bytes, kind: str, options: ParseOptions) -> Iterator[Page]:
    next_page, failed_in_a_row = 1, 0
    while True:
        read_any = False
        for message in _messages(content, kind, options, next_page, options.page_seconds):
            if message[0] == "page":
                page: Page = message[1]
                read_any, failed_in_a_row, next_page = True, 0, page.number + 1
                yield page
            elif message[0] == "done":
                return
        if not read_any and next_page == 1 and message[0] == "crashed":
            raise errors.DamagedDocument(f"the {kind.upper()} could not be read: {message[1]}")
        failed_in_a_row += 1
        if failed_in_a_row >= MAX_FAILED_PAGES_IN_A_ROW:
            raise errors.DamagedDocument(
                f"the {kind.upper()} could not be read past page {next_page - 1}: {message[1]}"
            )
        yield Page(next_page, "", (f"page left empty: {message[1]}",))
        next_page += 1


def _messages(
    content: bytes, kind: str, options: ParseOptions, first: int, seconds: float
) -> Iterator[tuple[Any, ...]]:
    """What one child sends, until it is done, fails or overruns; the last message says which.

    `first` 0 asks for the page count only. Document errors are raised here, in the parent.
    """
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_child, args=(sender, content, kind, options, first), daemon=True)
    child.start()
    sender.close()
    try:
        while True:
            if not receiver.poll(seconds):
                yield ("timeout", f"it took longer than {seconds:g} s")
                return
            try:
                message = receiver.recv()
            except (EOFError, OSError):
                yield ("crashed", "the reader ran out of memory or crashed")
                return
            if message[0] == "error":
                raise _ERRORS.get(message[1], errors.DocumentError)(message[2])
            yield message
            if message[0] in {"done", "count", "crashed"}:
                return
    finally:
        receiver.close()
        if child.is_alive():
            child.kill()
        child.join()
        child.close()


def _child(sender: Connection, content: bytes, kind: str, options: ParseOptions, first: int) -> None:
    _limit_memory()
    try:
        counter, reader = reader_for(kind)
        if first == 0:
            sender.send(("count", counter(content, kind)))
            return
        for page in reader(content, kind, options, first):
            sender.send(("page", page))
        sender.send(("done",))
    except errors.DocumentError as error:
        sender.send(("error", error.code, error.message))
    except MemoryError:
        sender.send(("crashed", f"it needs more than {MEMORY_BUDGET_BYTES // 2**20} MB"))
    except Exception as error:  # a reader's bug or a library's failure on a hostile page
        sender.send(("crashed", f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"))
    finally:
        sender.close()


def _limit_memory() -> None:
    with open("/proc/self/statm") as statm:
        virtual = int(statm.read().split()[0]) * resource.getpagesize()
    limit = virtual + MEMORY_BUDGET_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

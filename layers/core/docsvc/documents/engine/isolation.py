"""Reading a document in a child process, so a pathological document cannot hang or sink the service.

The child reads pages and sends them one by one. The parent gives each page `page_seconds`: a page
that takes longer, or a child that crashes or runs out of its memory allowance (an address-space
limit), yields an empty page with a warning, and a fresh child resumes at the next page. A long
document is split into page ranges read by one child per core at once (the allowance is shared
between them); pages still come out in order. A child is
a fork of the parent, which has the readers imported, so starting one costs a few milliseconds; the
child touches nothing but the reader and its pipe. (A fork server would re-run the `__main__` module,
which under Lambda is the runtime's own bootstrap.)
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import resource
import threading
from collections.abc import Generator, Iterator
from multiprocessing.connection import Connection
from typing import Any

from docsvc.documents.engine import errors
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.readers import reader_for

MEMORY_BUDGET_BYTES = int(os.environ.get("DOCSVC_PARSE_MEMORY_MB", "1536")) * 1024 * 1024
MAX_FAILED_PAGES_IN_A_ROW = 3
READERS = min(os.cpu_count() or 1, 4)  # children reading one document at once
MIN_PAGES_PER_READER = 16  # fewer pages than this are not worth another child
Task = tuple[int, int | None, int]
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
    for message in _messages(content, kind, ParseOptions(), (0, None, MEMORY_BUDGET_BYTES), seconds):
        if message[0] == "count":
            return int(message[1])
    raise errors.DamagedDocument(f"the {kind.upper()} could not be opened within {seconds:g} s")


def read_pages(
    content: bytes, kind: str, options: ParseOptions, page_count: int | None = None
) -> Iterator[Page]:
    """The pages in order. A document of many pages is read by several children at once, each a
    contiguous range, so all the machine's cores work on it; pages still come out in order."""
    ranges = _ranges(page_count)
    if len(ranges) == 1:
        yield from _read_range(content, kind, options, *ranges[0], MEMORY_BUDGET_BYTES)
        return
    stop = threading.Event()
    queues = [_start_range(content, kind, options, first, last, len(ranges), stop) for first, last in ranges]
    try:
        for pages in queues:
            while (item := pages.get()) is not None:
                if isinstance(item, errors.DocumentError):
                    raise item
                yield item
    finally:
        stop.set()


def _ranges(page_count: int | None) -> list[tuple[int, int | None]]:
    if not page_count:
        return [(1, None)]
    children = max(1, min(READERS, page_count // MIN_PAGES_PER_READER))
    size = -(-page_count // children)
    return [(first, min(first + size - 1, page_count)) for first in range(1, page_count + 1, size)]


def _start_range(
    content: bytes,
    kind: str,
    options: ParseOptions,
    first: int,
    last: int | None,
    share: int,
    stop: threading.Event,
) -> queue.SimpleQueue[Page | errors.DocumentError | None]:
    """Reads one range in a thread of its own (which only waits on the child's pipe)."""
    pages: queue.SimpleQueue[Page | errors.DocumentError | None] = queue.SimpleQueue()

    def read() -> None:
        reader = _read_range(content, kind, options, first, last, MEMORY_BUDGET_BYTES // share)
        try:
            for page in reader:
                pages.put(page)
                if stop.is_set():
                    break
        except errors.DocumentError as error:
            pages.put(error)
        finally:
            reader.close()
            pages.put(None)

    threading.Thread(target=read, name=f"pages-{first}", daemon=True).start()
    return pages


def _read_range(
    content: bytes, kind: str, options: ParseOptions, first: int, last: int | None, memory: int
) -> Generator[Page, None, None]:
    next_page, failed_in_a_row = first, 0
    while last is None or next_page <= last:
        read_any = False
        for message in _messages(content, kind, options, (next_page, last, memory), options.page_seconds):
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
    content: bytes, kind: str, options: ParseOptions, task: Task, seconds: float
) -> Iterator[tuple[Any, ...]]:
    """What one child sends, until it is done, fails or overruns; the last message says which.

    A task is (first page, last page or None, memory allowance); first page 0 asks for the page count.
    Document errors are raised here, in the parent.
    """
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_child, args=(sender, content, kind, options, task), daemon=True)
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


def _child(sender: Connection, content: bytes, kind: str, options: ParseOptions, task: Task) -> None:
    first, last, memory = task
    _limit_memory(memory)
    try:
        counter, reader = reader_for(kind)
        if first == 0:
            sender.send(("count", counter(content, kind)))
            return
        for page in reader(content, kind, options, first):
            sender.send(("page", page))
            if last is not None and page.number >= last:
                break
        sender.send(("done",))
    except errors.DocumentError as error:
        sender.send(("error", error.code, error.message))
    except MemoryError:
        sender.send(("crashed", f"it needs more than {memory // 2**20} MB"))
    except Exception as error:  # a reader's bug or a library's failure on a hostile page
        sender.send(("crashed", f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"))
    finally:
        sender.close()


def _limit_memory(budget: int) -> None:
    with open("/proc/self/statm") as statm:
        virtual = int(statm.read().split()[0]) * resource.getpagesize()
    limit = virtual + budget
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

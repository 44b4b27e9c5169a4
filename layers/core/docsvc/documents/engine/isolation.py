"""Reading a document in a child process, so a pathological document cannot hang or sink the service.

The first child counts the pages, sends the count, and reads the first range of pages, sending them
one by one; for a long document, one more child per core reads each further range at the same time
(the memory allowance is shared between them), and pages still come out in order. The parent gives
the count and each page `page_seconds`: a page that takes longer, or a child that crashes or runs
out of its memory allowance (an address-space limit), yields an empty page with a warning, and a
fresh child resumes at the next page. A child is a fork of the parent, which has the readers
imported, so starting one costs a few milliseconds; the child touches nothing but the reader and its
pipe. (A fork server would re-run the `__main__` module, which under Lambda is the runtime's own
bootstrap.)
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import resource
import threading
from collections.abc import Callable, Generator, Iterator
from multiprocessing.connection import Connection
from typing import Any

from docsvc.documents.engine import errors, ocr
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.readers import reader_for

MEMORY_BUDGET_BYTES = int(os.environ.get("DOCSVC_PARSE_MEMORY_MB", "1536")) * 1024 * 1024
MAX_FAILED_PAGES_IN_A_ROW = 3
READERS = min(os.cpu_count() or 1, 4)  # children reading one document at once
MIN_PAGES_PER_READER = 16  # fewer pages than this are not worth another child
Task = tuple[int, int, int]  # first page, last page, memory allowance in bytes
COUNT_FIRST = -1
_context = multiprocessing.get_context("fork")
# Starting a child reaps every finished child of the process (multiprocessing's bookkeeping), so a start
# in one thread can race another thread's join of its own child: the loser of that race sees no exit
# status and refuses to close a child that has ended. Children are started and reaped under one lock.
_lifecycle = threading.Lock()
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


def read_pages(
    content: bytes, kind: str, options: ParseOptions, on_count: Callable[[int], None] | None = None
) -> Iterator[Page]:
    """The pages in order. The first child counts the pages and goes on to read the first range;
    `on_count` sees the count before any page is read and may refuse the document by raising. A
    document of many pages is read by several children at once, each a contiguous range, so all the
    machine's cores work on it."""
    memory = MEMORY_BUDGET_BYTES // READERS
    first_child = _messages(content, kind, options, (1, COUNT_FIRST, memory), options.page_seconds)
    stop = threading.Event()
    try:
        opening = next(first_child)
        if opening[0] != "count":
            raise errors.DamagedDocument(f"the {kind.upper()} could not be opened: {opening[1]}")
        page_count = int(opening[1])
        if on_count is not None:
            on_count(page_count)
        (first, last), *others = _ranges(page_count)
        queues = [_start_range(content, kind, options, *other, memory, stop) for other in others]
        yield from _read_range(content, kind, options, first, last, memory, started=first_child)
        for pages in queues:
            while (item := pages.get()) is not None:
                if isinstance(item, errors.DocumentError):
                    raise item
                yield item
    finally:
        stop.set()
        first_child.close()


def _ranges(page_count: int) -> list[tuple[int, int]]:
    children = max(1, min(READERS, page_count // MIN_PAGES_PER_READER))
    size = -(-page_count // children)
    return [(first, min(first + size - 1, page_count)) for first in range(1, page_count + 1, size)]


def _start_range(
    content: bytes,
    kind: str,
    options: ParseOptions,
    first: int,
    last: int,
    memory: int,
    stop: threading.Event,
) -> queue.SimpleQueue[Page | errors.DocumentError | None]:
    """Reads one range in a thread of its own (which only waits on the child's pipe)."""
    pages: queue.SimpleQueue[Page | errors.DocumentError | None] = queue.SimpleQueue()

    def read() -> None:
        reader = _read_range(content, kind, options, first, last, memory)
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
    content: bytes,
    kind: str,
    options: ParseOptions,
    first: int,
    last: int,
    memory: int,
    started: Iterator[tuple[Any, ...]] | None = None,
) -> Generator[Page, None, None]:
    """Pages `first` to `last`, from the child `started` if one already reads them, then from fresh
    children after a page that overran, crashed or ran out of memory."""
    next_page, failed_in_a_row = first, 0
    while next_page <= last:
        read_any = False
        child = started or _messages(content, kind, options, (next_page, last, memory), options.page_seconds)
        started = None
        for message in child:
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
) -> Generator[tuple[Any, ...], None, None]:
    """What one child sends, until it is done, fails or overruns; the last message says which.

    A task is (first page, last page, memory allowance); a last page of COUNT_FIRST asks the child to
    send the page count first and read the first range. Document errors are raised here, in the parent.
    """
    receiver, sender = _context.Pipe(duplex=False)
    child = _context.Process(target=_child, args=(sender, content, kind, options, task), daemon=True)
    with _lifecycle:
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
            if message[0] in {"done", "crashed"}:
                return
    finally:
        receiver.close()
        with _lifecycle:  # a child that is still running is killed, so the join is short
            if child.is_alive():
                child.kill()
            child.join()
            child.close()


def _child(sender: Connection, content: bytes, kind: str, options: ParseOptions, task: Task) -> None:
    first, last, memory = task
    _limit_memory(memory)
    try:
        counter, reader = reader_for(kind)
        if last == COUNT_FIRST:
            page_count = counter(content, kind)
            sender.send(("count", page_count))
            last = _ranges(page_count)[0][1]
        ocr.forget_confidences()
        for page in reader(content, kind, options, first):
            sender.send(("page", ocr.with_confidence(page)))
            if page.number >= last:
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

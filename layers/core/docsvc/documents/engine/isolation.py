"""Reading a document in a child process, so a pathological document cannot hang or sink the service.
Drawing one of its pages too (`draw_page`), in a child of the same kind.

The first child counts the pages, sends the count, and reads the first range of pages, sending them
one by one; for a long document, one more child per core reads each further range at the same time
(the memory allowance is shared between them), and pages still come out in order. The parent gives
the count and each page `page_seconds`: a page that takes longer, or a child that crashes or runs
out of its memory allowance (an address-space limit), yields an empty page with a warning, and a
fresh child resumes at the next page.

A child is a fork of the parent, which has the readers imported (a fork server would re-run the
`__main__` module, which under Lambda is the runtime's own bootstrap). Children are kept: one that
finished its task waits, idle, for the next document, which it receives through its pipe, so a
document costs no fork (a fork and its first touches of memory cost 5-10 ms, several times what
MuPDF takes to read a page of text). A child is killed when it overran, crashed, or was left
mid-task, and retired after MAX_TASKS_A_CHILD documents or once it keeps a quarter of its memory
allowance; at most one idle child per core is kept. Before its first child the parent reads a page
of its own making once: MuPDF loads its fonts and text machinery on first use, about 20 ms that
every child would otherwise pay again; and it imports the Pillow a child uses for OCR, so that no child
is forked while another thread of the parent holds that import's lock (`ocr.import_pillow`).
"""

from __future__ import annotations

import dataclasses
import faulthandler
import gc
import multiprocessing
import os
import queue
import resource
import signal
import threading
from collections.abc import Callable, Generator, Iterator
from multiprocessing.connection import Connection
from typing import Any

from docsvc.documents.engine import errors, ocr
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.pdf import page_picture, sample_pdf
from docsvc.documents.engine.readers import reader_for
from docsvc.documents.readable import PDF_TYPES

MEMORY_BUDGET_BYTES = int(os.environ.get("DOCSVC_PARSE_MEMORY_MB", "1536")) * 1024 * 1024
MAX_FAILED_PAGES_IN_A_ROW = 3
# A page that overran or crashed is read again from its text layer alone within this time at most (a
# text layer is read in well under a second; a page slow without OCR fails again, soon).
TEXT_LAYER_SECONDS = 5.0
READERS = min(os.cpu_count() or 1, 4)  # children reading one document at once
MIN_PAGES_PER_READER = 16  # fewer pages than this are not worth another child
MAX_TASKS_A_CHILD = 200  # then a child is retired, and a fresh one forked
# A page's dicts of characters and lists of words are tens of thousands of short-lived containers: at
# Python's default threshold (700) the cyclic collector runs dozens of times a page, and each full
# collection walks every object the child inherited from the parent too. A child collects its young
# objects after this many allocations, and never walks what it inherited (`_collect_less`).
GC_YOUNG_THRESHOLD = 10_000
Task = tuple[int, int, int]  # first page, last page, memory allowance in bytes
COUNT_FIRST = -1
DRAW = -2  # a last page of DRAW asks the child to draw the first page, not to read it
_context = multiprocessing.get_context("fork")
# Starting a child reaps every finished child of the process (multiprocessing's bookkeeping), so a start
# in one thread can race another thread's join of its own child: the loser of that race sees no exit
# status and refuses to close a child that has ended. Children are started and reaped under one lock.
_lifecycle = threading.Lock()
_warmed = threading.Event()
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
    _warm_up()
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


def draw_page(content: bytes, kind: str, number: int, dpi: int, seconds: float) -> tuple[int, bytes | None]:
    """The page count, and page `number` drawn as a JPEG (None past the last page), by a child with the
    time and memory of a reader of pages. A page that cannot be drawn in time is a damaged document."""
    _warm_up()
    picture: tuple[int, bytes | None] | None = None
    task = (number, DRAW, MEMORY_BUDGET_BYTES // READERS)
    for message in _messages(content, kind, ParseOptions(dpi=dpi), task, seconds):
        if message[0] == "picture":
            picture = (int(message[1]), message[2])
        elif message[0] in {"timeout", "crashed"}:
            raise errors.DamagedDocument(
                f"page {number} of the {kind.upper()} could not be drawn: {message[1]}"
            )
    if picture is None:
        raise errors.DamagedDocument(f"page {number} of the {kind.upper()} could not be drawn")
    return picture


def _warm_up() -> None:
    """Reads a page of the parent's own making once, so that children are forked with MuPDF's fonts
    and text machinery loaded (a child that loads them itself spends about 20 ms on it)."""
    if _warmed.is_set():
        return
    with _lifecycle:
        if not _warmed.is_set():
            _, reader = reader_for("pdf")
            for _page in reader(sample_pdf(), "pdf", ParseOptions(), 1):
                pass
            ocr.import_pillow()  # so that no child is forked halfway through another thread's import
            _warmed.set()


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
        layer = _text_layer_alone(content, kind, options, next_page, memory, message[1])
        if layer is not None and (layer.text or layer.words):
            failed_in_a_row, next_page = 0, next_page + 1
            yield layer
            continue
        if not read_any and next_page == 1 and message[0] == "crashed":
            raise errors.DamagedDocument(f"the {kind.upper()} could not be read: {message[1]}")
        failed_in_a_row += 1
        if failed_in_a_row >= MAX_FAILED_PAGES_IN_A_ROW:
            raise errors.DamagedDocument(
                f"the {kind.upper()} could not be read past page {next_page - 1}: {message[1]}"
            )
        yield Page(next_page, "", (f"page left empty: {message[1]}",))
        next_page += 1


def _text_layer_alone(
    content: bytes, kind: str, options: ParseOptions, number: int, memory: int, failure: str
) -> Page | None:
    """Page `number` of a PDF read again from its text layer alone (no OCR), by a child given
    TEXT_LAYER_SECONDS at most, after its whole reading overran or crashed: a page's OCR (of a stamped
    scan's rest, say, on a busy machine) must not cost the words its text layer holds. None where OCR
    was not to run anyway (other types, `words="only"`, `ocr` off) or the page cannot be read so
    either; the page, empty where it has no text layer, otherwise."""
    if kind not in PDF_TYPES or not options.ocr or options.words == "only":
        return None
    alone = dataclasses.replace(options, ocr=False)
    seconds = min(options.page_seconds, TEXT_LAYER_SECONDS)
    page: Page | None = None
    try:  # read to the child's end, so that a child that read the page whole is kept for the next task
        for message in _messages(content, kind, alone, (number, number, memory), seconds):
            if message[0] == "page":
                page = message[1]
    except errors.DocumentError:
        return None
    if page is None:
        return None
    warning = f"page read from its text layer alone, without OCR: {failure}"
    return dataclasses.replace(page, warnings=(*page.warnings, warning))


def _messages(
    content: bytes, kind: str, options: ParseOptions, task: Task, seconds: float
) -> Generator[tuple[Any, ...], None, None]:
    """What one child sends for one task, until it is done, fails or overruns; the last message says
    which.

    A task is (first page, last page, memory allowance); a last page of COUNT_FIRST asks the child to
    send the page count first and read the first range. Document errors are raised here, in the parent.
    A child that finished its task goes back to the idle children; one that overran, crashed, or was
    left mid-task (the pages were not all wanted) is killed. An idle child that ends before it sends
    anything of a task (killed while idle, say) is no crash of the document: a new child reads it.
    """
    child = _hand(task[2], (content, kind, options, task))
    reusable = heard = False
    try:
        while True:
            if not child.connection.poll(seconds):
                yield ("timeout", f"it took longer than {seconds:g} s")
                return
            try:
                message = child.connection.recv()
            except (EOFError, OSError):
                if not heard and child.tasks > 1:  # an idle child that ended before this task began
                    child.stop()
                    child = _Child(task[2])
                    child.connection.send((content, kind, options, task))
                    child.tasks += 1
                    continue
                yield ("crashed", "the reader ran out of memory or crashed")
                return
            heard = True
            if message[0] == "error":
                reusable = message[3]
                raise _ERRORS.get(message[1], errors.DocumentError)(message[2])
            if message[0] == "done":
                reusable = message[1]
            yield message
            if message[0] in {"done", "crashed"}:
                return
    finally:
        _release(child, reusable)


class _Child:
    """A forked reader that reads one task after another from its pipe (see `_serve`)."""

    def __init__(self, memory: int) -> None:
        self.memory, self.tasks = memory, 0
        with _lifecycle:  # the child end is closed before another child can be forked with it
            self.connection, child_end = _context.Pipe(duplex=True)
            self.process = _context.Process(target=_serve, args=(child_end, memory), daemon=True)
            self.process.start()
            child_end.close()

    def stop(self) -> None:
        self.connection.close()
        with _lifecycle:  # a child that is still running is killed, so the join is short
            if self.process.is_alive():
                self.process.kill()
            self.process.join()
            self.process.close()


_idle: list[_Child] = []  # children that finished their last task, newest last


def _hand(memory: int, task: tuple[Any, ...]) -> _Child:
    """A child with the task sent to it: an idle child with the same allowance, or a new one."""
    with _lifecycle:
        child = next((child for child in reversed(_idle) if child.memory == memory), None)
        if child is not None:
            _idle.remove(child)
    if child is not None:
        try:
            child.connection.send(task)
            child.tasks += 1
            return child
        except OSError:  # it died while idle
            child.stop()
    child = _Child(memory)
    child.connection.send(task)
    child.tasks += 1
    return child


def _release(child: _Child, reusable: bool) -> None:
    if reusable and child.tasks < MAX_TASKS_A_CHILD:
        with _lifecycle:
            if len(_idle) < READERS:
                _idle.append(child)
                return
    child.stop()


def retire_idle_children() -> None:
    """Stops the idle children: the next document is read by children forked from the process as it is
    now (tests that change the readers call this)."""
    with _lifecycle:
        idle = list(_idle)
        _idle.clear()
    for child in idle:
        child.stop()


def _serve(connection: Connection, memory: int) -> None:
    """A child's life: tasks one after another, until the parent goes away or a task leaves the child
    unfit for another (a crash, or memory it grew by and keeps). Ctrl-C and SIGTERM end it, whatever
    the parent's handlers (a server's handler only flags a stop, which an idle child would never see)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    faulthandler.disable()  # a crash is the parent's to report, as a page left empty with a warning
    _collect_less()
    _limit_memory(memory)
    baseline = _virtual_size()
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        content, kind, options, work = task
        del task
        if not _read(
            connection, content, kind, options, work, lambda held: _keeps_little(baseline, held, memory)
        ):
            return
        del content


def _keeps_little(baseline: int, held: int, memory: int) -> bool:
    """Whether a child grew since its start (`baseline`) by at most a quarter of its allowance, the
    `held` bytes of the document it still holds aside."""
    return _virtual_size() - held - baseline <= memory // 4


def _read(
    connection: Connection,
    content: bytes,
    kind: str,
    options: ParseOptions,
    task: Task,
    keeps_little: Callable[[int], bool],
) -> bool:
    """Reads one task, sending what it reads; whether the child may read another. That is decided
    before the task's last message (its end, or its document's error), which tells the parent: a child
    that said it may read another and then ended would be handed the next task and die under it, as if
    that document had crashed it. `keeps_little`: whether the memory the child grew by is small enough
    to keep it, the document it holds (its bytes, freed once the task is done) aside."""
    first, last, memory = task
    try:
        counter, reader = reader_for(kind)
        if last == DRAW:
            connection.send(("picture", *page_picture(content, kind, first, options.dpi)))
        else:
            if last == COUNT_FIRST:
                page_count = counter(content, kind)
                connection.send(("count", page_count))
                last = _ranges(page_count)[0][1]
            ocr.forget_confidences()
            for page in reader(content, kind, options, first):
                connection.send(("page", ocr.with_confidence(page)))
                if page.number >= last:
                    break
        fit = keeps_little(len(content))
        connection.send(("done", fit))
        return fit
    except errors.DocumentError as error:
        fit = keeps_little(len(content))
        connection.send(("error", error.code, error.message, fit))
        return fit
    except MemoryError:
        connection.send(("crashed", f"it needs more than {memory // 2**20} MB"))
    except Exception as error:  # a reader's bug or a library's failure on a hostile page
        if isinstance(error.__cause__ or error.__context__, MemoryError):
            # MuPDF's bindings that fail to allocate raise SystemError ("returned a result with an
            # exception set") from the MemoryError: the same as one
            connection.send(("crashed", f"it needs more than {memory // 2**20} MB"))
        else:
            connection.send(("crashed", f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"))
    return False


def _collect_less() -> None:
    """The child's cyclic collector set for reading pages: what the child inherited from the parent
    (modules, the readers, MuPDF's bindings: tens of thousands of objects, none of them garbage) is
    frozen out of every collection, and young objects are collected after GC_YOUNG_THRESHOLD
    allocations rather than 700. Reference counting still frees a page's objects as soon as they are
    dropped; what waits is only garbage in cycles. Over three held-out sets of the real documents,
    the default collector took about a sixth of the reading's CPU time, this one under a twentieth."""
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)


def _virtual_size() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _limit_memory(budget: int) -> None:
    limit = _virtual_size() + budget
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

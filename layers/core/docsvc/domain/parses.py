"""Parses: the text of a document, per page and as one text (spec 2.4, 3.1, 4.3).

The synchronous path answers `completed` at once. The background path moves through
pending -> queued -> in_progress -> completed | failed | cancelled, each move a conditional write,
so no state is skipped or moved backwards and a cancelled parse never becomes completed. Both paths,
and the stream, read the document with the engine.

A remote model that takes images parses too (`RemoteParse`): the engine reads each page (its text
layer, or OCR) and draws it as a picture, and the model is shown both, with the parse's instructions
appended to its system prompt, and answers the page as markdown. Pages go to the model PAGES_AT_ONCE
at a time; a call that fails for a while is tried again with backoff (PAGE_ATTEMPTS in all). A page
the model fails on fails the whole parse: a 502 (`model_error`), or a background parse `failed`;
never a parse with some pages missing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel, Field, field_validator

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput, DocumentSource, SourceDocument, typed_source
from docsvc.domain.events import Event, new_event
from docsvc.domain.evidence import WordBox, Words
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.models import (
    BUILTIN_MODELS,
    ModelCatalog,
    ModelFailed,
    ModelInfo,
    StructuredModels,
    Tokens,
    in_order,
)
from docsvc.domain.usage import Charge
from docsvc.errors import BadRequest, DocumentRejected, DomainError, NotFound, Stopped
from docsvc.ids import new_id
from docsvc.intelligence.paper import PageSize
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

ParseStatus = Literal["pending", "queued", "in_progress", "completed", "failed", "cancelled"]
TableFormat = Literal["markdown", "yaml", "html", "json"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
# Spec 3.1, plus cancelling a parse that has not started yet.
NEXT_STATES: dict[str, frozenset[str]] = {
    "pending": frozenset({"queued", "cancelled", "failed"}),
    "queued": frozenset({"in_progress", "cancelled", "failed"}),
    "in_progress": frozenset({"completed", "failed", "cancelled"}),
}
PARSE_MODELS = tuple(model.id for model in BUILTIN_MODELS if "parse" in model.tasks)
DEFAULT_DPI = 150
DEFAULT_MODEL = PARSE_MODELS[0]
SYNC_MAX_PAGES = 200
SYNC_SECONDS = 25.0
BACKGROUND_MAX_PAGES = 2000
PAGE_SECONDS = 10.0
# A page's own time: a dense scanned page takes Tesseract 5-10 s on one core, more when it has to be
# turned; within the synchronous budget one such page fits, and a background parse waits a minute.
SYNC_PAGE_SECONDS = 20.0
BACKGROUND_PAGE_SECONDS = 60.0
CREDITS_PER_PAGE = 1.0
# A running parse asks whether it is still wanted between pages, at most this often: a cancelled one
# stops within about this time, and a fast document asks once or never (its completing write refuses a
# parse cancelled meanwhile anyway) instead of a read every few pages.
CANCEL_CHECK_SECONDS = 0.5
WORKER_SECONDS = 900  # the parse worker's Lambda timeout (template.yaml)
# OCR languages: ISO 639-1 codes of the languages the documents layer carries, as Tesseract names them.
# Another Tesseract code (`chi_sim`, `deu_latf`, ...) is refused before anything is read or queued, on
# AWS and in the local stack alike, whatever else the machine's Tesseract may have.
OCR_LANGUAGES = {
    "en": "eng",
    "de": "deu",
    "fr": "fra",
    "es": "spa",
    "it": "ita",
    "pt": "por",
    "nl": "nld",
    "pl": "pol",
    "ru": "rus",
    "ar": "ara",
}
# Raised whenever the built-in engine reads documents differently (text, tables, OCR), so that a parse
# cached by an earlier engine is read again rather than answered as it was.
ENGINE_REVISION = 31
PAGES_AT_ONCE = 4  # a remote model's calls on one parse running at a time
PAGE_ATTEMPTS = 3  # tries of one page's call when it fails for a while (429, 5xx, a timeout)
MAX_OCR_LANGUAGES = 4
_TESSERACT_CODE = re.compile(r"^[a-z]{3}(_[a-z]{2,8})?$")
_log = logging.getLogger(__name__)


class FileSummary(BaseModel):
    id: str | None
    filename: str
    mime_type: str | None


class ParseOutput(BaseModel):
    pages: list[str] = Field(default_factory=list)
    text: str = ""
    ocr_confidence: list[float | None] = Field(
        default_factory=list,
        description="One per page: the mean confidence (0-100) of the words OCR read on the page; null "
        "for a page read from its text layer.",
    )
    # One per page when the engine gave them (PDFs and images): kept with the stored output for the
    # tasks that read it again (splitting weighs a change of page size); not part of the API's answer
    page_sizes: list[PageSize | None] = Field(default_factory=list, exclude=True)


class ParseError(BaseModel):
    code: str
    message: str


class ParseUsage(BaseModel):
    page_count: int = 0
    credits: float = 0.0
    cached: bool = False
    input_tokens: int = Field(0, description="Tokens a remote model's provider counted; 0 for built-in ones.")
    output_tokens: int = 0


class ParseRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    file: FileSummary
    model: str
    table_parsing_format: TableFormat
    image_resolution_dpi: int
    languages: list[str] | None = None
    instructions: str | None
    status: ParseStatus
    error: ParseError | None = None
    usage: ParseUsage = Field(default_factory=ParseUsage)
    warnings: list[str] = Field(default_factory=list)
    created_at: str
    updated_at: str
    content_sha256: str = ""
    cache_key: str = ""
    output: ParseOutput = Field(default_factory=ParseOutput)


class ParseRequest(BaseModel):
    """What a parse is asked to do, whichever way it is asked (the API, a job, a workflow)."""

    document: DocumentInput = Field(description="MIMEData {filename, url} or a FileRef {id}.")
    model: str = Field(
        DEFAULT_MODEL,
        description="A parse model of GET /v1/models: the built-in one, or a remote model that takes images.",
    )
    table_parsing_format: TableFormat = "markdown"
    instructions: str | None = Field(
        None,
        max_length=10_000,
        description="Appended to the system prompt of a remote parse model. With the built-in model they "
        "are stored and echoed, and change nothing in the output.",
    )
    image_resolution_dpi: int = Field(
        DEFAULT_DPI,
        ge=96,
        le=300,
        description="Resolution of OCR rendering, and of the page images a remote parse model is shown.",
    )
    bust_cache: bool = Field(False, description="Skip the cache of identical inputs and parse again.")
    languages: list[str] | None = Field(
        None,
        max_length=MAX_OCR_LANGUAGES,
        description="The languages OCR reads scans and images in, most likely first: ISO 639-1 codes "
        f"({', '.join(OCR_LANGUAGES)}) or Tesseract codes (eng, deu, ...). Default: English, and a page "
        "whose words look like another carried language's is read again in that language and English. "
        "A language the deployment does not carry is a 422 that lists the installed ones, for a background "
        "parse too.",
    )

    @field_validator("languages")
    @classmethod
    def _tesseract_codes(cls, languages: list[str] | None) -> list[str] | None:
        """Tesseract's codes, each once, in the order given; None (English) for an empty list."""
        codes: list[str] = []
        for language in languages or ():
            code = OCR_LANGUAGES.get(language.strip().lower(), language.strip().lower())
            if not _TESSERACT_CODE.match(code):
                raise ValueError(
                    f"unknown language '{language}'; use ISO 639-1 codes ({', '.join(OCR_LANGUAGES)}) or "
                    "Tesseract codes (eng, deu, ...)"
                )
            if code not in codes:
                codes.append(code)
        return codes or None


class ParseQuery(ListQuery):
    filename: str | None = None
    status: ParseStatus | None = None
    include_output: bool = False  # outputs can be megabytes each: a list carries them only on request


class ParsedPage(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def warnings(self) -> tuple[str, ...]: ...
    @property
    def ocr_confidence(self) -> float | None: ...
    @property
    def words(self) -> Sequence[WordBox]: ...  # when asked for; empty where the page has no geometry
    @property
    def image(self) -> bytes | None: ...
    @property
    def size(self) -> PageSize | None: ...  # width and height in points; None where the type has none


@dataclass(frozen=True)
class ReadOptions:
    """How an engine reads a document: at most `max_pages` pages (a document of more is refused before
    a page is read), tables as `table_format`, scans rendered at `dpi` for OCR in `languages`
    (Tesseract codes; None: English), `page_seconds` a page at most. `words`: the pages' words and their
    boxes too, or the words alone without OCR or tables (see docsvc.domain.evidence). The first
    `images` pages also come as a picture (JPEG at `dpi`) when the type has pictures (PDFs, images)."""

    max_pages: int
    table_format: TableFormat = "markdown"
    dpi: int = DEFAULT_DPI
    page_seconds: float = PAGE_SECONDS
    languages: tuple[str, ...] | None = None
    words: Words = "no"
    images: int = 0


class Engine(Protocol):
    """Reads documents: the engine of the documents layer, in this function or in the document reader
    function. Raises DocumentRejected for unreadable documents."""

    @property
    def supported(self) -> tuple[str, ...]: ...

    def pages(
        self, tenant: Tenant, document: SourceDocument, options: ReadOptions, on_count: Callable[[int], None]
    ) -> Iterator[ParsedPage]:
        """The pages in order. `on_count` is told the page count before any page is read and may
        refuse the document by raising; it refuses counts over `options.max_pages`, and an engine may
        skip reading such a document at all. OCR languages it does not have are a 422."""
        ...


class ParseRepository(Protocol):
    """Parse records. A write may carry the record's event, its usage charge and its cache entry
    (`cache_key` -> this parse): all of them are stored together or none is."""

    def put(
        self,
        tenant: Tenant,
        record: ParseRecord,
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> None: ...
    def get(self, tenant: Tenant, parse_id: str) -> ParseRecord | None: ...
    def delete(self, tenant: Tenant, parse_id: str) -> ParseRecord | None: ...
    def list(self, tenant: Tenant, query: ParseQuery) -> Page[ParseRecord]: ...
    def move(
        self,
        tenant: Tenant,
        record: ParseRecord,
        from_states: frozenset[str],
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> bool:
        """Store `record` only if the stored parse is in one of `from_states`; False otherwise."""
        ...

    def cached(self, tenant: Tenant, cache_key: str) -> str | None: ...


class ParseStore(Protocol):
    """The bytes of parses: outputs (any size) and the inputs of background runs."""

    def save_output(self, tenant: Tenant, parse_id: str, output: ParseOutput) -> None: ...
    def load_output(self, tenant: Tenant, parse_id: str) -> ParseOutput | None: ...
    def save_input(self, tenant: Tenant, parse_id: str, content: bytes) -> None: ...
    def load_input(self, tenant: Tenant, parse_id: str) -> bytes | None: ...
    def delete_all(self, tenant: Tenant, parse_id: str) -> None: ...


Enqueue = Callable[[Tenant, str], None]


def cache_key(source: SourceDocument, request: ParseRequest) -> str:
    """Identical input read by the same engine: same content, model, format, instructions, resolution
    and OCR languages (none given is not English given: the engine then guesses a page's language),
    under the same `ENGINE_REVISION`."""
    parts: list[object] = [
        ENGINE_REVISION,
        source.sha256,
        request.model,
        request.table_parsing_format,
        request.instructions or "",
        request.image_resolution_dpi,
    ]
    if request.languages:
        parts.append(request.languages)
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def credits_for(page_count: int, *, cached: bool) -> float:
    """One credit a page; an answer from the cache costs nothing."""
    return 0.0 if cached else page_count * CREDITS_PER_PAGE


@dataclass(frozen=True)
class ParseLimits:
    """What one parse may take: pages, and seconds (None: as long as its worker may run)."""

    max_pages: int
    seconds: float | None
    who: str  # "synchronous parses take at most <max_pages>"
    advice: str  # what to do instead
    page_seconds: float = PAGE_SECONDS  # one page, after which it is left empty with a warning


def too_slow_for_sync(
    filename: str, seconds: float, done: int | None = None, of: int | None = None
) -> DocumentRejected:
    """The one refusal of a document that a synchronous read could not finish within `seconds` (the
    domain's clock, the reader's, or the reader's function timing out): 413, with what to do instead."""
    progress = f", {done} of {of} pages read" if done is not None and of else ""
    return DocumentRejected(
        "too_slow_for_sync",
        f"'{filename}' takes longer to read than a synchronous request may run ({seconds:g} s{progress}); "
        "send it with background: true, or as a job",
        413,
    )


SYNCHRONOUS = ParseLimits(
    SYNC_MAX_PAGES, SYNC_SECONDS, "synchronous parses", "send background: true", SYNC_PAGE_SECONDS
)
IN_BACKGROUND = ParseLimits(
    BACKGROUND_MAX_PAGES, None, "parses", "split the document", BACKGROUND_PAGE_SECONDS
)


class PageLimit:
    """The page limit of a parse, told the page count by the engine before it reads a page: 413 over
    the limit, with what to do instead."""

    def __init__(self, filename: str, limits: ParseLimits) -> None:
        self.filename, self.limits = filename, limits
        self.page_count = 0

    def __call__(self, page_count: int) -> None:
        self.page_count = page_count
        limits = self.limits
        if page_count > limits.max_pages:
            raise DocumentRejected(
                "too_many_pages",
                f"'{self.filename}' has {page_count} pages; {limits.who} take at most {limits.max_pages}: "
                f"{limits.advice}",
                413,
            )


class Occasionally:
    """A question asked at most every CANCEL_CHECK_SECONDS: False in between, without asking."""

    def __init__(self, question: Callable[[], bool], clock: Callable[[], float] = time.monotonic) -> None:
        self._question, self._clock = question, clock
        self._asked = clock()

    def __call__(self) -> bool:
        now = self._clock()
        if now - self._asked < CANCEL_CHECK_SECONDS:
            return False
        self._asked = now
        return self._question()


class ReadDocument(BaseModel):
    """A document's pages as another task reads them, and the file they came from."""

    file: FileSummary
    pages: list[str]
    cached: bool
    # When asked for: each page's words with their boxes (WordBox; none where a page has no geometry)
    words: list[Sequence[WordBox]] | None = Field(None, exclude=True)
    images: list[bytes] = Field(default_factory=list)  # JPEGs of the first pages, when asked for
    # Per page: the mean word confidence (0-100) of a page read by OCR, None for a page with a text layer
    ocr_confidence: list[float | None] = Field(default_factory=list)
    # Per page: its width and height in points, None where unknown; empty when read before they were kept
    page_sizes: list[PageSize | None] = Field(default_factory=list)

    @property
    def ocr(self) -> list[bool]:
        """Per page: whether it was read by OCR (it has no text layer)."""
        return [confidence is not None for confidence in self.ocr_confidence]


@dataclass(frozen=True)
class ModelPage:
    """A page as a remote model answered it."""

    number: int
    text: str
    warnings: tuple[str, ...] = ()
    ocr_confidence: float | None = None
    words: tuple[WordBox, ...] = ()
    image: bytes | None = None
    size: PageSize | None = None


PAGE_PROMPT = (
    "You turn one page of a document into markdown. You are shown the page as an image, and the text "
    "a text-layer reader found on it: use that text for the exact characters, but it may be incomplete, "
    "out of order or empty (a scan), so follow the image. Write everything on the page in reading "
    "order: headings with #, lists with -, tables as markdown pipe tables with a header row. Give "
    "only the page's content, no commentary."
)
PAGE_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"markdown": {"type": "string", "description": "The page, as markdown."}},
    "required": ["markdown"],
}


class RemoteParse:
    """A parse by a remote model that takes images: each page's picture and text go to the model,
    PAGES_AT_ONCE at a time, and its markdown becomes the page. The tokens of every call add up in
    `tokens`."""

    def __init__(
        self, remote: StructuredModels, tenant: Tenant, model: ModelInfo, instructions: str | None
    ) -> None:
        self._remote, self._tenant, self._model = remote, tenant, model
        self._system = PAGE_PROMPT + (
            f"\n\nInstructions from the user: {instructions}" if instructions else ""
        )
        self.tokens = Tokens()

    def pages(self, read: Iterable[ParsedPage]) -> Iterator[ParsedPage]:
        return in_order(self._page, read, PAGES_AT_ONCE)

    def _page(self, page: ParsedPage) -> ParsedPage:
        hint = page.text.strip() or "(no text was found on this page)"
        reply = self._remote.structured(
            self._tenant,
            self._model,
            self._system,
            f"Page {page.number}. Its text layer:\n\n{hint}",
            dict(PAGE_SCHEMA),
            images=[page.image] if page.image else (),
            attempts=PAGE_ATTEMPTS,
        )
        markdown = reply.value.get("markdown")
        if not isinstance(markdown, str):
            raise ModelFailed(f"model '{self._model.id}' answered page {page.number} without its markdown")
        self.tokens.add(reply)
        return ModelPage(page.number, markdown.strip(), page.warnings, size=page.size)


class StreamedPage(BaseModel):
    number: int
    text: str
    ocr_confidence: float | None = None


class ParseService:
    def __init__(
        self,
        repository: ParseRepository,
        store: ParseStore,
        documents: DocumentSource,
        engine: Engine,
        enqueue: Enqueue,
        models: ModelCatalog | None = None,
        remote: StructuredModels | None = None,
    ) -> None:
        self._repository = repository
        self._store = store
        self._documents = documents
        self._engine = engine
        self._enqueue = enqueue
        self._models = models or ModelCatalog()
        self._remote = remote

    def model(self, name: str) -> ModelInfo:
        """The parse model `name` (422 naming the ones this deployment offers)."""
        return self._models.resolve(name, "parse")

    def _remote_parse(self, tenant: Tenant, model: ModelInfo, instructions: str | None) -> RemoteParse | None:
        """How a remote model parses (None for the built-in one)."""
        if model.provider == "builtin":
            return None
        if self._remote is None:
            raise ModelFailed(f"model '{model.id}' ({model.provider}) is not reachable from here")
        return RemoteParse(self._remote, tenant, model, instructions)

    # ------------------------------------------------------------------ synchronous and streamed
    def parse(
        self,
        tenant: Tenant,
        request: ParseRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> ParseRecord:
        """The parse, answered `completed`, or a 4xx. A job runs it with its own limits, and asks
        `stop` between pages, every CANCEL_CHECK_SECONDS at most, whether to give up (raising Stopped)."""
        completed = None
        for item in self.stream(tenant, request, limits=limits, stop=stop):  # None: SYNCHRONOUS
            completed = item if isinstance(item, ParseRecord) else completed
        assert completed is not None
        return completed

    def stream(
        self,
        tenant: Tenant,
        request: ParseRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Iterator[StreamedPage | ParseRecord]:
        """Each page as it is parsed, then the completed parse, stored like a synchronous one."""
        self.model(request.model)  # 422 naming the parse models, before the document is loaded
        check_languages(request.languages)
        source = self._documents.load(tenant, request.document, self._engine.supported)
        record = self._new_record(tenant, source, request, "in_progress")
        cached = self._cached_output(tenant, record)
        if cached is not None:
            earlier = cached.ocr_confidence or [None] * len(cached.pages)
            for number, (text, confidence) in enumerate(zip(cached.pages, earlier, strict=False), start=1):
                yield StreamedPage(number=number, text=text, ocr_confidence=confidence)
            yield self._finish(tenant, record, cached, cached=True, from_states=None)
            return
        parsing = _Parsing()
        for page in self._parsed(tenant, record, source, limits or SYNCHRONOUS, stop, parsing):
            yield StreamedPage(number=page.number, text=page.text, ocr_confidence=page.ocr_confidence)
        yield self._finish(
            tenant, record, parsing.output(), cached=False, from_states=None, tokens=parsing.tokens()
        )

    def read(
        self,
        tenant: Tenant,
        document: DocumentInput,
        *,
        dpi: int = DEFAULT_DPI,
        bust_cache: bool = False,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
        words: bool = False,
        images: int = 0,
    ) -> ReadDocument:
        """The pages of a document for another task (an extraction, a classification, ...), tables in
        markdown: the output of an earlier parse of identical input when there is one, else a fresh
        read. With `words`, also each page's words and their boxes: after an earlier parse of a
        document with a text layer, its words alone are read (no OCR, no tables); a document an
        earlier parse OCR'd is read again whole. With `images`, the first that many pages are drawn
        too (JPEG at `dpi`, for the types that have pictures), which takes a fresh read. Nothing is
        stored and nothing is charged here; the
        task does both."""
        source = self._documents.load(tenant, document, self._engine.supported)
        file = FileSummary(id=source.file_id, filename=source.filename, mime_type=source.mime_type)
        key = cache_key(source, ParseRequest(document=document, image_resolution_dpi=dpi))
        earlier = None if bust_cache or images else self._repository.cached(tenant, key)
        output = self._store.load_output(tenant, earlier) if earlier else None
        limits = limits or SYNCHRONOUS
        if output is not None and not (words and any(c is not None for c in output.ocr_confidence)):
            boxes, sizes = None, output.page_sizes
            if words:
                text_layer = ReadOptions(
                    limits.max_pages, dpi=dpi, page_seconds=limits.page_seconds, words="only"
                )
                only = list(self._read_pages(tenant, source, text_layer, limits, stop))
                boxes = [page.words for page in only]
                # an output stored before page sizes were kept has none: the pages just read give them
                sizes = sizes or [page.size for page in only]
            return ReadDocument(
                file=file,
                pages=output.pages,
                cached=True,
                words=boxes,
                ocr_confidence=output.ocr_confidence or [None] * len(output.pages),
                page_sizes=sizes,
            )
        options = ReadOptions(
            limits.max_pages,
            dpi=dpi,
            page_seconds=limits.page_seconds,
            words="also" if words else "no",
            images=images,
        )
        read = list(self._read_pages(tenant, source, options, limits, stop))
        pictures = [page.image for page in read if page.image is not None]
        return ReadDocument(
            file=file,
            pages=[page.text for page in read],
            cached=False,
            words=[page.words for page in read] if words else None,
            images=pictures,
            ocr_confidence=[page.ocr_confidence for page in read],
            page_sizes=[page.size for page in read],
        )

    def _parsed(
        self,
        tenant: Tenant,
        record: ParseRecord,
        source: SourceDocument,
        limits: ParseLimits,
        stop: Callable[[], bool] | None,
        parsing: _Parsing,
    ) -> Iterator[ParsedPage]:
        """The one loop of every parse (synchronous, streamed, background, a job's): the pages as the
        parse's model reads them, within `limits`, asking `stop` now and then (Stopped when it says
        so); each page is kept in `parsing` and its warnings in the record."""
        parsing.remote = self._remote_parse(tenant, self.model(record.model), record.instructions)
        options = _read_options(record, limits, parsing.remote is not None)
        read = self._read_pages(tenant, source, options, limits, stop)
        for page in parsing.remote.pages(read) if parsing.remote else read:
            parsing.pages.append(page.text)
            parsing.confidences.append(page.ocr_confidence)
            parsing.sizes.append(page.size)
            record.warnings.extend(f"page {page.number}: {warning}" for warning in page.warnings)
            yield page

    def _read_pages(
        self,
        tenant: Tenant,
        source: SourceDocument,
        options: ReadOptions,
        limits: ParseLimits,
        stop: Callable[[], bool] | None,
    ) -> Iterator[ParsedPage]:
        """The engine's pages within `limits`, asking `stop` now and then (Stopped when it says so)."""
        limit = PageLimit(source.filename, limits)
        started = time.monotonic()
        pages = self._engine.pages(tenant, source, options, limit)
        check = Occasionally(stop or (lambda: False))
        for page in pages:
            yield page
            if check():
                raise Stopped()
            too_slow = limits.seconds is not None and time.monotonic() - started > limits.seconds
            if too_slow and limits.seconds is not None and page.number < limit.page_count:
                raise too_slow_for_sync(source.filename, limits.seconds, page.number, limit.page_count)

    # ------------------------------------------------------------------ background
    def submit(self, tenant: Tenant, request: ParseRequest) -> ParseRecord:
        """The background parse: stored `pending`, queued, answered `queued` with empty output. What
        would fail it for certain (a model or an OCR language the deployment lacks) is a 4xx now."""
        self.model(request.model)
        check_languages(request.languages)
        source = self._documents.load(tenant, request.document, self._engine.supported)
        record = self._new_record(tenant, source, request, "pending")
        self._store.save_input(tenant, record.id, source.content)
        self._repository.put(tenant, record)
        queued = _moved(record, "queued")
        self._repository.move(tenant, queued, frozenset({"pending"}))
        self._enqueue(tenant, record.id)
        return queued

    def run(self, tenant: Tenant, parse_id: str) -> None:
        """The worker's side of a background parse. Idempotent: only a `queued` parse is started, and
        only one delivery of its message can move it to `in_progress`. A parse never stays in progress:
        a fault of the service fails it (`internal_error`), and a message that comes back for a parse
        whose worker died fails it (`interrupted`)."""
        record = self._repository.get(tenant, parse_id)
        if record is not None and record.status == "in_progress" and _running_longer_than_a_worker(record):
            self._fail(tenant, record, "interrupted", "the parse stopped before it finished; send it again")
            return
        if record is None or record.status != "queued":
            return
        started = _moved(record, "in_progress")
        if not self._repository.move(tenant, started, frozenset({"queued"})):
            return
        try:
            content = self._store.load_input(tenant, parse_id)
            if content is None:
                raise DocumentRejected("input_missing", "the document of this parse is no longer stored")
            cached = self._cached_output(tenant, started)
            if cached is not None:
                self._finish(tenant, started, cached, cached=True, from_states=frozenset({"in_progress"}))
                return
            source = typed_source(started.file.filename, content, self._engine.supported)
            parsing = _Parsing()
            wanted = lambda: not self._still_running(tenant, parse_id)  # noqa: E731
            for _ in self._parsed(tenant, started, source, IN_BACKGROUND, wanted, parsing):
                pass
        except Stopped:
            return  # cancelled or deleted: it stopped at a safe point, and that state stands
        except DomainError as rejection:
            self._fail(tenant, started, rejection.code, rejection.message)
            return
        except Exception:  # a fault of the service: the parse fails now rather than stay in progress forever
            _log.exception("background parse failed", extra={"parse_id": parse_id})
            self._fail(
                tenant, started, "internal_error", "the parse failed inside the service; it was logged"
            )
            return
        self._finish(
            tenant,
            started,
            parsing.output(),
            cached=False,
            from_states=frozenset({"in_progress"}),
            tokens=parsing.tokens(),
        )

    def _fail(self, tenant: Tenant, record: ParseRecord, code: str, message: str) -> None:
        """`in_progress` -> `failed` with its error and event (nothing, if it moved on meanwhile)."""
        failed = record.model_copy(
            update={
                "status": "failed",
                "error": ParseError(code=code, message=message),
                "updated_at": iso(utc_now()),
            }
        )
        self._repository.move(
            tenant, failed, frozenset({"in_progress"}), new_event(tenant, "parse.failed", _event_data(failed))
        )

    def _still_running(self, tenant: Tenant, parse_id: str) -> bool:
        current = self._repository.get(tenant, parse_id)
        return current is not None and current.status == "in_progress"

    # ------------------------------------------------------------------ reading and changing
    def get(self, tenant: Tenant, parse_id: str) -> ParseRecord:
        record = self._repository.get(tenant, parse_id)
        if record is None:
            raise NotFound(f"no parse '{parse_id}'")
        return self._with_output(tenant, record)

    def list(self, tenant: Tenant, query: ParseQuery) -> Page[ParseRecord]:
        query.check()
        page = self._repository.list(tenant, query)
        if query.include_output:
            page.items = [self._with_output(tenant, record) for record in page.items]
        return page

    def cancel(self, tenant: Tenant, parse_id: str) -> ParseRecord:
        record = self.get(tenant, parse_id)
        if record.status not in TERMINAL:
            cancelled = _moved(record, "cancelled")
            if self._repository.move(
                tenant,
                cancelled,
                frozenset(NEXT_STATES),
                new_event(tenant, "parse.cancelled", _event_data(cancelled)),
            ):
                return cancelled
            record = self.get(tenant, parse_id)
        raise BadRequest(f"parse '{parse_id}' is already {record.status}")

    def delete(self, tenant: Tenant, parse_id: str) -> None:
        if self._repository.delete(tenant, parse_id) is None:
            raise NotFound(f"no parse '{parse_id}'")
        self._store.delete_all(tenant, parse_id)

    # ------------------------------------------------------------------ helpers
    def _new_record(
        self, tenant: Tenant, source: SourceDocument, request: ParseRequest, status: ParseStatus
    ) -> ParseRecord:
        now = iso(utc_now())
        return ParseRecord(
            id=new_id("parse"),
            environment=tenant.environment,
            file=FileSummary(id=source.file_id, filename=source.filename, mime_type=source.mime_type),
            model=request.model,
            table_parsing_format=request.table_parsing_format,
            image_resolution_dpi=request.image_resolution_dpi,
            languages=request.languages,
            instructions=request.instructions,
            status=status,
            created_at=now,
            updated_at=now,
            content_sha256=source.sha256,
            cache_key="" if request.bust_cache else cache_key(source, request),
        )

    def _cached_output(self, tenant: Tenant, record: ParseRecord) -> ParseOutput | None:
        earlier = self._repository.cached(tenant, record.cache_key) if record.cache_key else None
        return self._store.load_output(tenant, earlier) if earlier else None

    def _finish(
        self,
        tenant: Tenant,
        record: ParseRecord,
        output: ParseOutput,
        *,
        cached: bool,
        from_states: frozenset[str] | None,
        tokens: Tokens | None = None,
    ) -> ParseRecord:
        """Store the output, then complete the parse with its event, its usage and its cache entry."""
        page_count = len(output.pages)
        counted = tokens or Tokens()
        charge = Charge(
            pages=page_count,
            credits=credits_for(page_count, cached=cached),
            operation="parse",
            input_tokens=counted.input_tokens,
            output_tokens=counted.output_tokens,
        )
        usage = ParseUsage(
            page_count=page_count,
            credits=charge.credits,
            cached=cached,
            input_tokens=counted.input_tokens,
            output_tokens=counted.output_tokens,
        )
        completed = record.model_copy(
            update={
                "status": "completed",
                "output": output,
                "usage": usage,
                "updated_at": iso(utc_now()),
            }
        )
        self._store.save_output(tenant, record.id, output)
        event = new_event(tenant, "parse.completed", _event_data(completed))
        cache_entry = None if cached else record.cache_key
        if from_states is None:
            self._repository.put(tenant, completed, event, charge=charge, cache_key=cache_entry)
        elif not self._repository.move(
            tenant, completed, from_states, event, charge=charge, cache_key=cache_entry
        ):
            return self.get(tenant, record.id)  # cancelled meanwhile: that state stands
        return completed

    def _with_output(self, tenant: Tenant, record: ParseRecord) -> ParseRecord:
        if record.status != "completed":
            return record
        output = self._store.load_output(tenant, record.id)
        return record.model_copy(update={"output": output}) if output else record


def output_of(
    pages: list[str], confidences: Sequence[float | None] = (), sizes: Sequence[PageSize | None] = ()
) -> ParseOutput:
    """The output of these pages: `text` is the pages joined by a blank line; `ocr_confidence` one
    per page (null for every page when none is given); `page_sizes` one per page, or none (an output
    stored before they were kept)."""
    confidence = list(confidences) if len(confidences) == len(pages) else [None] * len(pages)
    known = [tuple(size) if size else None for size in sizes] if len(sizes) == len(pages) else []
    return ParseOutput(
        pages=pages,
        text="\n\n".join(pages),
        ocr_confidence=confidence,
        page_sizes=[(float(size[0]), float(size[1])) if size else None for size in known],
    )


def _running_longer_than_a_worker(record: ParseRecord) -> bool:
    """A parse `in_progress` for longer than a worker may run was interrupted (the worker timed out
    or its process died): its message came back, but nothing is working on it."""
    started = datetime.fromisoformat(record.updated_at.replace("Z", "+00:00"))
    return (utc_now() - started).total_seconds() > WORKER_SECONDS


def _moved(record: ParseRecord, status: ParseStatus) -> ParseRecord:
    return record.model_copy(update={"status": status, "updated_at": iso(utc_now())})


def _tokens(remote: RemoteParse | None) -> Tokens | None:
    return remote.tokens if remote else None


def _event_data(record: ParseRecord) -> dict[str, object]:
    data: dict[str, object] = {
        "id": record.id,
        "object": "parse",
        "status": record.status,
        "file": record.file.model_dump(),
        "usage": record.usage.model_dump(),
    }
    if record.error:
        data["error"] = record.error.model_dump()
    return data


@dataclass
class _Parsing:
    """What a parse's loop has read so far: its pages, their OCR confidences and sizes, and the remote model's
    calls whose tokens it used."""

    pages: list[str] = field(default_factory=list)
    confidences: list[float | None] = field(default_factory=list)
    sizes: list[PageSize | None] = field(default_factory=list)
    remote: RemoteParse | None = None

    def output(self) -> ParseOutput:
        return output_of(self.pages, self.confidences, self.sizes)

    def tokens(self) -> Tokens | None:
        return _tokens(self.remote)


def _read_options(parse: ParseRequest | ParseRecord, limits: ParseLimits, remote: bool) -> ReadOptions:
    """How a parse reads its document: its format, resolution and languages within `limits`, and
    every page drawn for a remote model."""
    return ReadOptions(
        max_pages=limits.max_pages,
        table_format=parse.table_parsing_format,
        dpi=parse.image_resolution_dpi,
        languages=tuple(parse.languages) if parse.languages else None,
        images=limits.max_pages if remote else 0,
        page_seconds=limits.page_seconds,
    )


def check_languages(languages: Sequence[str] | None) -> None:
    """A 422 naming the OCR languages asked for that the deployment does not carry, and those it does
    (the engine checks again what the machine has: a layer built without one of them)."""
    carried = list(OCR_LANGUAGES.values())
    missing = [language for language in languages or () if language not in carried]
    if missing:
        names = ", ".join(f"'{language}'" for language in missing)
        plural = "languages" if len(missing) > 1 else "language"
        raise DocumentRejected(
            "language_not_installed",
            f"OCR {plural} {names} {'are' if len(missing) > 1 else 'is'} not installed here; "
            f"installed: {', '.join(carried)}",
            422,
        )

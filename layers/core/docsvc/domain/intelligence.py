"""Document intelligence: extractions, classifications, splits and partitions (spec 4.2's job
endpoints). Each reads the document's pages through the parse service (an earlier parse of identical
input answers from its cache), asks a model, and stores the answer as a resource of its kind, with its
usage charged in the same write. The synchronous endpoint and the job worker call the same `answer`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput
from docsvc.domain.evidence import Evidence, ocr_pages_laid_out, sources_tree
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.models import (
    ModelCatalog,
    ModelFailed,
    ModelInfo,
    StructuredModels,
    Task,
    Tokens,
)
from docsvc.domain.parses import DEFAULT_DPI, FileSummary, ParseLimits, ParseService, ReadDocument
from docsvc.domain.usage import Charge, UsageLedger, UsageOperation
from docsvc.errors import DomainError, InvalidField, NotFound
from docsvc.ids import new_id
from docsvc.intelligence.paper import PageSize
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.research import Research
    from docsvc.intelligence.research_tools import ChatMessage, ModelTurn, ToolOffer

ResultKind = Literal["extraction", "classification", "split", "partition"]
ID_PREFIX: dict[str, str] = {
    "extraction": "extr",
    "classification": "cls",
    "split": "split",
    "partition": "part",
}
TASK_OF: dict[str, Task] = {
    "extraction": "extract",
    "classification": "classify",
    "split": "split",
    "partition": "partition",
}
CREDITS_PER_PAGE = 1.0
# A remote model that takes images sees the first this many pages as pictures, and every page as text.
IMAGE_PAGES = 20
# How long a deep research may keep asking a remote model (the API function has 29 s in all).
REMOTE_RESEARCH_SECONDS = 20.0


class ResultUsage(BaseModel):
    page_count: int
    credits: float
    cached: bool  # the pages came from an earlier parse of the same input
    input_tokens: int = 0  # what a remote model's provider counted, over every call; 0 for built-in ones
    output_tokens: int = 0


class ResultRecord(BaseModel):
    id: str
    object: ResultKind
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    file: FileSummary
    model: str
    output: Any = None
    likelihoods: dict[str, float] | None = None
    sources: Any = None  # an extraction's output with each leaf as {value, source, likelihood}
    warnings: list[str] = Field(default_factory=list)
    usage: ResultUsage
    created_at: str


class RemoteModels(StructuredModels, Protocol):
    """Models that run elsewhere (AWS Bedrock, OpenAI-compatible endpoints): asked, for a tenant (whose
    secrets hold the keys), for JSON of a given shape about a document; or, for deep research, for the
    next turn of a conversation in which they may call the tools offered."""

    def converse(
        self,
        tenant: Tenant,
        model: ModelInfo,
        system: str,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolOffer],
    ) -> ModelTurn:
        """The model's next turn (text, tool calls); a failure of the call or an answer that is no
        turn at all is a ModelFailed."""
        ...


class ConfigurationError(DomainError):
    """What a model needs is missing in this environment (its key's secret): fix the configuration."""

    code = "configuration_error"
    status_code = 400


@dataclass(frozen=True)
class Model:
    """The model a request runs on: a built-in one, or a remote one reached through `remote`. A remote
    model that takes images is shown `images`, pictures of the first pages (at most IMAGE_PAGES), with
    the text of every page; the tokens of its calls add up in `tokens`. The built-in model weighs what
    it reads on a page OCR'd by `ocr_confidence`."""

    info: ModelInfo
    tenant: Tenant
    remote: RemoteModels | None = None
    images: Sequence[bytes] = ()
    tokens: Tokens = field(default_factory=Tokens)
    # Per page given to the model: OCR's mean word confidence (0-100), None for a page with a text layer
    ocr_confidence: Sequence[float | None] = ()
    # Per page given to the model: its width and height in points, None where unknown; empty when the
    # document was read before sizes were kept (the built-in splitting weighs a change of page size)
    page_sizes: Sequence[PageSize | None] = ()

    @property
    def builtin(self) -> bool:
        return self.info.provider == "builtin"

    @property
    def scanned(self) -> list[bool]:
        """Per page given to the model: whether OCR read it (a scan's size may be its crop alone)."""
        return [confidence is not None for confidence in self.ocr_confidence]

    def structured(self, instructions: str, pages: list[str], schema: dict[str, Any]) -> dict[str, Any]:
        if self.remote is None:
            raise ModelFailed(f"model '{self.info.id}' ({self.info.provider}) is not reachable from here")
        document = "\n\n".join(f"--- page {number} ---\n{text}" for number, text in enumerate(pages, 1))
        if self.images:
            document = (
                f"The first {len(self.images)} pages are also shown as images, in order; the text of every "
                f"page follows.\n\n{document}"
            )
        reply = self.remote.structured(
            self.tenant, self.info, instructions, document, schema, images=self.images
        )
        self.tokens.add(reply)
        return reply.value

    def converse(self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolOffer]) -> ModelTurn:
        if self.remote is None:
            raise ModelFailed(f"model '{self.info.id}' ({self.info.provider}) is not reachable from here")
        return self.remote.converse(self.tenant, self.info, system, messages, tools)


@dataclass(frozen=True)
class Answer:
    output: Any
    likelihoods: dict[str, float] | None = None
    evidence: Mapping[str, Evidence] | None = None  # per leaf path: what the value was read from
    warnings: tuple[str, ...] = ()


Answerer = Callable[[list[str], Model], Answer]


@dataclass(frozen=True)
class DocumentTask:
    """What every intelligence request says about its document and model."""

    document: DocumentInput
    model: str | None = None
    image_resolution_dpi: int = DEFAULT_DPI
    bust_cache: bool = False
    first_n_pages: int | None = None  # only these pages go to the model


class ResultRepository(Protocol):
    def put(self, tenant: Tenant, record: ResultRecord, charge: Charge) -> None:
        """Store the result and add its charge to the tenant's usage, in one write."""
        ...

    def get(self, tenant: Tenant, kind: ResultKind, result_id: str) -> ResultRecord | None: ...
    def list(self, tenant: Tenant, kind: ResultKind, query: ListQuery) -> Page[ResultRecord]: ...

    def delete(self, tenant: Tenant, kind: ResultKind, result_id: str) -> bool:
        """Delete the result and what it keeps in S3 (never its usage); False if there is none."""
        ...


class IntelligenceService:
    def __init__(
        self,
        parses: ParseService,
        repository: ResultRepository,
        models: ModelCatalog,
        remote: RemoteModels | None = None,
        *,
        ledger: UsageLedger,
    ) -> None:
        """`ledger` takes the charges of the operations that store nothing (schema generation, deep
        research); a result's charge goes with it to the repository."""
        self._parses = parses
        self._repository = repository
        self._models = models
        self._remote = remote
        self._ledger = ledger

    def model_for(self, kind: ResultKind, model: str | None) -> ModelInfo:
        """The model a request names for this kind of result (422 naming the offered ones)."""
        return self._models.resolve(model, TASK_OF[kind])

    def answer(
        self,
        tenant: Tenant,
        kind: ResultKind,
        task: DocumentTask,
        answerer: Answerer,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
        charged_as: UsageOperation | None = None,
    ) -> ResultRecord:
        """The result, stored with its charge: as an operation of its kind, or as `charged_as` (an
        eval's extraction is charged as the eval's)."""
        model = self.model_for(kind, task.model)
        shown = min(IMAGE_PAGES, task.first_n_pages or IMAGE_PAGES) if model.images else 0
        document = self._parses.read(
            tenant,
            task.document,
            dpi=task.image_resolution_dpi,
            bust_cache=task.bust_cache,
            limits=limits,
            stop=stop,
            words=kind == "extraction",
            images=shown,
        )
        pages = document.pages[: task.first_n_pages] if task.first_n_pages else document.pages
        confidence = document.ocr_confidence[: len(pages)]
        asked = Model(
            model,
            tenant,
            self._remote,
            images=document.images[:shown],
            ocr_confidence=confidence,
            page_sizes=document.page_sizes[: len(pages)],
        )
        answer = answerer(_as_read_by(model, pages, document), asked)
        page_count = len(document.pages)
        sources = None
        if answer.evidence is not None:
            sources = sources_tree(
                answer.output, answer.likelihoods or {}, answer.evidence, pages, document.words
            )
        record = ResultRecord(
            id=new_id(ID_PREFIX[kind]),
            object=kind,
            environment=tenant.environment,
            file=document.file,
            model=model.id,
            output=answer.output,
            likelihoods=answer.likelihoods,
            sources=sources,
            warnings=[*unreadable_warnings(document.pages, kind), *answer.warnings],
            usage=ResultUsage(
                page_count=page_count,
                credits=_credits(document.pages),
                cached=document.cached,
                input_tokens=asked.tokens.input_tokens,
                output_tokens=asked.tokens.output_tokens,
            ),
            created_at=iso(utc_now()),
        )
        charge = Charge(
            pages=page_count,
            credits=record.usage.credits,
            operation=charged_as or kind,
            input_tokens=record.usage.input_tokens,
            output_tokens=record.usage.output_tokens,
        )
        self._repository.put(tenant, record, charge)
        return record

    def generate_schema(
        self,
        tenant: Tenant,
        documents: list[DocumentInput],
        *,
        model: str | None = None,
        instructions: str | None = None,
        dpi: int = DEFAULT_DPI,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """A JSON Schema of the data in these documents (fields, types, tables as arrays), charged
        for the pages of every document, as an extraction's are."""
        from docsvc.intelligence.schemas import generate_schema

        self._models.resolve(model, "generate_schema")  # built-in models only: no remote offers it
        read = [
            self._parses.read(tenant, document, dpi=dpi, limits=limits, stop=stop) for document in documents
        ]
        schema = generate_schema([document.pages for document in read], instructions)
        pages = [page for document in read for page in document.pages]
        self._ledger.add(tenant, Charge(len(pages), _credits(pages), "schema_generation"))
        return schema

    def research(
        self,
        tenant: Tenant,
        task: DocumentTask,
        json_schema: dict[str, Any],
        *,
        steps: int,
        tool_calls: int,
        instructions: str | None = None,
        lookup: Callable[[str, str], list[dict[str, Any]]] | None = None,
    ) -> tuple[Research, ModelInfo, int]:
        """Deep research (beta): the predictions and trace of the built-in agent, or of a remote model
        offered the same tools by function calling; the model; the page count. A remote research that
        ends without predictions is a ModelFailed. A research that ends is charged for its pages, as
        an extraction is, with the remote model's tokens."""
        from docsvc.intelligence.remote_research import ResearchFailed, remote_research
        from docsvc.intelligence.research import research

        model = self._models.resolve(task.model, "extract")
        document = self._parses.read(
            tenant, task.document, dpi=task.image_resolution_dpi, bust_cache=task.bust_cache
        )
        if model.provider == "builtin":
            found = research(
                document.pages,
                json_schema,
                num_agentic_steps=steps,
                max_tool_calls=tool_calls,
                instructions=instructions,
                lookup=lookup,
            )
            return self._charged_research(tenant, found, model, document.pages)
        try:
            found = remote_research(
                document.pages,
                json_schema,
                Model(model, tenant, self._remote).converse,
                num_agentic_steps=steps,
                max_tool_calls=tool_calls,
                instructions=instructions,
                lookup=lookup,
                time_limit=REMOTE_RESEARCH_SECONDS,
            )
        except ResearchFailed as failure:
            raise ModelFailed(f"model '{model.id}': {failure}") from None
        return self._charged_research(tenant, found, model, document.pages)

    def _charged_research(
        self, tenant: Tenant, found: Research, model: ModelInfo, pages: list[str]
    ) -> tuple[Research, ModelInfo, int]:
        tokens = found.usage
        charge = Charge(
            pages=len(pages),
            credits=_credits(pages),
            operation="deep_research",
            input_tokens=tokens.get("input_tokens", 0),
            output_tokens=tokens.get("output_tokens", 0),
        )
        self._ledger.add(tenant, charge)
        return found, model, len(pages)

    def sources(
        self, tenant: Tenant, extraction_id: str, field: tuple[str, ...] = ("path", "extraction_id")
    ) -> ResultRecord:
        """The extraction, which must have its sources (extractions made before sources were kept
        have none: a 422 on `field`)."""
        record = self.get(tenant, "extraction", extraction_id)
        if record.sources is None:
            raise InvalidField(
                field, f"extraction '{extraction_id}' was stored without sources; run the extraction again"
            )
        return record

    def get(self, tenant: Tenant, kind: ResultKind, result_id: str) -> ResultRecord:
        record = self._repository.get(tenant, kind, result_id)
        if record is None:
            raise NotFound(f"no {kind} '{result_id}'")
        return record

    def list(self, tenant: Tenant, kind: ResultKind, query: ListQuery) -> Page[ResultRecord]:
        query.check()
        return self._repository.list(tenant, kind, query)

    def delete(self, tenant: Tenant, kind: ResultKind, result_id: str) -> None:
        """The result and its stored output and sources; its usage stays (it is the bill)."""
        if not self._repository.delete(tenant, kind, result_id):
            raise NotFound(f"no {kind} '{result_id}'")


def _credits(pages: Sequence[str]) -> float:
    """CREDITS_PER_PAGE for each page with text; none for a page without text to read."""
    return sum(1 for page in pages if page.strip()) * CREDITS_PER_PAGE


def _as_read_by(model: ModelInfo, pages: list[str], document: ReadDocument) -> list[str]:
    """The pages as the model reads them. The built-in model reads a page OCR'd from a scan as the
    lines its words are printed on (OCR gives a form's labels and values as separate blocks; their
    positions put each value back beside its label): on scanned invoices that reads 70% of the fields
    against 48% from OCR's blocks. Pages with a text layer, and remote models, keep the parse's text."""
    if model.provider != "builtin" or document.words is None:
        return pages
    return ocr_pages_laid_out(pages, document.words, document.ocr)


def unreadable_warnings(pages: Sequence[str], kind: ResultKind) -> list[str]:
    """What to say when pages had no text to read (a scan OCR could not read, a blank page): they are
    not charged, and a result read from nothing says so."""
    unread = [number for number, page in enumerate(pages, 1) if not page.strip()]
    if not unread:
        return []
    if len(unread) == len(pages):
        return [
            f"no text could be read in the document (scanned without a readable text layer, or blank): "
            f"the {kind} was made from nothing and is not to be trusted; no credit was charged"
        ]
    listed = ", ".join(str(number) for number in unread[:20]) + ("..." if len(unread) > 20 else "")
    return [f"no text could be read on page(s) {listed}; they were not charged"]

"""Extraction evals (spec 4.2's `/v1/evals/extract/...` job endpoints): datasets of documents with
their ground truth for a JSON schema, run with varying models and settings, and scored.

An eval (a "project": `source=project` and `project_id` of the job filters name it) holds a schema, its
default inference settings, and documents, each with its `annotation`: the data the document holds,
valid against the schema. An iteration fixes the settings of a run (model, schema override,
instructions, consensus, resolution: the eval's defaults where it says nothing). `extract` runs one
document with an iteration's settings and scores it; `process` runs the iteration over the dataset
(or over one split of it) and stores each document's result and the metrics on the iteration;
`split` divides the dataset into a train and a test part, the same way for the same seed.

Every extraction is made by the IntelligenceService, so it is stored and charged as any extraction
is, under the usage operation `eval`. Every write that changes state is conditional on the eval being
there and active: a document is added, an iteration created or completed only while its eval is;
deleting an eval first marks it deleting (from then on it and everything in it answers 404), then
removes its documents and iterations, then itself.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, Field

from docsvc.clock import iso, utc_now
from docsvc.domain import answers
from docsvc.domain.documents import DocumentInput, MIMEData, decode_data_url
from docsvc.domain.events import Event, new_event
from docsvc.domain.intelligence import DocumentTask, IntelligenceService, ResultRecord
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.parses import DEFAULT_DPI, ParseLimits
from docsvc.errors import DocumentRejected, DomainError, InvalidField, NotFound, Stopped
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

if TYPE_CHECKING:
    from docsvc.intelligence.eval_metrics import Comparison

EVAL_PREFIX, DOCUMENT_PREFIX, ITERATION_PREFIX = "eval", "evdoc", "evit"
MAX_DOCUMENTS = 500  # a dataset; 100 documents with the built-in model run in one job in seconds
SYNC_MAX_DOCUMENTS = 10  # a synchronous process; more is a job
SYNC_SECONDS = 25.0  # what a synchronous process may take of the API's 29 s
MAX_ANNOTATION_BYTES = 256 * 1024
EvalStatus = Literal["active", "deleting"]
IterationStatus = Literal["created", "completed"]
Split = Literal["train", "test"]


class EvalSettings(BaseModel):
    """How an eval's documents are extracted: the fields POST /v1/extractions takes beside the
    document and the schema."""

    model: str | None = Field(None, description="A model of GET /v1/models; the extract default if null.")
    instructions: str | None = Field(None, max_length=10_000)
    n_consensus: int = Field(1, ge=1, le=8)
    image_resolution_dpi: int = Field(DEFAULT_DPI, ge=96, le=300)


class EvalRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    name: str
    json_schema: dict[str, Any]
    inference_settings: EvalSettings
    document_count: int = 0
    status: EvalStatus = "active"
    created_at: str
    updated_at: str


class EvalDocumentRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    eval_id: str
    filename: str
    document: DocumentInput  # loaded only when asked for (it may be a data URL of megabytes)
    annotation: dict[str, Any]
    split: Split | None = None
    created_at: str
    updated_at: str


class FieldScore(BaseModel):
    field: str
    truth: Any
    predicted: Any
    exact: bool
    match: bool
    outcome: str  # tp, tn, fp, fn or wrong (a false positive and a false negative)
    likelihood: float | None


class Scores(BaseModel):
    overall: dict[str, Any]
    fields: dict[str, dict[str, Any]]


class DocumentResult(BaseModel):
    document_id: str
    filename: str
    extraction_id: str | None = None
    output: dict[str, Any] | None = None
    likelihoods: dict[str, float] | None = None
    scores: Scores | None = None
    field_scores: list[FieldScore] = Field(default_factory=list)
    error: dict[str, str] | None = None  # {code, message} of a document that could not be extracted


class IterationRecord(BaseModel):
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    eval_id: str
    json_schema: dict[str, Any] | None = None  # the override; the eval's schema when null
    inference_settings: EvalSettings
    status: IterationStatus = "created"
    split: Split | None = None  # the part of the dataset the last process ran over; null for all
    metrics: Scores | None = None
    documents: list[DocumentResult] | None = None  # loaded only when asked for
    processed_at: str | None = None
    created_at: str


class ExtractOutcome(BaseModel):
    eval_id: str
    iteration_id: str
    result: DocumentResult


class SplitOutcome(BaseModel):
    eval_id: str
    seed: int
    test_fraction: float
    train: list[str]
    test: list[str]


class EvalRepository(Protocol):
    """Evals, their documents and iterations, of one tenant. Each write is conditional and answers
    whether it was written."""

    def put_eval(self, tenant: Tenant, record: EvalRecord) -> None: ...
    def get_eval(self, tenant: Tenant, eval_id: str) -> EvalRecord | None:
        """Whatever its status (a deleting eval too)."""
        ...

    def list_evals(self, tenant: Tenant, query: ListQuery) -> Page[EvalRecord]:
        """Deleting ones left out."""
        ...

    def update_eval(self, tenant: Tenant, record: EvalRecord) -> bool:
        """Name, schema, settings, updated_at; only while the eval is active."""
        ...

    def mark_deleting(self, tenant: Tenant, eval_id: str) -> bool: ...
    def purge(self, tenant: Tenant, eval_id: str) -> None:
        """Remove every document and iteration of the eval, then the eval."""
        ...

    def add_document(self, tenant: Tenant, record: EvalDocumentRecord, max_documents: int) -> bool:
        """The document, and the eval's count up by one, in one write: only while the eval is active
        and holds fewer than `max_documents`."""
        ...

    def get_document(
        self, tenant: Tenant, eval_id: str, document_id: str, *, with_document: bool = False
    ) -> EvalDocumentRecord | None: ...
    def list_documents(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[EvalDocumentRecord]: ...
    def all_documents(self, tenant: Tenant, eval_id: str) -> Iterator[EvalDocumentRecord]:
        """Every document, oldest first, without its `document` loaded."""
        ...

    def update_document(self, tenant: Tenant, record: EvalDocumentRecord) -> bool:
        """Annotation, split, updated_at; only while the document and its eval are there."""
        ...

    def set_split(
        self, tenant: Tenant, eval_id: str, document_id: str, split: Split, updated_at: str
    ) -> bool:
        """The document's part of the dataset alone (its annotation untouched); only while the document
        and its eval are there."""
        ...

    def delete_document(self, tenant: Tenant, eval_id: str, document_id: str) -> bool:
        """The document, and the eval's count down by one, in one write."""
        ...

    def put_iteration(self, tenant: Tenant, record: IterationRecord) -> bool:
        """A new iteration, only while its eval is active."""
        ...

    def get_iteration(
        self, tenant: Tenant, eval_id: str, iteration_id: str, *, with_documents: bool = False
    ) -> IterationRecord | None: ...
    def list_iterations(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[IterationRecord]: ...
    def complete_iteration(self, tenant: Tenant, record: IterationRecord, event: Event) -> bool:
        """Results and metrics, with the event in the same write; only while the iteration and its
        eval are there."""
        ...

    def delete_iteration(self, tenant: Tenant, eval_id: str, iteration_id: str) -> bool: ...


def too_large_for_sync(count: int) -> DocumentRejected:
    """The refusal of a synchronous process over more than a request may run."""
    return DocumentRejected(
        "too_large_for_sync",
        f"this run covers {count} documents; a synchronous process runs at most {SYNC_MAX_DOCUMENTS} "
        f"(and {SYNC_SECONDS:g} s): run it as a job, POST /v1/jobs with endpoint "
        "/v1/evals/extract/process and the same body",
        413,
    )


class EvalService:
    def __init__(self, repository: EvalRepository, intelligence: IntelligenceService) -> None:
        self._repository = repository
        self._intelligence = intelligence

    # ------------------------------------------------------------------ evals
    def create_eval(
        self, tenant: Tenant, name: str, json_schema: dict[str, Any], settings: EvalSettings
    ) -> EvalRecord:
        self._check_model(settings.model, ("body", "inference_settings", "model"))
        now = iso(utc_now())
        record = EvalRecord(
            id=new_id(EVAL_PREFIX),
            environment=tenant.environment,
            name=name,
            json_schema=json_schema,
            inference_settings=settings,
            created_at=now,
            updated_at=now,
        )
        self._repository.put_eval(tenant, record)
        return record

    def get_eval(self, tenant: Tenant, eval_id: str) -> EvalRecord:
        record = self._repository.get_eval(tenant, eval_id)
        if record is None or record.status != "active":
            raise NotFound(f"no eval '{eval_id}'")
        return record

    def list_evals(self, tenant: Tenant, query: ListQuery) -> Page[EvalRecord]:
        query.check()
        return self._repository.list_evals(tenant, query)

    def update_eval(
        self,
        tenant: Tenant,
        eval_id: str,
        *,
        name: str | None = None,
        json_schema: dict[str, Any] | None = None,
        settings: EvalSettings | None = None,
    ) -> EvalRecord:
        """A new schema must hold every annotation of the dataset: 422 naming the first that breaks it."""
        record = self.get_eval(tenant, eval_id)
        if settings is not None:
            self._check_model(settings.model, ("body", "inference_settings", "model"))
        if json_schema is not None:
            for document in self._repository.all_documents(tenant, eval_id):
                check_annotation(
                    json_schema,
                    document.annotation,
                    ("body", "json_schema"),
                    f"the annotation of document '{document.id}' does not match the new schema",
                )
        changed = record.model_copy(
            update={
                "name": name if name is not None else record.name,
                "json_schema": json_schema if json_schema is not None else record.json_schema,
                "inference_settings": settings if settings is not None else record.inference_settings,
                "updated_at": iso(utc_now()),
            }
        )
        if not self._repository.update_eval(tenant, changed):
            raise NotFound(f"no eval '{eval_id}'")
        return changed

    def delete_eval(self, tenant: Tenant, eval_id: str) -> None:
        """Marked deleting first (404 from then on), then emptied and removed. A delete that stopped
        half way is finished by the next delete of the same id."""
        record = self._repository.get_eval(tenant, eval_id)
        if record is None:
            raise NotFound(f"no eval '{eval_id}'")
        if record.status == "active" and not self._repository.mark_deleting(tenant, eval_id):
            raise NotFound(f"no eval '{eval_id}'")
        self._repository.purge(tenant, eval_id)

    # ------------------------------------------------------------------ documents
    def add_document(
        self, tenant: Tenant, eval_id: str, document: DocumentInput, annotation: dict[str, Any]
    ) -> EvalDocumentRecord:
        evaluation = self.get_eval(tenant, eval_id)
        check_annotation(evaluation.json_schema, annotation, ("body", "annotation"))
        check_document(document)
        now = iso(utc_now())
        record = EvalDocumentRecord(
            id=new_id(DOCUMENT_PREFIX),
            environment=tenant.environment,
            eval_id=eval_id,
            filename=getattr(document, "filename", None) or getattr(document, "id", "document"),
            document=document,
            annotation=annotation,
            created_at=now,
            updated_at=now,
        )
        if not self._repository.add_document(tenant, record, MAX_DOCUMENTS):
            self.get_eval(tenant, eval_id)  # 404 when it went meanwhile
            raise InvalidField(
                ("path", "eval_id"), f"eval '{eval_id}' holds {MAX_DOCUMENTS} documents, the most it may"
            )
        return record

    def get_document(
        self, tenant: Tenant, eval_id: str, document_id: str, *, with_document: bool = False
    ) -> EvalDocumentRecord:
        self.get_eval(tenant, eval_id)
        record = self._repository.get_document(tenant, eval_id, document_id, with_document=with_document)
        if record is None:
            raise NotFound(f"no document '{document_id}' in eval '{eval_id}'")
        return record

    def list_documents(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[EvalDocumentRecord]:
        self.get_eval(tenant, eval_id)
        query.check()
        return self._repository.list_documents(tenant, eval_id, query)

    def update_document(
        self,
        tenant: Tenant,
        eval_id: str,
        document_id: str,
        *,
        annotation: dict[str, Any] | None = None,
        split: Split | None = None,
    ) -> EvalDocumentRecord:
        evaluation = self.get_eval(tenant, eval_id)
        record = self.get_document(tenant, eval_id, document_id)
        if annotation is not None:
            check_annotation(evaluation.json_schema, annotation, ("body", "annotation"))
        changed = record.model_copy(
            update={
                "annotation": annotation if annotation is not None else record.annotation,
                "split": split if split is not None else record.split,
                "updated_at": iso(utc_now()),
            }
        )
        if not self._repository.update_document(tenant, changed):
            raise NotFound(f"no document '{document_id}' in eval '{eval_id}'")
        return changed

    def delete_document(self, tenant: Tenant, eval_id: str, document_id: str) -> None:
        self.get_eval(tenant, eval_id)
        if not self._repository.delete_document(tenant, eval_id, document_id):
            raise NotFound(f"no document '{document_id}' in eval '{eval_id}'")

    # ------------------------------------------------------------------ iterations
    def create_iteration(
        self,
        tenant: Tenant,
        eval_id: str,
        *,
        json_schema: dict[str, Any] | None,
        settings: dict[str, Any],
    ) -> IterationRecord:
        """`settings` are the fields the request set; the eval's defaults fill the rest, copied into
        the iteration so that changing the eval later does not change what it ran with."""
        evaluation = self.get_eval(tenant, eval_id)
        merged = EvalSettings.model_validate(evaluation.inference_settings.model_dump() | settings)
        self._check_model(merged.model, ("body", "inference_settings", "model"))
        record = IterationRecord(
            id=new_id(ITERATION_PREFIX),
            environment=tenant.environment,
            eval_id=eval_id,
            json_schema=json_schema,
            inference_settings=merged,
            created_at=iso(utc_now()),
        )
        if not self._repository.put_iteration(tenant, record):
            raise NotFound(f"no eval '{eval_id}'")
        return record

    def get_iteration(
        self, tenant: Tenant, eval_id: str, iteration_id: str, *, with_documents: bool = False
    ) -> IterationRecord:
        self.get_eval(tenant, eval_id)
        record = self._repository.get_iteration(tenant, eval_id, iteration_id, with_documents=with_documents)
        if record is None:
            raise NotFound(f"no iteration '{iteration_id}' in eval '{eval_id}'")
        return record

    def list_iterations(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[IterationRecord]:
        self.get_eval(tenant, eval_id)
        query.check()
        return self._repository.list_iterations(tenant, eval_id, query)

    def delete_iteration(self, tenant: Tenant, eval_id: str, iteration_id: str) -> None:
        self.get_eval(tenant, eval_id)
        if not self._repository.delete_iteration(tenant, eval_id, iteration_id):
            raise NotFound(f"no iteration '{iteration_id}' in eval '{eval_id}'")

    # ------------------------------------------------------------------ running
    def extract(
        self,
        tenant: Tenant,
        eval_id: str,
        iteration_id: str,
        document_id: str,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> ExtractOutcome:
        """One document with one iteration's settings, scored against its annotation. The extraction is
        stored and charged as any; the iteration is not changed."""
        evaluation = self.get_eval(tenant, eval_id)
        iteration = self._iteration_of(tenant, eval_id, iteration_id)
        document = self._document_of(tenant, eval_id, document_id)
        result = self._run(tenant, evaluation, iteration, document, limits, stop, keep_errors=False)
        return ExtractOutcome(eval_id=eval_id, iteration_id=iteration_id, result=result)

    def process(
        self,
        tenant: Tenant,
        eval_id: str,
        iteration_id: str,
        *,
        split: Split | None = None,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> IterationRecord:
        """The iteration run over the dataset (or its `split`): each document's result and the metrics
        stored on the iteration, with an `eval.iteration.completed` event. A document that cannot be
        extracted is kept with its error and left out of the metrics. Synchronously (no `limits`): at
        most SYNC_MAX_DOCUMENTS documents and SYNC_SECONDS, else 413 saying to run it as a job."""
        evaluation = self.get_eval(tenant, eval_id)
        iteration = self._iteration_of(tenant, eval_id, iteration_id)
        documents = [
            document
            for document in self._repository.all_documents(tenant, eval_id)
            if split is None or document.split == split
        ]
        if not documents:
            where = f"its {split} split" if split else "its dataset"
            raise InvalidField(
                ("body", "split" if split else "project_id"),
                f"eval '{eval_id}' has no documents in {where}: add documents before processing",
            )
        synchronous = limits is None
        if synchronous and len(documents) > SYNC_MAX_DOCUMENTS:
            raise too_large_for_sync(len(documents))
        started = time.monotonic()
        results = []
        for document in documents:
            if stop is not None and stop():
                raise Stopped()
            if synchronous and time.monotonic() - started > SYNC_SECONDS:
                raise too_large_for_sync(len(documents))
            loaded = self._document_of(tenant, eval_id, document.id)
            results.append(self._run(tenant, evaluation, iteration, loaded, limits, stop, keep_errors=True))
        completed = iteration.model_copy(
            update={
                "status": "completed",
                "split": split,
                "metrics": dataset_scores(results),
                "documents": results,
                "processed_at": iso(utc_now()),
            }
        )
        event = new_event(tenant, "eval.iteration.completed", _event_data(completed))
        if not self._repository.complete_iteration(tenant, completed, event):
            self.get_eval(tenant, eval_id)
            raise NotFound(f"no iteration '{iteration_id}' in eval '{eval_id}'")
        return completed

    def split(self, tenant: Tenant, eval_id: str, *, test_fraction: float, seed: int) -> SplitOutcome:
        """Each document in the test part when its hash with the seed falls under `test_fraction`:
        the same seed splits the same documents the same way, whatever order they come in, and a
        document added later does not move the others."""
        self.get_eval(tenant, eval_id)
        train: list[str] = []
        test: list[str] = []
        for document in self._repository.all_documents(tenant, eval_id):
            part: Split = "test" if _share(document.id, seed) < test_fraction else "train"
            (test if part == "test" else train).append(document.id)
            moved = document.split == part or self._repository.set_split(
                tenant, eval_id, document.id, part, iso(utc_now())
            )
            if not moved:
                self.get_eval(tenant, eval_id)  # the eval went: 404; a document that went is skipped
        return SplitOutcome(eval_id=eval_id, seed=seed, test_fraction=test_fraction, train=train, test=test)

    # ------------------------------------------------------------------ helpers
    def _check_model(self, model: str | None, location: tuple[str, ...]) -> None:
        try:
            self._intelligence.model_for("extraction", model)
        except InvalidField as error:
            raise InvalidField(location, error.message) from None

    def _iteration_of(self, tenant: Tenant, eval_id: str, iteration_id: str) -> IterationRecord:
        record = self._repository.get_iteration(tenant, eval_id, iteration_id)
        if record is None:
            raise NotFound(f"no iteration '{iteration_id}' in eval '{eval_id}'")
        return record

    def _document_of(self, tenant: Tenant, eval_id: str, document_id: str) -> EvalDocumentRecord:
        record = self._repository.get_document(tenant, eval_id, document_id, with_document=True)
        if record is None:
            raise NotFound(f"no document '{document_id}' in eval '{eval_id}'")
        return record

    def _run(
        self,
        tenant: Tenant,
        evaluation: EvalRecord,
        iteration: IterationRecord,
        document: EvalDocumentRecord,
        limits: ParseLimits | None,
        stop: Callable[[], bool] | None,
        *,
        keep_errors: bool,
    ) -> DocumentResult:
        settings = iteration.inference_settings
        schema = iteration.json_schema or evaluation.json_schema
        task = DocumentTask(
            document=document.document,
            model=settings.model,
            image_resolution_dpi=settings.image_resolution_dpi,
        )
        answerer = answers.extraction(schema, settings.instructions, settings.n_consensus)
        try:
            record = self._intelligence.answer(
                tenant, "extraction", task, answerer, limits=limits, stop=stop, charged_as="eval"
            )
        except DomainError as rejected:  # the document (unreadable, gone) or the model (failed)
            if not keep_errors or rejected.code == "too_slow_for_sync":
                raise
            return DocumentResult(
                document_id=document.id,
                filename=document.filename,
                error={"code": rejected.code, "message": rejected.message},
            )
        return scored(document, record, schema)


def scored(document: EvalDocumentRecord, record: ResultRecord, json_schema: dict[str, Any]) -> DocumentResult:
    """An extraction of a document, compared with its annotation."""
    from docsvc.intelligence.eval_metrics import compare

    comparisons = compare(document.annotation, record.output, json_schema, record.likelihoods)
    return DocumentResult(
        document_id=document.id,
        filename=document.filename,
        extraction_id=record.id,
        output=record.output,
        likelihoods=record.likelihoods,
        scores=_scores(comparisons),
        field_scores=[FieldScore(**asdict(comparison)) for comparison in comparisons],
    )


def dataset_scores(results: list[DocumentResult]) -> Scores:
    """The metrics of every field of every document extracted, and overall; with the counts of
    documents scored and failed."""
    from docsvc.intelligence.eval_metrics import Comparison

    scores = _scores(
        [Comparison(**score.model_dump()) for result in results for score in result.field_scores]
    )
    scores.overall["documents"] = sum(result.error is None for result in results)
    scores.overall["failed_documents"] = sum(result.error is not None for result in results)
    return scores


def _scores(comparisons: list[Comparison]) -> Scores:
    from docsvc.intelligence.eval_metrics import field_metrics, metrics

    return Scores(
        overall=metrics(comparisons).as_dict(),
        fields={name: value.as_dict() for name, value in field_metrics(comparisons).items()},
    )


def check_annotation(
    json_schema: dict[str, Any],
    annotation: Any,
    location: tuple[str, ...],
    what: str = "the annotation does not match the eval's schema",
) -> None:
    """422 at `location` and the path inside the annotation that breaks the schema. A value may be
    null wherever the schema puts it (as in an extraction: not in the document)."""
    import json

    from jsonschema import Draft202012Validator

    if len(json.dumps(annotation, ensure_ascii=False).encode()) > MAX_ANNOTATION_BYTES:
        raise InvalidField(location, f"an annotation holds at most {MAX_ANNOTATION_BYTES // 1024} KB of JSON")
    problems = [
        problem
        for problem in Draft202012Validator(json_schema).iter_errors(annotation)
        if problem.instance is not None
    ]
    if problems:
        first = min(problems, key=lambda problem: len(problem.absolute_path))
        inside = tuple(first.absolute_path)
        where = "/".join(str(part) for part in inside) or "(root)"
        at = (*location, *inside) if location[-1] == "annotation" else location
        raise InvalidField(at, f"{what} at {where}: {first.message}")


def check_document(document: DocumentInput) -> None:
    """What can be told of a document without reading it: a data: URL that decodes within the inline
    limit (422 or 413 naming `document.url`), or an http(s):// URL. A file reference is looked up
    when the document is run."""
    if not isinstance(document, MIMEData):
        return
    url = document.url.strip()
    if url[:5].lower() == "data:":
        decode_data_url(url)
    elif not url.lower().startswith(("https://", "http://")):
        raise InvalidField(("body", "document", "url"), "url must be a data: URL or an http(s):// URL")


def _share(document_id: str, seed: int) -> float:
    digest = hashlib.sha256(f"{seed}:{document_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _event_data(iteration: IterationRecord) -> dict[str, Any]:
    return {
        "id": iteration.id,
        "object": "eval.iteration",
        "eval_id": iteration.eval_id,
        "status": iteration.status,
        "split": iteration.split,
        "metrics": iteration.metrics.overall if iteration.metrics else None,
    }

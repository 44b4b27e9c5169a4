"""/v1/evals/extract: extraction evals, their documents and iterations, and the three operations a job
can run too (spec 4.2): `extract` (one document with one iteration's settings, scored), `process` (an
iteration over the dataset, results and metrics stored on it) and `split` (the dataset divided into a
train and a test part). Each operation's body names its eval as `project_id`, which the job filters
`source=project` and `project_id` read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, field_validator

from docsvc.domain.documents import DocumentInput
from docsvc.domain.evals import (
    DocumentResult,
    EvalDocumentRecord,
    EvalRecord,
    EvalService,
    EvalSettings,
    ExtractOutcome,
    IterationRecord,
    Scores,
    Split,
    SplitOutcome,
)
from docsvc.domain.models import Task
from docsvc.domain.parses import ParseLimits
from docsvc.endpoints.operation import Operation, ServiceName
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
EvalId = Annotated[str, StringConstraints(pattern=r"^eval_[0-9A-Za-z]+$", max_length=64)]
DocumentId = Annotated[str, StringConstraints(pattern=r"^evdoc_[0-9A-Za-z]+$", max_length=64)]
IterationId = Annotated[str, StringConstraints(pattern=r"^evit_[0-9A-Za-z]+$", max_length=64)]


def _checked(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    from docsvc.intelligence.schemas import checked_schema  # loads the schema tools when used

    return None if schema is None else checked_schema(schema)


# ---------------------------------------------------------------------------- bodies
class EvalCreate(BaseModel):
    name: Name
    json_schema: dict[str, Any] = Field(description="A JSON Schema (object with properties) of the data.")
    inference_settings: EvalSettings = Field(
        default_factory=EvalSettings, description="The defaults of the eval's iterations."
    )

    _schema = field_validator("json_schema")(classmethod(lambda cls, schema: _checked(schema)))


class EvalUpdate(BaseModel):
    name: Name | None = None
    json_schema: dict[str, Any] | None = Field(
        None, description="A new schema; every annotation of the dataset must match it."
    )
    inference_settings: EvalSettings | None = None

    _schema = field_validator("json_schema")(classmethod(lambda cls, schema: _checked(schema)))


class EvalDocumentCreate(BaseModel):
    document: DocumentInput = Field(description="MIMEData {filename, url} or a FileRef {id}.")
    annotation: dict[str, Any] = Field(
        description="The ground truth: the data the document holds, valid against the eval's schema "
        "(null where the document holds no value)."
    )


class EvalDocumentUpdate(BaseModel):
    annotation: dict[str, Any] | None = None
    split: Split | None = Field(None, description="Put the document in the train or the test part.")


class IterationSettings(BaseModel):
    """What an iteration changes of its eval's settings; the eval's defaults fill the rest."""

    model: str | None = None
    instructions: str | None = Field(None, max_length=10_000)
    n_consensus: int | None = Field(None, ge=1, le=8)
    image_resolution_dpi: int | None = Field(None, ge=96, le=300)


class IterationCreate(BaseModel):
    json_schema: dict[str, Any] | None = Field(
        None,
        description="A schema to extract with instead of the eval's (scored against the same annotations).",
    )
    inference_settings: IterationSettings = Field(default_factory=IterationSettings)

    _schema = field_validator("json_schema")(classmethod(lambda cls, schema: _checked(schema)))


class _ProjectRequest(BaseModel):
    project_id: EvalId = Field(description="The eval (a project of the job filters).")

    @property
    def model(self) -> None:
        """The model is the iteration's: the job runner resolves the default, the run the iteration's."""
        return None


class EvalExtractRequest(_ProjectRequest):
    iteration_id: IterationId
    document_id: DocumentId


class EvalProcessRequest(_ProjectRequest):
    iteration_id: IterationId
    split: Split | None = Field(None, description="Run over this part of the dataset only (see split).")


class EvalSplitRequest(_ProjectRequest):
    test_fraction: float = Field(0.2, gt=0, lt=1, description="The share of documents put in the test part.")
    seed: int = Field(0, ge=0, le=2**31 - 1, description="The same seed splits the same way.")


# ---------------------------------------------------------------------------- resources
class Eval(BaseModel):
    object: Literal["eval.extract"] = "eval.extract"
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    name: str
    json_schema: dict[str, Any]
    inference_settings: EvalSettings
    document_count: int
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, record: EvalRecord) -> Eval:
        return cls.model_validate(record.model_dump(exclude={"status"}))


class EvalDocument(BaseModel):
    object: Literal["eval.extract.document"] = "eval.extract.document"
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    eval_id: str
    filename: str
    annotation: dict[str, Any]
    split: Split | None
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, record: EvalDocumentRecord) -> EvalDocument:
        return cls.model_validate(record.model_dump(exclude={"document"}))


class Iteration(BaseModel):
    object: Literal["eval.extract.iteration"] = "eval.extract.iteration"
    id: str
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    eval_id: str
    json_schema: dict[str, Any] | None = Field(description="The schema override; the eval's when null.")
    inference_settings: EvalSettings
    status: Literal["created", "completed"]
    split: Split | None = Field(description="The part of the dataset the last process ran over; all if null.")
    metrics: Scores | None = Field(
        description="After a process: `overall` and per field (`fields`, `*` for array items): counts, "
        "exact_accuracy, accuracy, precision, recall, f1, brier_score, expected_calibration_error."
    )
    documents: list[DocumentResult] | None = Field(
        None, description="Each document's extraction and scores; in GET and process answers, not in lists."
    )
    processed_at: str | None
    created_at: str

    @classmethod
    def of(cls, record: IterationRecord) -> Iteration:
        return cls.model_validate(record.model_dump())


class EvalExtraction(DocumentResult):
    object: Literal["eval.extract.extraction"] = "eval.extract.extraction"
    eval_id: str
    iteration_id: str

    @classmethod
    def of(cls, outcome: ExtractOutcome) -> EvalExtraction:
        return cls.model_validate(
            outcome.result.model_dump() | {"eval_id": outcome.eval_id, "iteration_id": outcome.iteration_id}
        )


class EvalSplit(SplitOutcome):
    object: Literal["eval.extract.split"] = "eval.extract.split"


# ---------------------------------------------------------------------------- operations
class _EvalOperation(Operation):
    task: Task = "extract"
    service: ServiceName = "evals"


class EvalExtractOperation(_EvalOperation):
    path = "/v1/evals/extract/extract"
    body = EvalExtractRequest

    def answer(
        self,
        service: EvalService,
        tenant: Tenant,
        body: EvalExtractRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> EvalExtraction:
        outcome = service.extract(
            tenant, body.project_id, body.iteration_id, body.document_id, limits=limits, stop=stop
        )
        return EvalExtraction.of(outcome)


class EvalProcessOperation(_EvalOperation):
    path = "/v1/evals/extract/process"
    body = EvalProcessRequest

    def answer(
        self,
        service: EvalService,
        tenant: Tenant,
        body: EvalProcessRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Iteration:
        record = service.process(
            tenant, body.project_id, body.iteration_id, split=body.split, limits=limits, stop=stop
        )
        return Iteration.of(record)


class EvalSplitOperation(_EvalOperation):
    path = "/v1/evals/extract/split"
    body = EvalSplitRequest

    def answer(
        self,
        service: EvalService,
        tenant: Tenant,
        body: EvalSplitRequest,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> EvalSplit:
        outcome = service.split(tenant, body.project_id, test_fraction=body.test_fraction, seed=body.seed)
        return EvalSplit.model_validate(outcome.model_dump())


EVAL_EXTRACT = EvalExtractOperation()
EVAL_PROCESS = EvalProcessOperation()
EVAL_SPLIT = EvalSplitOperation()

"""The eval service on an in-memory repository that keeps the rules the DynamoDB adapter keeps (writes
only while the eval is active, the document count and its cap in the same write), and a stand-in
for the intelligence service: every refusal, in milliseconds. tests/integration run the same service
on moto through HTTP."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from docsvc.domain import evals
from docsvc.domain.documents import MIMEData
from docsvc.domain.evals import (
    EvalDocumentRecord,
    EvalRecord,
    EvalService,
    EvalSettings,
    IterationRecord,
)
from docsvc.domain.events import Event
from docsvc.domain.intelligence import DocumentTask, ResultRecord, ResultUsage
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.models import ModelCatalog, ModelFailed, ModelInfo
from docsvc.domain.parses import IN_BACKGROUND, FileSummary, ParseLimits
from docsvc.errors import DocumentRejected, DomainError, InvalidField, NotFound, Stopped
from docsvc.tenancy import Tenant

TENANT = Tenant("org_evals", "test")
OTHER = Tenant("org_evals", "production")
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"number": {"type": "string"}, "total": {"type": "number"}},
}


class Repository:
    """The eval repository, in memory."""

    def __init__(self) -> None:
        self.evals: dict[tuple[Tenant, str], EvalRecord] = {}
        self.documents: dict[tuple[Tenant, str, str], EvalDocumentRecord] = {}
        self.iterations: dict[tuple[Tenant, str, str], IterationRecord] = {}
        self.events: list[Event] = []

    def _active(self, tenant: Tenant, eval_id: str) -> bool:
        record = self.evals.get((tenant, eval_id))
        return record is not None and record.status == "active"

    def put_eval(self, tenant: Tenant, record: EvalRecord) -> None:
        self.evals[(tenant, record.id)] = record

    def get_eval(self, tenant: Tenant, eval_id: str) -> EvalRecord | None:
        return self.evals.get((tenant, eval_id))

    def list_evals(self, tenant: Tenant, query: ListQuery) -> Page[EvalRecord]:
        found = [record for (owner, _), record in self.evals.items() if owner == tenant]
        return Page([record for record in found if record.status == "active"], False, False)

    def update_eval(self, tenant: Tenant, record: EvalRecord) -> bool:
        if not self._active(tenant, record.id):
            return False
        count = self.evals[(tenant, record.id)].document_count
        self.evals[(tenant, record.id)] = record.model_copy(update={"document_count": count})
        return True

    def mark_deleting(self, tenant: Tenant, eval_id: str) -> bool:
        if not self._active(tenant, eval_id):
            return False
        self.evals[(tenant, eval_id)] = self.evals[(tenant, eval_id)].model_copy(
            update={"status": "deleting"}
        )
        return True

    def purge(self, tenant: Tenant, eval_id: str) -> None:
        for store in (self.documents, self.iterations):
            for key in [key for key in store if key[:2] == (tenant, eval_id)]:
                del store[key]  # type: ignore[attr-defined]
        del self.evals[(tenant, eval_id)]

    def add_document(self, tenant: Tenant, record: EvalDocumentRecord, max_documents: int) -> bool:
        evaluation = self.evals.get((tenant, record.eval_id))
        if evaluation is None or evaluation.status != "active" or evaluation.document_count >= max_documents:
            return False
        self.documents[(tenant, record.eval_id, record.id)] = record
        self.evals[(tenant, record.eval_id)] = evaluation.model_copy(
            update={"document_count": evaluation.document_count + 1}
        )
        return True

    def get_document(
        self, tenant: Tenant, eval_id: str, document_id: str, *, with_document: bool = False
    ) -> EvalDocumentRecord | None:
        return self.documents.get((tenant, eval_id, document_id))

    def list_documents(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[EvalDocumentRecord]:
        return Page(list(self.all_documents(tenant, eval_id)), False, False)

    def all_documents(self, tenant: Tenant, eval_id: str) -> Iterator[EvalDocumentRecord]:
        for key in sorted(self.documents):
            if key[:2] == (tenant, eval_id):
                yield self.documents[key]

    def update_document(self, tenant: Tenant, record: EvalDocumentRecord) -> bool:
        key = (tenant, record.eval_id, record.id)
        if key not in self.documents or not self._active(tenant, record.eval_id):
            return False
        self.documents[key] = record
        return True

    def set_split(self, tenant: Tenant, eval_id: str, document_id: str, split: str, updated_at: str) -> bool:
        key = (tenant, eval_id, document_id)
        if key not in self.documents or not self._active(tenant, eval_id):
            return False
        self.documents[key] = self.documents[key].model_copy(
            update={"split": split, "updated_at": updated_at}
        )
        return True

    def delete_document(self, tenant: Tenant, eval_id: str, document_id: str) -> bool:
        if self.documents.pop((tenant, eval_id, document_id), None) is None:
            return False
        evaluation = self.evals[(tenant, eval_id)]
        self.evals[(tenant, eval_id)] = evaluation.model_copy(
            update={"document_count": evaluation.document_count - 1}
        )
        return True

    def put_iteration(self, tenant: Tenant, record: IterationRecord) -> bool:
        if not self._active(tenant, record.eval_id):
            return False
        self.iterations[(tenant, record.eval_id, record.id)] = record
        return True

    def get_iteration(
        self, tenant: Tenant, eval_id: str, iteration_id: str, *, with_documents: bool = False
    ) -> IterationRecord | None:
        return self.iterations.get((tenant, eval_id, iteration_id))

    def list_iterations(self, tenant: Tenant, eval_id: str, query: ListQuery) -> Page[IterationRecord]:
        found = [record for key, record in self.iterations.items() if key[:2] == (tenant, eval_id)]
        return Page(found, False, False)

    def complete_iteration(self, tenant: Tenant, record: IterationRecord, event: Event) -> bool:
        key = (tenant, record.eval_id, record.id)
        if key not in self.iterations or not self._active(tenant, record.eval_id):
            return False
        self.iterations[key] = record
        self.events.append(event)
        return True

    def delete_iteration(self, tenant: Tenant, eval_id: str, iteration_id: str) -> bool:
        return self.iterations.pop((tenant, eval_id, iteration_id), None) is not None


class Intelligence:
    """Extracts what `outputs` says for each filename; a filename in `rejected` is unreadable."""

    def __init__(self) -> None:
        self.outputs: dict[str, dict[str, Any]] = {}
        self.rejected: set[str] = set()
        self.failing: set[str] = set()
        self.asked: list[DocumentTask] = []
        self._models = ModelCatalog((ModelInfo(id="builtin-x", provider="builtin", tasks=["extract"]),))

    def model_for(self, kind: str, model: str | None) -> ModelInfo:
        return self._models.resolve(model, "extract")

    def answer(
        self,
        tenant: Tenant,
        kind: str,
        task: DocumentTask,
        answerer: Any,
        *,
        limits: ParseLimits | None = None,
        stop: Callable[[], bool] | None = None,
        charged_as: str | None = None,
    ) -> ResultRecord:
        assert charged_as == "eval"
        self.asked.append(task)
        filename = task.document.filename  # type: ignore[union-attr]
        if filename in self.rejected:
            raise DocumentRejected("encrypted", f"'{filename}' is encrypted")
        if filename in self.failing:
            raise ModelFailed("the model timed out")
        return ResultRecord(
            id=f"extr_{len(self.asked)}",
            object="extraction",
            environment=tenant.environment,
            file=FileSummary(id=None, filename=filename, mime_type="application/pdf"),
            model="builtin-x",
            output=self.outputs.get(filename, {}),
            likelihoods={"number": 0.9, "total": 0.8},
            usage=ResultUsage(page_count=1, credits=1.0, cached=False),
            created_at="2026-01-01T00:00:00Z",
        )


@pytest.fixture
def repository() -> Repository:
    return Repository()


@pytest.fixture
def intelligence() -> Intelligence:
    return Intelligence()


@pytest.fixture
def service(repository: Repository, intelligence: Intelligence) -> EvalService:
    return EvalService(repository, intelligence)  # type: ignore[arg-type]


def document(name: str) -> MIMEData:
    return MIMEData(filename=name, url="data:application/pdf;base64,JVBERi0=")


def an_eval(service: EvalService, tenant: Tenant = TENANT) -> EvalRecord:
    return service.create_eval(tenant, "invoices", SCHEMA, EvalSettings())


def with_documents(
    service: EvalService, count: int, tenant: Tenant = TENANT
) -> tuple[EvalRecord, IterationRecord]:
    evaluation = an_eval(service, tenant)
    for index in range(count):
        service.add_document(
            tenant, evaluation.id, document(f"d{index}.pdf"), {"number": f"N{index}", "total": 10}
        )
    return evaluation, service.create_iteration(tenant, evaluation.id, json_schema=None, settings={})


# ---------------------------------------------------------------------------- datasets


def test_an_annotation_is_checked_against_the_schema_and_null_is_allowed(service: EvalService) -> None:
    evaluation = an_eval(service)

    service.add_document(TENANT, evaluation.id, document("a.pdf"), {"number": None, "total": None})
    with pytest.raises(InvalidField) as refused:
        service.add_document(TENANT, evaluation.id, document("b.pdf"), {"total": "ten"})

    assert refused.value.location == ("body", "annotation", "total")
    assert service.get_eval(TENANT, evaluation.id).document_count == 1


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("data:application/pdf;base64,%%%", 422),
        ("ftp://example.com/a.pdf", 422),
        ("data:,x" + "x" * 6_100_000, 413),
    ],
)
def test_a_document_that_cannot_be_had_is_refused_when_added(
    service: EvalService, url: str, status: int
) -> None:
    evaluation = an_eval(service)

    with pytest.raises(DomainError) as refused:
        service.add_document(TENANT, evaluation.id, MIMEData(filename="a.pdf", url=url), {})

    assert refused.value.status_code == status
    if isinstance(refused.value, InvalidField):
        assert refused.value.location == ("body", "document", "url")
    assert service.get_eval(TENANT, evaluation.id).document_count == 0


def test_a_full_dataset_refuses_one_more_document(
    service: EvalService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(evals, "MAX_DOCUMENTS", 2)
    evaluation, _ = with_documents(service, 2)

    with pytest.raises(InvalidField, match="holds 2 documents"):
        service.add_document(TENANT, evaluation.id, document("c.pdf"), {})


def test_an_unknown_model_is_refused_at_its_field(service: EvalService) -> None:
    with pytest.raises(InvalidField) as refused:
        service.create_eval(TENANT, "x", SCHEMA, EvalSettings(model="gpt-9"))
    assert refused.value.location == ("body", "inference_settings", "model")

    evaluation = an_eval(service)
    with pytest.raises(InvalidField):
        service.create_iteration(TENANT, evaluation.id, json_schema=None, settings={"model": "gpt-9"})


def test_a_schema_change_must_hold_every_annotation(service: EvalService) -> None:
    evaluation, _ = with_documents(service, 1)
    breaking = {"type": "object", "properties": {"total": {"type": "string"}}}

    with pytest.raises(InvalidField) as refused:
        service.update_eval(TENANT, evaluation.id, json_schema=breaking)

    assert refused.value.location == ("body", "json_schema")
    assert service.get_eval(TENANT, evaluation.id).json_schema == SCHEMA


def test_another_environment_finds_nothing(service: EvalService) -> None:
    evaluation, iteration = with_documents(service, 1)
    document_id = next(iter(service.list_documents(TENANT, evaluation.id, ListQuery()).items)).id

    for call in (
        lambda: service.get_eval(OTHER, evaluation.id),
        lambda: service.get_document(OTHER, evaluation.id, document_id),
        lambda: service.get_iteration(OTHER, evaluation.id, iteration.id),
        lambda: service.process(OTHER, evaluation.id, iteration.id),
        lambda: service.delete_eval(OTHER, evaluation.id),
        lambda: service.add_document(OTHER, evaluation.id, document("x.pdf"), {}),
    ):
        with pytest.raises(NotFound):
            call()


def test_a_deleting_eval_is_gone_at_once_and_takes_everything_with_it(
    service: EvalService, repository: Repository
) -> None:
    evaluation, _ = with_documents(service, 2)
    repository.mark_deleting(TENANT, evaluation.id)  # a delete that stopped half way

    with pytest.raises(NotFound):
        service.get_eval(TENANT, evaluation.id)
    with pytest.raises(NotFound):
        service.create_iteration(TENANT, evaluation.id, json_schema=None, settings={})
    assert not repository.add_document(
        TENANT,
        EvalDocumentRecord(
            id="evdoc_late",
            environment=TENANT.environment,
            eval_id=evaluation.id,
            filename="late.pdf",
            document=document("late.pdf"),
            annotation={},
            created_at="t",
            updated_at="t",
        ),
        100,
    )

    service.delete_eval(TENANT, evaluation.id)  # the next delete finishes it

    assert not repository.evals and not repository.documents and not repository.iterations
    with pytest.raises(NotFound):
        service.delete_eval(TENANT, evaluation.id)


# ---------------------------------------------------------------------------- running


def test_process_scores_every_document_and_emits_its_event(
    service: EvalService, repository: Repository, intelligence: Intelligence
) -> None:
    evaluation, iteration = with_documents(service, 2)
    intelligence.outputs = {"d0.pdf": {"number": "N0", "total": 10}, "d1.pdf": {"number": "N9", "total": 10}}

    completed = service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND)

    assert completed.status == "completed" and completed.metrics is not None
    number = completed.metrics.fields["number"]
    assert (number["true_positives"], number["false_positives"], number["accuracy"]) == (1, 1, 0.5)
    assert completed.metrics.overall["accuracy"] == 0.75
    assert [event.type for event in repository.events] == ["eval.iteration.completed"]
    assert repository.events[0].data["metrics"]["accuracy"] == 0.75


def test_an_unreadable_document_is_kept_with_its_error_in_a_process_but_refused_in_an_extract(
    service: EvalService, intelligence: Intelligence
) -> None:
    evaluation, iteration = with_documents(service, 3)
    intelligence.rejected = {"d1.pdf"}
    intelligence.failing = {"d2.pdf"}

    completed = service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND)

    assert completed.documents is not None and completed.metrics is not None
    assert completed.documents[1].error == {"code": "encrypted", "message": "'d1.pdf' is encrypted"}
    assert completed.documents[2].error is not None and completed.documents[2].error["code"] == "model_error"
    assert completed.metrics.overall["failed_documents"] == 2
    assert completed.metrics.overall["documents"] == 1
    failing = completed.documents[1].document_id
    with pytest.raises(DocumentRejected):
        service.extract(TENANT, evaluation.id, iteration.id, failing)


def test_an_empty_dataset_or_split_is_refused(service: EvalService) -> None:
    evaluation, iteration = with_documents(service, 0)
    with pytest.raises(InvalidField) as refused:
        service.process(TENANT, evaluation.id, iteration.id)
    assert refused.value.location == ("body", "project_id")

    evaluation, iteration = with_documents(service, 1)
    with pytest.raises(InvalidField) as refused:
        service.process(TENANT, evaluation.id, iteration.id, split="test")
    assert refused.value.location == ("body", "split")


def test_a_synchronous_process_over_too_many_documents_is_413_before_anything_runs(
    service: EvalService, intelligence: Intelligence
) -> None:
    evaluation, iteration = with_documents(service, evals.SYNC_MAX_DOCUMENTS + 1)

    with pytest.raises(DocumentRejected) as refused:
        service.process(TENANT, evaluation.id, iteration.id)

    assert (refused.value.code, refused.value.status_code) == ("too_large_for_sync", 413)
    assert "POST /v1/jobs" in refused.value.message
    assert intelligence.asked == []
    service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND)  # as a job it runs


def test_a_synchronous_process_that_runs_out_of_time_is_413(
    service: EvalService, monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluation, iteration = with_documents(service, 3)
    clock = iter([0.0, 1.0, evals.SYNC_SECONDS + 1])
    monkeypatch.setattr(evals.time, "monotonic", lambda: next(clock))

    with pytest.raises(DocumentRejected, match="run it as a job"):
        service.process(TENANT, evaluation.id, iteration.id)

    assert service.get_iteration(TENANT, evaluation.id, iteration.id).status == "created"


def test_a_cancelled_job_stops_between_documents(service: EvalService, intelligence: Intelligence) -> None:
    evaluation, iteration = with_documents(service, 3)
    asked = iter([False, True])

    with pytest.raises(Stopped):
        service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND, stop=lambda: next(asked))

    assert len(intelligence.asked) == 1


def test_an_eval_deleted_while_it_runs_stores_nothing(service: EvalService, repository: Repository) -> None:
    evaluation, iteration = with_documents(service, 1)
    real = repository.complete_iteration

    def deleted_meanwhile(tenant: Tenant, record: IterationRecord, event: Event) -> bool:
        repository.mark_deleting(tenant, evaluation.id)
        return real(tenant, record, event)

    repository.complete_iteration = deleted_meanwhile  # type: ignore[method-assign]

    with pytest.raises(NotFound):
        service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND)
    assert repository.events == []


def test_an_iteration_copies_the_evals_defaults_and_its_own_schema_is_used(
    service: EvalService, intelligence: Intelligence
) -> None:
    evaluation = service.create_eval(
        TENANT, "x", SCHEMA, EvalSettings(instructions="be brief", image_resolution_dpi=150)
    )
    service.add_document(TENANT, evaluation.id, document("a.pdf"), {"number": "N"})
    only_number = {"type": "object", "properties": {"number": {"type": "string"}}}
    iteration = service.create_iteration(
        TENANT, evaluation.id, json_schema=only_number, settings={"n_consensus": 2}
    )

    assert iteration.inference_settings == EvalSettings(
        instructions="be brief", image_resolution_dpi=150, n_consensus=2
    )
    service.update_eval(TENANT, evaluation.id, settings=EvalSettings())  # later changes leave it as it is
    completed = service.process(TENANT, evaluation.id, iteration.id, limits=IN_BACKGROUND)
    assert completed.metrics is not None and set(completed.metrics.fields) == {"number"}
    assert intelligence.asked[0].image_resolution_dpi == 150


def test_a_split_is_stable_for_a_seed_and_moves_no_document_when_one_is_added(service: EvalService) -> None:
    evaluation, _ = with_documents(service, 20)

    first = service.split(TENANT, evaluation.id, test_fraction=0.3, seed=1)
    service.add_document(TENANT, evaluation.id, document("late.pdf"), {})
    second = service.split(TENANT, evaluation.id, test_fraction=0.3, seed=1)

    assert set(first.test) <= set(second.test) and set(first.train) <= set(second.train)
    assert 0 < len(first.test) < 20
    stored = {
        record.id: record.split for record in service.list_documents(TENANT, evaluation.id, ListQuery()).items
    }
    assert {key for key, value in stored.items() if value == "test"} == set(second.test)
    assert service.split(TENANT, evaluation.id, test_fraction=0.3, seed=2).test != second.test


def test_unknown_iterations_and_documents_are_404(service: EvalService) -> None:
    evaluation, iteration = with_documents(service, 1)

    for call in (
        lambda: service.extract(TENANT, evaluation.id, "evit_x", "evdoc_x"),
        lambda: service.extract(TENANT, evaluation.id, iteration.id, "evdoc_x"),
        lambda: service.delete_iteration(TENANT, evaluation.id, "evit_x"),
        lambda: service.delete_document(TENANT, evaluation.id, "evdoc_x"),
        lambda: service.update_document(TENANT, evaluation.id, "evdoc_x", annotation={}),
    ):
        with pytest.raises(NotFound):
            call()

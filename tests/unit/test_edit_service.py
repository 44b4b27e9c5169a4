"""The EditService's rules with in-memory stores and a stand-in form engine: what is stored, what is
refused, and that nothing is left half-made."""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from docsvc.domain.documents import DocumentSource, FetchedBytes, FileRef, MIMEData, SourceDocument
from docsvc.domain.edits import (
    EditConfig,
    EditQuery,
    EditRecord,
    EditRequest,
    EditService,
    EditTemplate,
    FieldBox,
    FormField,
    TemplateFill,
    TemplateQuery,
)
from docsvc.domain.files import FileQuery, FileRecord, FileService, Inspection, UploadSession
from docsvc.domain.lists import Page
from docsvc.domain.models import ModelCatalog, ModelInfo, StructuredReply
from docsvc.domain.usage import Charge
from docsvc.errors import Conflict, DocumentRejected, InvalidField, NotFound
from docsvc.tenancy import Tenant

TEST = Tenant("org_A", "test")
PRODUCTION = Tenant("org_A", "production")
FORM = b"%PDF-1.7\n% a form\n%%EOF"
BOX = FieldBox(left=0.3, top=0.1, width=0.4, height=0.03, page=1)


class Files:
    """FileRepository and BlobStore in memory."""

    def __init__(self) -> None:
        self.records: dict[tuple[Tenant, str], FileRecord] = {}
        self.blobs: dict[str, bytes] = {}

    def put_file(self, tenant: Tenant, record: FileRecord) -> None:
        self.records[tenant, record.id] = record

    def get_file(self, tenant: Tenant, file_id: str) -> FileRecord | None:
        return self.records.get((tenant, file_id))

    def delete_file(self, tenant: Tenant, file_id: str) -> FileRecord | None:
        return self.records.pop((tenant, file_id), None)

    def list_files(self, tenant: Tenant, query: FileQuery) -> Page[FileRecord]:
        raise NotImplementedError

    def put_upload(self, tenant: Tenant, session: UploadSession) -> None:
        raise NotImplementedError

    def get_upload(self, tenant: Tenant, file_id: str) -> UploadSession | None:
        raise NotImplementedError

    def complete_upload(self, tenant: Tenant, record: FileRecord) -> None:
        raise NotImplementedError

    def reopen_upload(self, tenant: Tenant, session: UploadSession) -> None:
        raise NotImplementedError

    def record_inspection(self, tenant: Tenant, file_id: str, inspection: Inspection) -> bool:
        raise NotImplementedError

    def put(self, key: str, content: bytes, content_type: str) -> None:
        self.blobs[key] = content

    def size(self, key: str) -> int | None:
        return len(self.blobs[key]) if key in self.blobs else None

    def stream(self, key: str) -> Iterator[bytes]:
        yield self.blobs[key]

    def copy(self, source: str, target: str) -> None:
        self.blobs[target] = self.blobs[source]

    def delete(self, key: str) -> None:
        self.blobs.pop(key, None)

    def upload_url(self, key: str, content_type: str, expires_in: int) -> str:
        raise NotImplementedError

    def download_url(self, key: str, filename: str, expires_in: int) -> str:
        return f"https://files.example/{key}"


class Edits:
    """EditRepository in memory; `refuse` makes the next write of an edit fail."""

    def __init__(self) -> None:
        self.edits: dict[tuple[Tenant, str], EditRecord] = {}
        self.templates: dict[tuple[Tenant, str], EditTemplate] = {}
        self.charges: list[Charge] = []
        self.refuse = False

    def put_edit(self, tenant: Tenant, record: EditRecord, charge: Charge) -> None:
        if self.refuse:
            raise RuntimeError("the table is unavailable")
        self.edits[tenant, record.id] = record
        self.charges.append(charge)

    def get_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None:
        return self.edits.get((tenant, edit_id))

    def list_edits(self, tenant: Tenant, query: EditQuery) -> Page[EditRecord]:
        items = [record for (owner, _), record in self.edits.items() if owner == tenant]
        return Page(items=items, has_previous=False, has_next=False)

    def delete_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None:
        return self.edits.pop((tenant, edit_id), None)

    def put_template(self, tenant: Tenant, template: EditTemplate) -> None:
        if self.refuse:
            raise RuntimeError("the table is unavailable")
        self.templates[tenant, template.id] = template

    def replace_template(self, tenant: Tenant, template: EditTemplate, updated_at: str) -> bool:
        current = self.templates.get((tenant, template.id))
        if current is None or current.updated_at != updated_at:
            return False
        self.templates[tenant, template.id] = template
        return True

    def get_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None:
        return self.templates.get((tenant, template_id))

    def list_templates(self, tenant: Tenant, query: TemplateQuery) -> Page[EditTemplate]:
        raise NotImplementedError

    def delete_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None:
        return self.templates.pop((tenant, template_id), None)


class Engine:
    """Two fields on one page; a fill writes `key=value` lines after the form's bytes."""

    fields_found = [
        FormField(key="full_name", description="Full name", type="text", bbox=BOX),
        FormField(
            key="citizen",
            description="I am a citizen",
            type="checkbox",
            bbox=BOX.model_copy(update={"top": 0.2}),
        ),
    ]

    def __init__(self) -> None:
        self.reads = 0

    def fields(self, tenant: Tenant, document: SourceDocument) -> tuple[list[FormField], int]:
        self.reads += 1
        return [field.model_copy() for field in self.fields_found], 1

    def fill(
        self, tenant: Tenant, document: SourceDocument, fields: Sequence[FormField], color: str
    ) -> bytes:
        return document.content + "".join(f"\n{field.key}={field.value}" for field in fields).encode()


def by_label(fields: Sequence[tuple[str, str, str]], instructions: str) -> dict[str, str]:
    """A stand-in for the built-in model: `Label: value` lines, matched to descriptions exactly."""
    given = dict(line.split(": ", 1) for line in instructions.splitlines() if ": " in line)
    return {key: given[description] for key, description, _ in fields if description in given}


class Remote:
    def __init__(self, value: dict[str, Any]) -> None:
        self.value = value
        self.asked: list[dict[str, Any]] = []

    def structured(
        self,
        tenant: Tenant,
        model: ModelInfo,
        instructions: str,
        document: str,
        schema: dict[str, Any],
        **_: Any,
    ) -> StructuredReply:
        self.asked.append({"instructions": instructions, "document": document, "schema": schema})
        return StructuredReply(self.value, input_tokens=120, output_tokens=8)


@pytest.fixture
def files() -> Files:
    return Files()


@pytest.fixture
def edits() -> Edits:
    return Edits()


def make_service(
    files: Files, edits: Edits, remote: Remote | None = None, engine: Engine | None = None
) -> EditService:
    def no_fetch(url: str, limit: int) -> FetchedBytes:
        raise AssertionError("nothing is fetched here")

    models = ModelCatalog(
        (
            ModelInfo(id="docsvc-extract-1", provider="builtin", tasks=["edit"]),
            ModelInfo(id="remote-1", provider="openai", tasks=["edit"]),
        )
    )
    return EditService(
        edits,
        FileService(files, files),
        DocumentSource(files, files, no_fetch),
        engine or Engine(),
        models,
        remote,  # type: ignore[arg-type]
        by_label,
    )


@pytest.fixture
def service(files: Files, edits: Edits) -> EditService:
    return make_service(files, edits)


def form() -> MIMEData:
    return MIMEData(
        filename="application.pdf", url="data:application/pdf;base64," + base64.b64encode(FORM).decode()
    )


def edit_request(**fields: Any) -> EditRequest:
    return EditRequest.model_validate({"document": form(), "instructions": "Full name: Jane Roe", **fields})


def test_an_edit_stores_its_values_its_filled_file_and_one_credit_a_page(
    service: EditService, files: Files, edits: Edits
) -> None:
    record = service.edit(TEST, edit_request())

    assert [(field.key, field.value) for field in record.output.form_data] == [
        ("full_name", "Jane Roe"),
        ("citizen", None),
    ]
    assert (
        record.filled_document_ref is not None
        and record.filled_document_ref.filename == "application-filled.pdf"
    )
    stored = files.blobs[f"files/{TEST.storage_prefix}/{record.filled_document_ref.id}"]
    assert stored == FORM + b"\nfull_name=Jane Roe"
    assert edits.charges == [Charge(pages=1, credits=1.0, operation="edit")]
    assert record.warnings == []


def test_an_edit_answered_inline_carries_the_filled_pdf_as_a_data_url(service: EditService) -> None:
    answered = service.answered(TEST, service.edit(TEST, edit_request()))

    assert answered.output.filled_document is not None
    url = answered.output.filled_document.url
    assert base64.b64decode(url.split(",", 1)[1]).endswith(b"full_name=Jane Roe")


def test_instructions_that_match_no_field_are_said_in_a_warning(service: EditService) -> None:
    record = service.edit(TEST, edit_request(instructions="Favourite colour: blue"))

    assert all(field.value is None for field in record.output.form_data)
    assert record.warnings == ["no field of the form matched the instructions"]


def test_a_filled_file_whose_edit_cannot_be_stored_is_deleted_again(
    service: EditService, files: Files, edits: Edits
) -> None:
    edits.refuse = True

    with pytest.raises(RuntimeError):
        service.edit(TEST, edit_request())

    assert files.records == {} and files.blobs == {}


def test_a_remote_model_is_given_the_fields_and_its_checkbox_answers_become_true_or_false(
    files: Files, edits: Edits
) -> None:
    remote = Remote({"full_name": "Jane Roe", "citizen": True, "unknown": "x"})
    record = make_service(files, edits, remote).edit(TEST, edit_request(model="remote-1"))

    assert {field.key: field.value for field in record.output.form_data} == {
        "full_name": "Jane Roe",
        "citizen": "true",
    }
    assert "full_name (text): Full name" in remote.asked[0]["document"]
    assert remote.asked[0]["schema"]["properties"]["citizen"] == {"type": ["boolean", "null"]}
    assert (record.usage.input_tokens, record.usage.output_tokens) == (120, 8)


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"template_id": "etpl_1"}, "template_id"),
        ({"document": None}, "document"),
        ({"config": {"color": "blue"}}, "color"),
    ],
)
def test_an_edit_request_without_exactly_one_form_or_with_a_bad_colour_is_refused(
    fields: dict[str, Any], where: str
) -> None:
    with pytest.raises(ValueError, match=where):
        EditRequest.model_validate({"document": form(), "instructions": "Name: x", **fields})


def test_a_template_is_filled_from_data_winning_over_instructions(service: EditService) -> None:
    template = service.create_template(TEST, "Membership", form(), None)

    record = service.fill_template(
        TEST,
        TemplateFill(
            template_id=template.id,
            instructions="Full name: Jane Roe",
            data={"full_name": "Ann Lee", "citizen": True},
        ),
    )

    assert {field.key: field.value for field in record.output.form_data} == {
        "full_name": "Ann Lee",
        "citizen": "true",
    }
    assert record.template_id == template.id and record.file == template.file


def test_data_for_a_field_the_template_lacks_is_refused_naming_it(service: EditService) -> None:
    template = service.create_template(TEST, "Membership", form(), None)

    with pytest.raises(InvalidField) as refused:
        service.fill_template(TEST, TemplateFill(template_id=template.id, data={"surname": "Roe"}))

    assert refused.value.location == ("body", "data", "surname")


def test_a_template_keeps_its_own_copy_of_the_form_and_deleting_it_deletes_that_copy(
    service: EditService, files: Files
) -> None:
    template = service.create_template(TEST, "Membership", form(), None)
    assert template.field_count == 2 and template.file.id is not None

    service.delete_template(TEST, template.id)

    assert files.records == {}
    with pytest.raises(NotFound):
        service.get_template(TEST, template.id)


def test_a_template_changed_meanwhile_is_a_conflict(service: EditService, edits: Edits) -> None:
    template = service.create_template(TEST, "Membership", form(), None)
    edits.templates[TEST, template.id] = template.model_copy(update={"updated_at": "2999-01-01T00:00:00Z"})
    edits.replace_template = lambda tenant, updated, seen: False  # type: ignore[method-assign]

    with pytest.raises(Conflict):
        service.update_template(TEST, template.id, "Renamed", None)


def test_another_environments_edit_and_template_are_not_found(service: EditService) -> None:
    record = service.edit(TEST, edit_request())
    template = service.create_template(TEST, "Membership", form(), None)

    for call in (
        lambda: service.get(PRODUCTION, record.id),
        lambda: service.delete(PRODUCTION, record.id),
        lambda: service.get_template(PRODUCTION, template.id),
        lambda: service.edit(PRODUCTION, EditRequest(template_id=template.id, instructions="Full name: x")),
    ):
        with pytest.raises(NotFound):
            call()


def test_a_template_whose_form_file_was_deleted_says_so(service: EditService, files: Files) -> None:
    template = service.create_template(TEST, "Membership", form(), None)
    assert template.file.id is not None
    FileService(files, files).delete(TEST, template.file.id)

    with pytest.raises(NotFound, match="was deleted"):
        service.edit(TEST, EditRequest(template_id=template.id, instructions="Full name: x"))


def test_deleting_an_edit_deletes_its_filled_file(service: EditService, files: Files) -> None:
    record = service.edit(TEST, edit_request())

    service.delete(TEST, record.id)

    assert files.records == {}
    assert service.answered(TEST, record).warnings == ["the filled document's file was deleted"]


def test_an_edit_of_an_unknown_stored_file_is_not_found(service: EditService) -> None:
    with pytest.raises(NotFound):
        service.edit(TEST, EditRequest(document=FileRef(id="file_X"), instructions="Full name: x"))


def test_the_colour_is_passed_to_the_engine(files: Files, edits: Edits) -> None:
    seen: list[str] = []

    class Recording(Engine):
        def fill(
            self, tenant: Tenant, document: SourceDocument, fields: Sequence[FormField], color: str
        ) -> bytes:
            seen.append(color)
            return document.content

    make_service(files, edits, engine=Recording()).edit(
        TEST, edit_request(config=EditConfig(color="#1f3a93"))
    )

    assert seen == ["#1f3a93"]


def test_a_template_is_filled_without_reading_its_forms_fields_again(files: Files, edits: Edits) -> None:
    engine = Engine()
    service = make_service(files, edits, engine=engine)
    template = service.create_template(TEST, "Membership", form(), None)

    record = service.edit(TEST, EditRequest(template_id=template.id, instructions="Full name: Jane Roe"))

    assert engine.reads == 1  # when the template was made
    assert record.usage.page_count == template.page_count == 1
    assert record.template_id == template.id


def test_each_update_of_a_template_moves_its_updated_at_forward_even_when_the_clock_does_not(
    service: EditService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime

    from docsvc.domain import edits as edits_module

    monkeypatch.setattr(edits_module, "utc_now", lambda: datetime(2026, 11, 26, 4, 0, tzinfo=UTC))
    template = service.create_template(TEST, "Membership", form(), None)

    first = service.update_template(TEST, template.id, "Renamed", None)
    second = service.update_template(TEST, template.id, "Renamed again", None)

    assert template.updated_at < first.updated_at < second.updated_at


def test_a_synchronous_edit_that_ran_out_of_time_before_filling_is_a_413_and_stores_nothing(
    files: Files, edits: Edits, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.domain import edits as edits_module

    clock = iter([0.0, 20.0])  # started; then, once the values are chosen, 20 s later
    monkeypatch.setattr(edits_module.time, "monotonic", lambda: next(clock))

    with pytest.raises(DocumentRejected, match="as a job") as refused:
        make_service(files, edits).edit(TEST, edit_request())

    assert refused.value.status_code == 413
    assert edits.edits == {} and files.records == {}


def test_a_job_has_no_synchronous_deadline(
    files: Files, edits: Edits, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsvc.domain import edits as edits_module

    clock = iter([0.0, 600.0])
    monkeypatch.setattr(edits_module.time, "monotonic", lambda: next(clock))

    record = make_service(files, edits).edit(TEST, edit_request(), seconds=None)

    assert record.output.form_data[0].value == "Jane Roe"

"""Edits: a PDF form filled from instructions (spec 4.2's `/v1/edits`, `/v1/edits/templates/fill` and
`/v1/edits/templates/generate`), and edit templates, blank forms kept with their fields.

An edit finds the form's fields (the FormEngine: AcroForm widgets where the PDF has them, else the
blanks, boxes and checkboxes of its layout), asks the model which value each field takes (the built-in
one matches the instructions' labels to the fields'; a remote one is given the fields and the
instructions), writes the values into a copy of the PDF, stores that copy as a file of the
environment, and stores the edit with its usage. A template's fields were found (or drawn) once; an
edit of a template fills those fields of the template's file. Nothing is half-made: a filled file whose
edit could not be stored is deleted again.
"""

from __future__ import annotations

import base64
import contextlib
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field, StringConstraints, model_validator

from docsvc.clock import iso, utc_now
from docsvc.domain.documents import DocumentInput, DocumentSource, FileRef, MIMEData, SourceDocument
from docsvc.domain.files import FileRecord, FileService
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.models import ModelCatalog, ModelFailed, ModelInfo, StructuredModels
from docsvc.domain.parses import SYNC_SECONDS, FileSummary
from docsvc.domain.usage import Charge
from docsvc.errors import Conflict, DocumentRejected, InvalidField, NotFound, Stopped
from docsvc.ids import new_id
from docsvc.tenancy import ENVIRONMENT_HELP, Environment, Tenant

FieldType = Literal["text", "checkbox"]
EDITABLE = ("pdf",)  # the document types whose forms an edit fills
CREDITS_PER_PAGE = 1.0
# A synchronous edit must have read its form and chosen its values this many seconds before its
# request's limit (SYNC_SECONDS): the rest is for writing the form and storing it.
FILL_SECONDS = 8.0
# A filled document up to this size is answered inline as a data: URL; a larger one as a link.
INLINE_FILLED_BYTES = 2 * 1024 * 1024
MAX_FIELDS = 2_000  # of a form, found or given
MAX_FORM_PAGES = 100
MAX_INSTRUCTIONS = 20_000
MAX_DESCRIPTION = 2_000  # a field's label and hints
MAX_VALUE = 10_000  # a field's value
COLOUR = r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"
_TRUE = frozenset({"true", "yes", "y", "x", "checked", "on", "1", "ja", "oui", "sí", "si"})


class FieldBox(BaseModel):
    """Where a field is: fractions of its page from the top-left corner, and the page (from 1)."""

    left: float = Field(ge=0, le=1)
    top: float = Field(ge=0, le=1)
    width: float = Field(ge=0, le=1)
    height: float = Field(ge=0, le=1)
    page: int = Field(ge=1)


class FormField(BaseModel):
    key: str = Field(min_length=1, max_length=200, description="Stable key of the field in the form data.")
    description: str = Field(
        "", max_length=MAX_DESCRIPTION, description="The field's label and hints, as printed."
    )
    type: FieldType = "text"
    bbox: FieldBox
    value: str | None = Field(None, max_length=MAX_VALUE, description="The value filled in; null if none.")


class EditConfig(BaseModel):
    color: str = Field("#000000", pattern=COLOUR, description="Colour of the text drawn, #rgb or #rrggbb.")


class EditUsage(BaseModel):
    page_count: int
    credits: float
    input_tokens: int = 0  # what a remote model's provider counted; 0 for the built-in one
    output_tokens: int = 0


class EditOutput(BaseModel):
    form_data: list[FormField]
    filled_document: MIMEData | None = Field(
        None,
        description="The filled PDF: a data: URL up to 2 MB, else a download link valid for an hour; "
        "null when its file was deleted.",
    )


class EditRecord(BaseModel):
    id: str
    object: Literal["edit"] = "edit"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    file: FileSummary  # the document (or the template's blank form) that was filled
    model: str
    instructions: str | None
    config: EditConfig
    template_id: str | None = None
    status: Literal["completed"] = "completed"
    output: EditOutput
    filled_document_ref: FileSummary | None = None
    usage: EditUsage
    warnings: list[str] = Field(default_factory=list)
    created_at: str


class EditTemplate(BaseModel):
    id: str
    object: Literal["edit_template"] = "edit_template"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    name: str
    file: FileSummary  # the blank form, a file of the environment
    page_count: int
    form_fields: list[FormField] | None = None  # left out of lists
    field_count: int
    created_at: str
    updated_at: str


class TemplateDraft(BaseModel):
    """The fields found on a blank form, to review and keep as a template (POST /v1/edits/templates)."""

    object: Literal["edit_template_draft"] = "edit_template_draft"
    environment: Environment = Field(description=ENVIRONMENT_HELP)
    name: str
    file: FileSummary
    page_count: int
    form_fields: list[FormField]


# ---------------------------------------------------------------------------- requests
class EditRequest(BaseModel):
    """What `POST /v1/edits` takes: a document or a template, and how to fill it."""

    document: DocumentInput | None = Field(None, description="The form to fill (a PDF).")
    template_id: str | None = Field(None, description="An edit template to fill instead of a document.")
    instructions: str = Field(
        min_length=1, max_length=MAX_INSTRUCTIONS, description="What to write, e.g. 'Name: Jane Roe'."
    )
    model: str | None = None
    config: EditConfig = Field(default_factory=EditConfig)

    @model_validator(mode="after")
    def _one_source(self) -> EditRequest:
        if (self.document is None) == (self.template_id is None):
            field = "document" if self.document is None else "template_id"
            raise ValueError(f"{field}: give exactly one of document and template_id")
        return self


class TemplateFill(BaseModel):
    """What `POST /v1/edits/templates/fill` takes: a template, and instructions or values by key."""

    template_id: str
    instructions: str | None = Field(None, min_length=1, max_length=MAX_INSTRUCTIONS)
    data: (
        dict[str, Annotated[str, StringConstraints(max_length=MAX_VALUE)] | int | float | bool | None] | None
    ) = Field(None, max_length=MAX_FIELDS, description="Values by field key; a checkbox takes true or false.")
    model: str | None = None
    config: EditConfig = Field(default_factory=EditConfig)

    @model_validator(mode="after")
    def _something_to_fill(self) -> TemplateFill:
        if self.instructions is None and self.data is None:
            raise ValueError("instructions: give instructions, data, or both")
        return self


class EditQuery(ListQuery):
    filename: str | None = None  # the filled document's name starts with it (case-insensitive)
    template_id: str | None = None


class TemplateQuery(ListQuery):
    name: str | None = None  # the name contains it (case-insensitive)


# ---------------------------------------------------------------------------- ports
class FormEngine(Protocol):
    """Reads and writes the fields of a tenant's PDF forms."""

    def fields(self, tenant: Tenant, document: SourceDocument) -> tuple[list[FormField], int]:
        """The fillable fields of a form in reading order, and its page count; DocumentRejected for a
        PDF that cannot be read (encrypted, no pages)."""
        ...

    def fill(
        self, tenant: Tenant, document: SourceDocument, fields: Sequence[FormField], color: str
    ) -> bytes:
        """A copy of the form with each field's value written: widgets set (still editable), text
        drawn in the boxes of the others."""
        ...


class EditRepository(Protocol):
    def put_edit(self, tenant: Tenant, record: EditRecord, charge: Charge) -> None: ...
    def get_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None: ...
    def list_edits(self, tenant: Tenant, query: EditQuery) -> Page[EditRecord]: ...
    def delete_edit(self, tenant: Tenant, edit_id: str) -> EditRecord | None: ...
    def put_template(self, tenant: Tenant, template: EditTemplate) -> None: ...
    def replace_template(self, tenant: Tenant, template: EditTemplate, updated_at: str) -> bool:
        """Replace a template if it is still as last read (its `updated_at`); False otherwise."""
        ...

    def get_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None: ...
    def list_templates(self, tenant: Tenant, query: TemplateQuery) -> Page[EditTemplate]: ...
    def delete_template(self, tenant: Tenant, template_id: str) -> EditTemplate | None: ...


BuiltinValues = Callable[[Sequence[tuple[str, str, str]], str], dict[str, str]]
"""The built-in model's choice: (key, description, type) of each field, the instructions -> values."""


def _builtin_values(fields: Sequence[tuple[str, str, str]], instructions: str) -> dict[str, str]:
    from docsvc.intelligence.form_filling import field_values

    return field_values(fields, instructions)


# ---------------------------------------------------------------------------- the service
class EditService:
    def __init__(
        self,
        repository: EditRepository,
        files: FileService,
        documents: DocumentSource,
        engine: FormEngine,
        models: ModelCatalog | None = None,
        remote: StructuredModels | None = None,
        builtin: BuiltinValues = _builtin_values,
    ) -> None:
        self._repository = repository
        self._files = files
        self._documents = documents
        self._engine = engine
        self._models = models or ModelCatalog()
        self._remote = remote
        self._builtin = builtin

    # ------------------------------------------------------------------ edits
    def edit(
        self,
        tenant: Tenant,
        request: EditRequest,
        stop: Callable[[], bool] | None = None,
        *,
        seconds: float | None = SYNC_SECONDS,
    ) -> EditRecord:
        """The form filled from the instructions, stored with its filled document, within `seconds`
        (a synchronous request's; None for a job)."""
        started = time.monotonic()
        if request.template_id is not None:
            fill = TemplateFill(
                template_id=request.template_id,
                instructions=request.instructions,
                model=request.model,
                config=request.config,
            )
            return self.fill_template(tenant, fill, stop, seconds=seconds)
        assert request.document is not None
        model = self._models.resolve(request.model, "edit")
        source = self._documents.load(tenant, request.document, EDITABLE)
        fields, pages = self._engine.fields(tenant, source)
        file = FileSummary(id=source.file_id, filename=source.filename, mime_type=source.mime_type)
        values, tokens = self._values(tenant, model, fields, request.instructions)
        _in_time(source.filename, started, seconds)
        return self._filled(
            tenant, source, file, fields, values, model, request.instructions, request.config,
            template_id=request.template_id, pages=pages, tokens=tokens, stop=stop,
        )  # fmt: skip

    def fill_template(
        self,
        tenant: Tenant,
        request: TemplateFill,
        stop: Callable[[], bool] | None = None,
        *,
        seconds: float | None = SYNC_SECONDS,
    ) -> EditRecord:
        """A template filled from `data` (values by key) and from instructions, `data` winning, within
        `seconds` (a synchronous request's; None for a job)."""
        started = time.monotonic()
        model = self._models.resolve(request.model, "edit")
        template = self._template_with_fields(tenant, request.template_id)
        fields = template.form_fields or []
        values: dict[str, str] = {}
        tokens = (0, 0)
        if request.instructions is not None:
            values, tokens = self._values(tenant, model, fields, request.instructions)
        if request.data is not None:
            values |= _values_of_data(fields, request.data)
        source = self._template_form(tenant, template)
        _in_time(source.filename, started, seconds)
        return self._filled(
            tenant, source, template.file, fields, values, model, request.instructions, request.config,
            template_id=template.id, pages=template.page_count, tokens=tokens, stop=stop,
        )  # fmt: skip

    def get(self, tenant: Tenant, edit_id: str) -> EditRecord:
        record = self._repository.get_edit(tenant, edit_id)
        if record is None:
            raise NotFound(f"no edit '{edit_id}'")
        return record

    def list_edits(self, tenant: Tenant, query: EditQuery) -> Page[EditRecord]:
        query.check()
        return self._repository.list_edits(tenant, query)

    def delete(self, tenant: Tenant, edit_id: str) -> None:
        """The edit and its filled document."""
        record = self._repository.delete_edit(tenant, edit_id)
        if record is None:
            raise NotFound(f"no edit '{edit_id}'")
        if record.filled_document_ref is not None and record.filled_document_ref.id is not None:
            self._forget_file(tenant, record.filled_document_ref.id)

    def cancel(self, tenant: Tenant, edit_id: str) -> EditRecord:
        """An edit is answered completed (a job runs it in the background, and the job is what is
        cancelled): 409 for one that exists, 404 otherwise."""
        record = self.get(tenant, edit_id)
        raise Conflict(
            f"edit '{record.id}' is already {record.status}; an edit in progress runs as a job: "
            "cancel the job (POST /v1/jobs/{job_id}/cancel)"
        )

    def answered(self, tenant: Tenant, record: EditRecord) -> EditRecord:
        """The edit as the API answers it: with its filled document, inline or as a link."""
        reference = record.filled_document_ref
        if reference is None or reference.id is None:
            return record
        try:
            stored, link = self._files.download_url(tenant, reference.id)
        except NotFound:
            return record.model_copy(
                update={"warnings": [*record.warnings, "the filled document's file was deleted"]}
            )
        if stored.size_bytes > INLINE_FILLED_BYTES:
            document = MIMEData(filename=stored.filename, url=link)
        else:
            content = self._documents.load(tenant, _file_ref(reference.id), EDITABLE).content
            url = "data:application/pdf;base64," + base64.b64encode(content).decode("ascii")
            document = MIMEData(filename=stored.filename, url=url)
        output = record.output.model_copy(update={"filled_document": document})
        return record.model_copy(update={"output": output})

    # ------------------------------------------------------------------ templates
    def create_template(
        self, tenant: Tenant, name: str, document: DocumentInput, form_fields: list[FormField] | None
    ) -> EditTemplate:
        """A template of a blank form: its fields as given, or as found when none are given. The form
        is kept as a file of its own, so the template does not change if the document's file does."""
        source = self._documents.load(tenant, document, EDITABLE)
        found, pages = self._engine.fields(tenant, source)
        fields = (
            found if form_fields is None else _checked_fields(form_fields, pages, ("body", "form_fields"))
        )
        stored = self._files.keep(tenant, source.filename, source.content)
        now = iso(utc_now())
        template = EditTemplate(
            id=new_id("etpl"),
            environment=tenant.environment,
            name=name,
            file=_summary(stored),
            page_count=pages,
            form_fields=fields,
            field_count=len(fields),
            created_at=now,
            updated_at=now,
        )
        try:
            self._repository.put_template(tenant, template)
        except Exception:
            self._forget_file(tenant, stored.id)
            raise
        return template

    def generate_template(self, tenant: Tenant, document: DocumentInput, name: str | None) -> TemplateDraft:
        """The fields found on a blank form, as a draft of its template; nothing is stored."""
        source = self._documents.load(tenant, document, EDITABLE)
        fields, pages = self._engine.fields(tenant, source)
        file = FileSummary(id=source.file_id, filename=source.filename, mime_type=source.mime_type)
        draft_name = name or source.filename.rsplit(".", 1)[0]
        return TemplateDraft(
            environment=tenant.environment, name=draft_name, file=file, page_count=pages, form_fields=fields
        )

    def get_template(self, tenant: Tenant, template_id: str) -> EditTemplate:
        return self._template_with_fields(tenant, template_id)

    def list_templates(self, tenant: Tenant, query: TemplateQuery) -> Page[EditTemplate]:
        query.check()
        return self._repository.list_templates(tenant, query)

    def update_template(
        self, tenant: Tenant, template_id: str, name: str | None, form_fields: list[FormField] | None
    ) -> EditTemplate:
        """A new name, new fields, or both; 409 when it changed meanwhile."""
        current = self._template_with_fields(tenant, template_id)
        changes: dict[str, Any] = {"updated_at": _later(current.updated_at)}
        if name is not None:
            changes["name"] = name
        if form_fields is not None:
            fields = _checked_fields(form_fields, current.page_count, ("body", "form_fields"))
            changes |= {"form_fields": fields, "field_count": len(fields)}
        updated = current.model_copy(update=changes)
        if not self._repository.replace_template(tenant, updated, current.updated_at):
            raise Conflict(f"template '{template_id}' changed meanwhile; read it again and retry")
        return updated

    def delete_template(self, tenant: Tenant, template_id: str) -> None:
        """The template and its blank form's file; edits made from it stay."""
        template = self._repository.delete_template(tenant, template_id)
        if template is None:
            raise NotFound(f"no edit template '{template_id}'")
        if template.file.id is not None:
            self._forget_file(tenant, template.file.id)

    # ------------------------------------------------------------------ helpers
    def _template_with_fields(self, tenant: Tenant, template_id: str) -> EditTemplate:
        template = self._repository.get_template(tenant, template_id)
        if template is None:
            raise NotFound(f"no edit template '{template_id}'")
        return template

    def _template_form(self, tenant: Tenant, template: EditTemplate) -> SourceDocument:
        if template.file.id is None:
            raise NotFound(f"the blank form of template '{template.id}' is no longer stored")
        try:
            return self._documents.load(tenant, _file_ref(template.file.id), EDITABLE)
        except NotFound:
            raise NotFound(
                f"the blank form of template '{template.id}' (file '{template.file.id}') was deleted"
            ) from None

    def _values(
        self, tenant: Tenant, model: ModelInfo, fields: Sequence[FormField], instructions: str
    ) -> tuple[dict[str, str], tuple[int, int]]:
        """The value of each field the instructions speak of, and the tokens a remote model counted."""
        described = [(field.key, field.description, field.type) for field in fields]
        if model.provider == "builtin" or not fields:
            return self._builtin(described, instructions), (0, 0)
        if self._remote is None:
            raise ModelFailed(f"model '{model.id}' ({model.provider}) is not reachable from here")
        reply = self._remote.structured(
            tenant, model, _REMOTE_INSTRUCTIONS + instructions, _fields_text(fields), _values_schema(fields)
        )
        keys = {field.key: field for field in fields}
        values = {
            key: _as_text(value, keys[key].type)
            for key, value in reply.value.items()
            if key in keys and value not in (None, "")
        }
        return values, (reply.input_tokens, reply.output_tokens)

    def _filled(
        self,
        tenant: Tenant,
        source: SourceDocument,
        file: FileSummary,
        fields: Sequence[FormField],
        values: Mapping[str, str],
        model: ModelInfo,
        instructions: str | None,
        config: EditConfig,
        *,
        template_id: str | None,
        pages: int,
        tokens: tuple[int, int],
        stop: Callable[[], bool] | None,
    ) -> EditRecord:
        for key, value in values.items():
            if len(value) > MAX_VALUE:
                raise InvalidField(
                    ("body", "instructions"),
                    f"the value for field '{key}' is {len(value)} characters; "
                    f"a field takes {MAX_VALUE} at most",
                )
        form_data = [
            field.model_copy(update={"value": values[field.key]}) if field.key in values else field
            for field in fields
        ]
        filled = self._engine.fill(tenant, source, [f for f in form_data if f.key in values], config.color)
        if stop is not None and stop():
            raise Stopped()
        stem = (file.filename or "document").rsplit(".", 1)[0]
        stored = self._files.keep(tenant, f"{stem}-filled.pdf", filled)
        warnings = [] if values or not fields else ["no field of the form matched the instructions"]
        if not fields:
            warnings.append("no fillable field was found in the document")
        record = EditRecord(
            id=new_id("edit"),
            environment=tenant.environment,
            file=file,
            model=model.id,
            instructions=instructions,
            config=config,
            template_id=template_id,
            output=EditOutput(form_data=form_data),
            filled_document_ref=_summary(stored),
            usage=EditUsage(
                page_count=pages,
                credits=pages * CREDITS_PER_PAGE,
                input_tokens=tokens[0],
                output_tokens=tokens[1],
            ),
            warnings=warnings,
            created_at=iso(utc_now()),
        )
        try:
            charge = Charge(pages, record.usage.credits, "edit", *tokens)
            self._repository.put_edit(tenant, record, charge)
        except Exception:
            self._forget_file(tenant, stored.id)
            raise
        return record

    def _forget_file(self, tenant: Tenant, file_id: str) -> None:
        with contextlib.suppress(NotFound):
            self._files.delete(tenant, file_id)


_REMOTE_INSTRUCTIONS = (
    "You fill in a form. The document lists its fields, one a line: key, type, and the label printed "
    "next to it. Answer a JSON object with the value of each field the instructions give a value for "
    "(a checkbox: true or false); leave out the others. Instructions:\n"
)


def _fields_text(fields: Sequence[FormField]) -> str:
    return "\n".join(f"{field.key} ({field.type}): {field.description}" for field in fields)


def _values_schema(fields: Sequence[FormField]) -> dict[str, Any]:
    properties = {
        field.key: {"type": ["boolean", "null"] if field.type == "checkbox" else ["string", "null"]}
        for field in fields
    }
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _as_text(value: Any, field_type: FieldType) -> str:
    if field_type == "checkbox":
        truthy = value is True or (isinstance(value, str) and value.strip().lower() in _TRUE)
        return "true" if truthy else "false"
    return value if isinstance(value, str) else str(value)


def _values_of_data(
    fields: Sequence[FormField], data: Mapping[str, str | int | float | bool | None]
) -> dict[str, str]:
    """`data` as values by key; a key the template lacks is a 422 naming it."""
    by_key = {field.key: field for field in fields}
    values: dict[str, str] = {}
    for key, value in data.items():
        if key not in by_key:
            known = ", ".join(list(by_key)[:20])
            raise InvalidField(
                ("body", "data", key), f"the template has no field '{key}'; its fields: {known}"
            )
        if value is not None:
            values[key] = _as_text(value, by_key[key].type)
    return values


def _checked_fields(fields: list[FormField], pages: int, location: tuple[str | int, ...]) -> list[FormField]:
    """Fields given by a user: distinct keys, on pages the form has, at most MAX_FIELDS."""
    if len(fields) > MAX_FIELDS:
        raise InvalidField(location, f"a template has at most {MAX_FIELDS} fields, not {len(fields)}")
    seen: set[str] = set()
    for index, field in enumerate(fields):
        if field.key in seen:
            raise InvalidField((*location, index, "key"), f"the key '{field.key}' is given twice")
        seen.add(field.key)
        if field.bbox.page > pages:
            raise InvalidField(
                (*location, index, "bbox", "page"),
                f"page {field.bbox.page} does not exist: the form has {pages} page(s)",
            )
    return fields


def _in_time(filename: str, started: float, seconds: float | None) -> None:
    """Nothing, if a synchronous edit has time left to write its form and store it; else a 413 before
    anything is written."""
    took = time.monotonic() - started
    if seconds is not None and took > seconds - FILL_SECONDS:
        raise DocumentRejected(
            "too_slow_for_sync",
            f"reading '{filename}' and choosing its values took {took:.0f} s, too long to finish within "
            f"a synchronous request ({seconds:g} s); send it as a job (POST /v1/jobs)",
            413,
        )


def _later(updated_at: str) -> str:
    """Now, or a millisecond after `updated_at` if the clock has not passed it: a template's every
    version has its own `updated_at`, which the write of the next one is conditioned on."""
    last = datetime.fromisoformat(updated_at.replace("Z", "+00:00"))
    return iso(max(utc_now(), last + timedelta(milliseconds=1)))


def _summary(record: FileRecord) -> FileSummary:
    return FileSummary(id=record.id, filename=record.filename, mime_type=record.mime_type)


def _file_ref(file_id: str) -> DocumentInput:
    return FileRef(id=file_id)

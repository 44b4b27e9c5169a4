"""The domain's FormEngine over PyMuPDF (docsvc.documents.forms), in this process: a form's fields as
the API answers them, and a copy of the form with values written. A field given by a user (a
template's) carries no widget name: it is matched to a widget of the form by its box, else its value
is drawn in the box. Functions without the documents layer ask the document reader function instead
(docsvc.adapters.document_reader.ReaderForms), which answers with this."""

from __future__ import annotations

from collections.abc import Sequence

from docsvc.documents.forms import FieldBox as FoundBox
from docsvc.documents.forms import FoundField, _opened, filled, form_fields
from docsvc.domain.documents import SourceDocument
from docsvc.domain.edits import MAX_DESCRIPTION, MAX_FIELDS, MAX_FORM_PAGES, MAX_VALUE, FieldBox, FormField
from docsvc.errors import DocumentRejected
from docsvc.tenancy import Tenant


class PdfForms:
    def fields(self, tenant: Tenant, document: SourceDocument) -> tuple[list[FormField], int]:
        with _opened(document.content) as opened:  # refuses what cannot be read, as a 4xx
            pages = opened.page_count
        if pages > MAX_FORM_PAGES:
            raise DocumentRejected(
                "form_too_large",
                f"'{document.filename}' has {pages} pages; an edit fills forms of "
                f"{MAX_FORM_PAGES} pages at most",
                413,
            )
        found = form_fields(document.content)
        if len(found) > MAX_FIELDS:
            raise DocumentRejected(
                "form_too_large",
                f"'{document.filename}' has {len(found)} fields; an edit fills {MAX_FIELDS} at most",
                413,
            )
        return [_field(item) for item in found], pages

    def fill(
        self, tenant: Tenant, document: SourceDocument, fields: Sequence[FormField], color: str
    ) -> bytes:
        return filled(document.content, [_found(field) for field in fields], color)


def _field(found: FoundField) -> FormField:
    """A field found on the form, its label and any value already in it cut to what a field holds."""
    box = found.bbox
    return FormField(
        key=found.key[:200],
        description=found.description[:MAX_DESCRIPTION],
        type=found.type,
        bbox=FieldBox(  # a widget may stand partly off its page: the box is the part on it
            left=_share(box.left),
            top=_share(box.top),
            width=_share(min(box.width, 1 - _share(box.left))),
            height=_share(min(box.height, 1 - _share(box.top))),
            page=max(box.page, 1),
        ),
        value=None if found.value is None else found.value[:MAX_VALUE],
    )


def _share(value: float) -> float:
    return min(max(value, 0.0), 1.0)


def _found(field: FormField) -> FoundField:
    box = field.bbox
    return FoundField(
        key=field.key,
        description=field.description,
        type=field.type,
        bbox=FoundBox(page=box.page, left=box.left, top=box.top, width=box.width, height=box.height),
        value=field.value,
    )

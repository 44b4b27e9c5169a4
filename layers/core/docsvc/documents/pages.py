"""Some pages of a document as a document of their own: what a workflow's split block hands on."""

from __future__ import annotations

import base64

from docsvc.domain.documents import DocumentInput, DocumentSource, MIMEData
from docsvc.tenancy import Tenant


class PageSelector:
    """A PDF's pages as a new PDF (a `data:` URL); any other document is handed on whole."""

    def __init__(self, documents: DocumentSource, supported: tuple[str, ...]) -> None:
        self._documents = documents
        self._supported = supported

    def __call__(self, tenant: Tenant, document: DocumentInput, pages: list[int]) -> DocumentInput:
        source = self._documents.load(tenant, document, self._supported)
        if source.document_type.name != "pdf":
            return document
        import pymupdf

        with pymupdf.open(stream=source.content, filetype="pdf") as pdf:
            pdf.select([page - 1 for page in pages if 1 <= page <= pdf.page_count])
            content = pdf.tobytes(garbage=3, deflate=True)
        stem = source.filename.rsplit(".", 1)[0]
        url = "data:application/pdf;base64," + base64.b64encode(content).decode()
        return MIMEData(filename=f"{stem}-pages-{pages[0]}-{pages[-1]}.pdf", url=url)

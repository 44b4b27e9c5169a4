"""OCR in the local stack as `make dev` starts it: the template's TESSDATA_PREFIX (/opt/tessdata, the
documents layer's folder on AWS) is exported there too, and scans are read with the machine's own
Tesseract data when that folder does not exist."""

from __future__ import annotations

import base64
import os

import httpx
import pytest
from docsvc.documents.engine import ocr

from tests import samples
from tests.e2e.conftest import RunningStack

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        ocr.tessdata() is None and not os.environ.get("DOCSVC_REQUIRE_OCR"),
        reason="Tesseract's language data is not installed",
    ),
]


def test_a_scan_sent_to_the_local_stack_is_read_by_ocr(stack: RunningStack) -> None:
    scan = samples.scanned_pdf("INVOICE 4711")
    document = {
        "filename": "scan.pdf",
        "url": "data:application/pdf;base64," + base64.b64encode(scan).decode(),
    }

    with httpx.Client(base_url=stack.url, headers={"Api-Key": stack.test_key}, timeout=60) as api:
        response = api.post("/v1/parses", json={"document": document, "languages": ["en"]})

    assert response.status_code == 201, response.text
    parse = response.json()
    assert "INVOICE 4711" in parse["output"]["text"], parse["warnings"]
    assert not any("OCR is not installed" in warning for warning in parse["warnings"])
    assert parse["output"]["ocr_confidence"][0] > 50

"""Files through the real handlers: uploads, upload sessions, get, download links, delete, bad input."""

from __future__ import annotations

import hashlib

import httpx
import pymupdf
import pytest
import requests
from docsvc.domain.files import MAX_DIRECT_UPLOAD_BYTES
from docsvc.local.stack import Deployment

from tests.conftest import Org, auth, drain


def pdf_bytes(pages: int = 3, text: str = "Invoice number") -> bytes:
    document = pymupdf.open()
    for number in range(pages):
        page = document.new_page()
        page.insert_text((72, 72), f"{text} page {number + 1}")
    return bytes(document.tobytes())


def upload(api: httpx.Client, key: str, name: str, content: bytes) -> httpx.Response:
    return api.post("/v1/files", headers=auth(key), files={"file": (name, content)})


# ---------------------------------------------------------------------------- direct upload


def test_direct_upload_returns_the_file_with_type_from_content(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes()

    response = upload(api, org.test.key, "scan.bin", content)  # the name says nothing: content decides

    assert response.status_code == 201
    body = response.json()
    assert body["object"] == "file"
    assert body["id"].startswith("file_")
    assert body["filename"] == "scan.bin"
    assert body["mime_type"] == "application/pdf"
    assert body["size_bytes"] == len(content)
    assert body["sha256"] == hashlib.sha256(content).hexdigest()
    assert body["page_count"] is None  # filled by the inspection, in the background
    assert body["created_at"].endswith("Z")


def test_the_filename_field_overrides_the_parts_name(api: httpx.Client, org: Org) -> None:
    response = api.post(
        "/v1/files",
        headers=auth(org.test.key),
        files={"file": ("x", b"hello")},
        data={"filename": "notes.txt"},
    )

    assert response.json()["filename"] == "notes.txt"


def test_directories_are_stripped_from_filenames(api: httpx.Client, org: Org) -> None:
    response = upload(api, org.test.key, "../../etc/passwd.txt", b"not really")

    assert response.status_code == 201
    assert response.json()["filename"] == "passwd.txt"


def test_inspection_fills_page_count_after_upload(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    file_id = upload(api, org.test.key, "report.pdf", pdf_bytes(pages=4)).json()["id"]

    assert drain(deployment, "FileInspectorFunction") >= 1
    body = api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).json()

    assert body["page_count"] == 4
    assert body["mime_type"] == "application/pdf"


def test_upload_at_the_limit_is_accepted_and_one_byte_more_is_413(api: httpx.Client, org: Org) -> None:
    at_limit = b"a" * MAX_DIRECT_UPLOAD_BYTES

    assert upload(api, org.test.key, "big.txt", at_limit).status_code == 201
    response = upload(api, org.test.key, "big.txt", at_limit + b"a")

    assert response.status_code == 413
    assert "upload session" in response.json()["detail"]
    assert "/v1/files/upload" in response.json()["detail"]


def test_a_body_over_lambdas_payload_limit_is_413_from_the_gateway(api: httpx.Client, org: Org) -> None:
    response = upload(api, org.test.key, "huge.txt", b"a" * (6 * 1024 * 1024))

    assert response.status_code == 413
    assert "upload session" in response.json()["detail"]


@pytest.mark.parametrize(
    ("name", "content", "status", "phrase"),
    [
        ("empty.pdf", b"", 400, "is empty"),
        (
            "tool.exe",
            b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff" + bytes(range(256)) * 4,
            415,
            "Supported:",
        ),
        ("archive.zip", b"PK\x03\x04" + b"\x00" * 100, 415, "not a supported document type"),
        ("elf", b"\x7fELF\x02\x01\x01" + b"\x00" * 200, 415, "not a supported document type"),
    ],
)
def test_bad_uploads_get_a_clear_4xx(
    api: httpx.Client, org: Org, name: str, content: bytes, status: int, phrase: str
) -> None:
    response = upload(api, org.test.key, name, content)

    assert response.status_code == status
    assert phrase in response.json()["detail"]
    assert api.get("/v1/files", headers=auth(org.test.key)).json()["data"] == []  # nothing half-written


def test_a_missing_file_part_is_422_naming_the_field(api: httpx.Client, org: Org) -> None:
    response = api.post("/v1/files", headers=auth(org.test.key), data={"filename": "x.txt"})

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "file"]


def test_a_malformed_multipart_body_is_a_4xx(api: httpx.Client, org: Org) -> None:
    response = api.post(
        "/v1/files",
        headers={**auth(org.test.key), "Content-Type": "multipart/form-data; boundary=XYZ"},
        content=b"--XYZ\r\nContent-Disposition: form-data; name=file; filename=a.txt\r\n\r\nunterminated",
    )

    assert 400 <= response.status_code < 500
    assert "detail" in response.json()


def test_a_json_body_instead_of_multipart_is_422(api: httpx.Client, org: Org) -> None:
    response = api.post("/v1/files", headers=auth(org.test.key), json={"file": "hello"})

    assert response.status_code == 422


def test_a_filename_of_only_directories_is_422(api: httpx.Client, org: Org) -> None:
    response = upload(api, org.test.key, "../", b"hello")

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "filename"]


# ---------------------------------------------------------------------------- upload sessions


def start_session(api: httpx.Client, key: str, content: bytes, **extra: object) -> dict[str, object]:
    body = {"filename": "large.pdf", "size_bytes": len(content), "content_type": "application/pdf", **extra}
    response = api.post("/v1/files/upload", headers=auth(key), json=body)
    assert response.status_code == 201, response.text
    session: dict[str, object] = response.json()
    return session


def put_bytes(session: dict[str, object], content: bytes) -> None:
    headers = session["upload_headers"]
    assert isinstance(headers, dict)
    response = requests.put(str(session["upload_url"]), data=content, headers=headers, timeout=10)
    assert response.status_code == 200


def test_an_upload_session_stores_a_large_file(api: httpx.Client, deployment: Deployment, org: Org) -> None:
    content = pdf_bytes(pages=2) + b"%" + b"0" * (MAX_DIRECT_UPLOAD_BYTES + 1000)  # over the direct limit
    session = start_session(api, org.test.key, content, sha256=hashlib.sha256(content).hexdigest())

    assert session["upload_method"] == "PUT"
    assert str(session["file_id"]).startswith("file_")
    put_bytes(session, content)
    response = api.post(f"/v1/files/upload/{session['file_id']}/complete", headers=auth(org.test.key))

    assert response.status_code == 200, response.text
    assert response.json()["size_bytes"] == len(content)
    assert response.json()["mime_type"] == "application/pdf"
    drain(deployment, "FileInspectorFunction")
    fetched = api.get(f"/v1/files/{session['file_id']}", headers=auth(org.test.key)).json()
    assert fetched["page_count"] == 2
    link = api.get(f"/v1/files/{session['file_id']}/download-link", headers=auth(org.test.key)).json()
    assert requests.get(link["download_url"], timeout=10).content == content


def test_completing_before_the_bytes_arrive_is_400(api: httpx.Client, org: Org) -> None:
    session = start_session(api, org.test.key, b"x" * 10)

    response = api.post(f"/v1/files/upload/{session['file_id']}/complete", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "PUT the file to upload_url" in response.json()["detail"]


def test_a_size_mismatch_is_refused_and_the_session_stays_open(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes()
    session = start_session(api, org.test.key, content + b"more")
    put_bytes(session, content)

    response = api.post(f"/v1/files/upload/{session['file_id']}/complete", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "declared" in response.json()["detail"]
    put_bytes(session, content + b"more")
    retried = api.post(f"/v1/files/upload/{session['file_id']}/complete", headers=auth(org.test.key))
    assert retried.status_code == 200


def test_a_checksum_mismatch_is_refused(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes()
    session = start_session(api, org.test.key, content, sha256="0" * 64)
    put_bytes(session, content)

    response = api.post(f"/v1/files/upload/{session['file_id']}/complete", headers=auth(org.test.key))

    assert response.status_code == 400
    assert "sha256" in response.json()["detail"]
    assert api.get(f"/v1/files/{session['file_id']}", headers=auth(org.test.key)).status_code == 404


def test_completing_twice_is_409(api: httpx.Client, org: Org) -> None:
    content = pdf_bytes()
    session = start_session(api, org.test.key, content)
    put_bytes(session, content)
    path = f"/v1/files/upload/{session['file_id']}/complete"

    assert api.post(path, headers=auth(org.test.key)).status_code == 200
    second = api.post(path, headers=auth(org.test.key))

    assert second.status_code == 409
    assert "already complete" in second.json()["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"filename": "a.pdf"}, "size_bytes"),
        ({"filename": "a.pdf", "size_bytes": 0}, "size_bytes"),
        ({"filename": "a.pdf", "size_bytes": "ten"}, "size_bytes"),
        ({"size_bytes": 10}, "filename"),
        ({"filename": "a.pdf", "size_bytes": 10, "sha256": "abc"}, "sha256"),
    ],
)
def test_invalid_upload_sessions_are_422_naming_the_field(
    api: httpx.Client, org: Org, body: dict[str, object], field: str
) -> None:
    response = api.post("/v1/files/upload", headers=auth(org.test.key), json=body)

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"][-1] == field


def test_a_session_over_the_size_cap_is_413(api: httpx.Client, org: Org) -> None:
    response = api.post(
        "/v1/files/upload", headers=auth(org.test.key), json={"filename": "a.pdf", "size_bytes": 10**12}
    )

    assert response.status_code == 413


# ---------------------------------------------------------------------------- get, download, delete


def test_get_download_and_delete(api: httpx.Client, org: Org) -> None:
    file_id = upload(api, org.test.key, "notes.txt", b"hello").json()["id"]

    assert api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).json()["filename"] == "notes.txt"
    link = api.get(f"/v1/files/{file_id}/download-link", headers=auth(org.test.key)).json()
    assert link["filename"] == "notes.txt"
    assert link["expires_in"] == 900
    downloaded = requests.get(link["download_url"], timeout=10)
    assert downloaded.content == b"hello"

    assert api.delete(f"/v1/files/{file_id}", headers=auth(org.test.key)).status_code == 204
    assert api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).status_code == 404
    assert api.delete(f"/v1/files/{file_id}", headers=auth(org.test.key)).status_code == 404


def test_an_unknown_id_is_404_with_a_message(api: httpx.Client, org: Org) -> None:
    response = api.get("/v1/files/file_00000000000000000000000000", headers=auth(org.test.key))

    assert response.status_code == 404
    assert response.json() == {"detail": "no file 'file_00000000000000000000000000'"}


def test_deleting_before_inspection_leaves_nothing_behind(
    api: httpx.Client, deployment: Deployment, org: Org
) -> None:
    file_id = upload(api, org.test.key, "report.pdf", pdf_bytes()).json()["id"]
    api.delete(f"/v1/files/{file_id}", headers=auth(org.test.key))

    drain(deployment, "FileInspectorFunction")  # the inspection finds no bytes and must not fail forever

    assert api.get(f"/v1/files/{file_id}", headers=auth(org.test.key)).status_code == 404

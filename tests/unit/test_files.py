"""The pure parts of files: filename cleaning, object keys, and the cursors of a page of a list."""

from __future__ import annotations

import pytest
from docsvc.domain.files import FileRecord, clean_filename, file_key, parse_file_key
from docsvc.domain.lists import Page
from docsvc.errors import InvalidField
from docsvc.tenancy import Environment, Tenant

# ---------------------------------------------------------------------------- clean_filename


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("invoice.pdf", "invoice.pdf"),
        ("scans/2026/invoice.pdf", "invoice.pdf"),
        ("/home/ana/invoice.pdf", "invoice.pdf"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\Ana\\Documents\\invoice.pdf", "invoice.pdf"),
        ("..\\..\\windows\\win.ini", "win.ini"),
        ("\\\\server\\share\\invoice.pdf", "invoice.pdf"),
        ("C:invoice.pdf", "invoice.pdf"),
        ("mixed/dirs\\invoice.pdf", "invoice.pdf"),
        ("  invoice.pdf  ", "invoice.pdf"),
        ("Rechnung März 2026 (final).pdf", "Rechnung März 2026 (final).pdf"),
    ],
)
def test_directories_are_stripped_from_a_filename(raw: str, expected: str) -> None:
    name = clean_filename(raw)

    assert name == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("inv\x00oice.pdf", "invoice.pdf"),
        ("invoice\r\n.pdf", "invoice.pdf"),
        ("\x1b[31minvoice.pdf", "[31minvoice.pdf"),
        ("invoice\u202efdp.exe", "invoicefdp.exe"),  # a right-to-left override cannot disguise the extension
        ("in\u200bvoice.pdf", "invoice.pdf"),
    ],
)
def test_control_and_format_characters_are_removed_from_a_filename(raw: str, expected: str) -> None:
    name = clean_filename(raw)

    assert name == expected


@pytest.mark.parametrize(
    "raw", ["", "   ", ".", "..", "docs/..", "/", "C:\\", "\x00\x01", "\u200b", "x/ .. "]
)
def test_a_filename_that_names_no_file_is_rejected_naming_the_field(raw: str) -> None:
    with pytest.raises(InvalidField) as raised:
        clean_filename(raw)

    assert raised.value.location == ("body", "filename")
    assert raised.value.status_code == 422
    assert "filename" in raised.value.message


def test_the_rejected_field_can_be_named_by_the_caller() -> None:
    with pytest.raises(InvalidField) as raised:
        clean_filename("..", ("body", "files", 2, "filename"))

    assert raised.value.location == ("body", "files", 2, "filename")


def test_a_filename_of_255_characters_is_accepted() -> None:
    raw = "a" * 251 + ".pdf"

    name = clean_filename(raw)

    assert name == raw


def test_a_filename_longer_than_255_characters_is_rejected() -> None:
    with pytest.raises(InvalidField) as raised:
        clean_filename("a" * 252 + ".pdf")

    assert raised.value.location == ("body", "filename")
    assert "255" in raised.value.message


def test_the_length_limit_applies_to_the_name_without_its_directories() -> None:
    raw = "d" * 300 + "/invoice.pdf"

    name = clean_filename(raw)

    assert name == "invoice.pdf"


# ---------------------------------------------------------------------------- object keys


@pytest.mark.parametrize("environment", ["test", "production"])
def test_a_file_key_parses_back_to_its_tenant_and_file_id(environment: Environment) -> None:
    tenant = Tenant("org_01J9Z8Q7W6V5T4S3R2P1N0M9K8", environment)

    key = file_key(tenant, "file_01J9Z8Q7W6V5T4S3R2P1N0M9K8")
    parsed = parse_file_key(key)

    assert key == f"files/org_01J9Z8Q7W6V5T4S3R2P1N0M9K8/{environment}/file_01J9Z8Q7W6V5T4S3R2P1N0M9K8"
    assert parsed == (tenant, "file_01J9Z8Q7W6V5T4S3R2P1N0M9K8")


@pytest.mark.parametrize(
    "key",
    [
        "uploads/org_1/test/file_1",  # an upload in progress, not a file
        "exports/org_1/test/file_1",
        "Files/org_1/test/file_1",
        "files/org_1/staging/file_1",  # no such environment
        "files/org_1/live/file_1",
        "files/org_1/test",  # too few segments
        "files/org_1/test/file_1/extra",  # too many segments
        "files/test/file_1",
        "",
    ],
)
def test_keys_outside_files_or_of_the_wrong_shape_are_not_file_keys(key: str) -> None:
    parsed = parse_file_key(key)

    assert parsed is None


# ---------------------------------------------------------------------------- page cursors


def record(file_id: str) -> FileRecord:
    return FileRecord(
        id=file_id,
        environment="test",
        filename=f"{file_id}.pdf",
        mime_type="application/pdf",
        created_at="2026-11-22T13:45:00.000Z",
        updated_at="2026-11-22T13:45:00.000Z",
        size_bytes=1024,
    )


def test_a_page_in_the_middle_has_cursors_on_both_sides() -> None:
    page = Page(
        items=[record("file_a"), record("file_b"), record("file_c")], has_previous=True, has_next=True
    )

    before, after = page.before, page.after

    assert before == "file_a"
    assert after == "file_c"


def test_the_first_page_has_no_before_cursor() -> None:
    page = Page(items=[record("file_a"), record("file_b")], has_previous=False, has_next=True)

    before, after = page.before, page.after

    assert before is None
    assert after == "file_b"


def test_the_last_page_has_no_after_cursor() -> None:
    page = Page(items=[record("file_a"), record("file_b")], has_previous=True, has_next=False)

    before, after = page.before, page.after

    assert before == "file_a"
    assert after is None


def test_a_single_page_has_no_cursors() -> None:
    page = Page(items=[record("file_a")], has_previous=False, has_next=False)

    assert page.before is None
    assert page.after is None


def test_an_empty_page_has_no_cursors_even_when_pages_exist_around_it() -> None:
    page = Page(items=[], has_previous=True, has_next=True)

    assert page.before is None
    assert page.after is None

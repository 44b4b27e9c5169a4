"""Outlook messages (.msg): an OLE compound file of MAPI properties, opened with olefile. A page is the
whole message, as for an e-mail: From, To, Cc, Date, Subject, the text body (the HTML body, read as
HTML, when there is no text one) and the names of the attachments. Attachments are not read.

Each string property is a stream named `__substg1.0_<property id><type>`: type 001F is UTF-16LE, 001E
is 8-bit text in the message's code page; fixed-size properties (the send time, the code page) are
entries of the `__properties_version1.0` stream.
"""

from __future__ import annotations

import codecs
import datetime
import email.utils
import io
import struct
from collections.abc import Iterator

import olefile

from docsvc.documents.engine.errors import DamagedDocument
from docsvc.documents.engine.model import Page, ParseOptions
from docsvc.documents.engine.ocr import reason
from docsvc.documents.engine.text import html_pages

MAX_ATTACHMENTS_LISTED = 500
_SUBJECT, _SENDER_NAME, _SENDER_EMAIL, _SENDER_SMTP = 0x0037, 0x0C1A, 0x0C1F, 0x5D01
_DISPLAY_TO, _DISPLAY_CC, _BODY, _BODY_HTML = 0x0E04, 0x0E03, 0x1000, 0x1013
_SUBMIT_TIME, _DELIVERY_TIME = 0x0039, 0x0E06
_INTERNET_CODEPAGE, _MESSAGE_CODEPAGE = 0x3FDE, 0x3FFD
_LONG_FILENAME, _FILENAME, _DISPLAY_NAME, _MIME_TAG = 0x3707, 0x3704, 0x3001, 0x370E
_PT_LONG, _PT_SYSTIME = 0x0003, 0x0040
_FILETIME_EPOCH = datetime.datetime(1601, 1, 1, tzinfo=datetime.UTC)


def count_pages(content: bytes, kind: str) -> int:
    with _open(content):
        return 1


def read_pages(content: bytes, kind: str, options: ParseOptions, first: int = 1) -> Iterator[Page]:
    if first > 1:
        return
    with _open(content) as ole:
        try:
            text = _Message(ole, "").render(options)
        except (OSError, ValueError, struct.error) as error:
            raise DamagedDocument(f"the Outlook message is damaged: {reason(error)}") from None
    yield Page(1, text)


def _open(content: bytes) -> olefile.OleFileIO[str]:
    if not olefile.isOleFile(data=content[: olefile.MINIMAL_OLEFILE_SIZE]) or len(content) < 1536:
        raise DamagedDocument("the Outlook message is not an OLE compound file")
    try:
        ole: olefile.OleFileIO[str] = olefile.OleFileIO(io.BytesIO(content))
    except (OSError, ValueError, struct.error, IndexError) as error:  # olefile's errors for damaged files
        raise DamagedDocument(f"the Outlook message could not be opened: {reason(error)}") from None
    if not ole.exists("__properties_version1.0") and not ole.exists("__nameid_version1.0"):
        ole.close()
        raise DamagedDocument("the file is an OLE compound file, but not an Outlook message")
    return ole


class _Message:
    """The properties of the message (storage "") or of one of its attachments' storages."""

    def __init__(self, ole: olefile.OleFileIO[str], storage: str) -> None:
        self.ole, self.prefix = ole, f"{storage}/" if storage else ""
        self.fixed = self._fixed_properties(header=32 if not storage else 8)
        codepage = self.fixed.get(_INTERNET_CODEPAGE) or self.fixed.get(_MESSAGE_CODEPAGE)
        self.encoding = f"cp{codepage}" if isinstance(codepage, int) and _known(f"cp{codepage}") else "cp1252"

    def string(self, property_id: int) -> str:
        for kind, encoding in (("001F", "utf-16-le"), ("001E", self.encoding)):
            data = self._stream(f"__substg1.0_{property_id:04X}{kind}")
            if data is not None:
                return data.decode(encoding, "replace").rstrip("\x00")
        return ""

    def binary(self, property_id: int) -> bytes | None:
        return self._stream(f"__substg1.0_{property_id:04X}0102")

    def _stream(self, name: str) -> bytes | None:
        path = self.prefix + name
        if not self.ole.exists(path):
            return None
        with self.ole.openstream(path) as stream:
            data: bytes = stream.read()
        return data

    def _fixed_properties(self, header: int) -> dict[int, int | datetime.datetime]:
        data = self._stream("__properties_version1.0") or b""
        found: dict[int, int | datetime.datetime] = {}
        for offset in range(header, len(data) - 15, 16):
            kind, property_id, _flags, value = struct.unpack_from("<HHIQ", data, offset)
            if kind == _PT_LONG:
                found[property_id] = value & 0xFFFFFFFF
            elif kind == _PT_SYSTIME and value:
                found[property_id] = _FILETIME_EPOCH + datetime.timedelta(microseconds=value // 10)
        return found

    def render(self, options: ParseOptions) -> str:
        sender = self.string(_SENDER_NAME)
        address = self.string(_SENDER_SMTP) or self.string(_SENDER_EMAIL)
        if address and "@" in address and address != sender:
            sender = f"{sender} <{address}>" if sender else address
        sent = self.fixed.get(_SUBMIT_TIME) or self.fixed.get(_DELIVERY_TIME)
        headers = {
            "From": sender,
            "To": self.string(_DISPLAY_TO),
            "Cc": self.string(_DISPLAY_CC),
            "Date": email.utils.format_datetime(sent) if isinstance(sent, datetime.datetime) else "",
            "Subject": self.string(_SUBJECT),
        }
        lines = [f"{name}: {value}" for name, value in headers.items() if value]
        body = self.string(_BODY).strip()
        if not body:
            html = self.binary(_BODY_HTML)
            html_text = html.decode(self.encoding, "replace") if html is not None else self.string(_BODY_HTML)
            body = "\n\n".join(html_pages(html_text, options.table_format)).strip() if html_text else ""
        if body:
            lines += ["", body.replace("\r\n", "\n")]
        attachments = self._attachments()
        if attachments:
            lines += ["", "Attachments:", *attachments]
        return "\n".join(lines)

    def _attachments(self) -> list[str]:
        storages = sorted(
            {
                entry[0]
                for entry in self.ole.listdir(streams=False, storages=True)
                if entry and entry[0].startswith("__attach_version1.0_#")
            }
        )
        listed = []
        for storage in storages[:MAX_ATTACHMENTS_LISTED]:
            attachment = _Message(self.ole, storage)
            name = (
                attachment.string(_LONG_FILENAME)
                or attachment.string(_FILENAME)
                or attachment.string(_DISPLAY_NAME)
                or "unnamed"
            )
            mime = attachment.string(_MIME_TAG)
            listed.append(f"- {name} ({mime})" if mime else f"- {name}")
        return listed


def _known(encoding: str) -> bool:
    try:
        codecs.lookup(encoding)
    except LookupError:
        return False
    return True

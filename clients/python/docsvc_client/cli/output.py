"""What commands print: aligned tables and key/value lists for people, JSON with `--json`, and a
one-line spinner on stderr (only when stderr is a terminal)."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, TextIO

__all__ = ["Column", "Progress", "cell", "dump_json", "render_fields", "render_table"]

MAX_CELL = 60
Column = tuple[str, str | Callable[[Mapping[str, Any]], Any]]  # (header, key or dotted path or function)


def dump_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def lookup(item: Mapping[str, Any], path: str) -> Any:
    """`item["a"]["b"]` for "a.b"; None where a part is missing."""
    value: Any = item
    for part in path.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def cell(value: Any, width: int = MAX_CELL) -> str:
    """One value on one line: `-` for nothing, yes/no, lists joined with commas, objects as JSON."""
    if value is None or value == "":
        text = "-"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, list | tuple) and all(not isinstance(item, Mapping | list) for item in value):
        text = ", ".join(str(item) for item in value) or "-"
    elif isinstance(value, Mapping | list | tuple):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    else:
        text = str(value)
    text = " ".join(text.split()) if "\n" in text or "\t" in text else text
    return text if len(text) <= width else text[: width - 1] + "…"


def render_table(items: Iterable[Mapping[str, Any]], columns: Sequence[Column]) -> str:
    """Rows under upper-case headers, each column as wide as its widest cell, two spaces apart."""
    rows = [[header.upper() for header, _ in columns]]
    for item in items:
        rows.append([cell(key(item) if callable(key) else lookup(item, key)) for _, key in columns])
    widths = [max(len(row[index]) for row in rows) for index in range(len(columns))]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    return "\n".join(lines)


def render_fields(item: Mapping[str, Any], fields: Sequence[Column] | None = None) -> str:
    """`name  value` lines: the given fields, or every field of the object."""
    pairs: list[tuple[str, str]] = []
    for header, key in fields if fields is not None else [(name, name) for name in item]:
        value = key(item) if callable(key) else lookup(item, key)
        pairs.append((header, cell(value, width=100)))
    width = max((len(name) for name, _ in pairs), default=0)
    return "\n".join(f"{name.ljust(width)}  {value}" for name, value in pairs)


class Progress:
    """`with Progress("uploading a.pdf") as progress: …; progress.update("…")`: a spinner and a message
    on one line of stderr, redrawn in place and erased at the end. Silent unless stderr is a terminal."""

    FRAMES = "|/-\\"

    def __init__(self, message: str, stream: TextIO | None = None) -> None:
        self.message = message
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _isatty(self.stream)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def update(self, message: str) -> None:
        self.message = message

    def _spin(self) -> None:
        frame = 0
        while not self._stop.is_set():
            self.stream.write(f"\r{self.FRAMES[frame % len(self.FRAMES)]} {self.message}\x1b[K")
            self.stream.flush()
            frame += 1
            self._stop.wait(0.1)

    def __enter__(self) -> Progress:
        if self.enabled:
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

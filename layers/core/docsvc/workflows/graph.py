"""A workflow graph as it is written (spec 2.8): blocks and the edges between their handles.

Handles are named `<direction>-<type>-<index>`: `output-file-0`, `input-json-0`. The middle word is
the type that flows through it; an edge joins an output handle to an input handle of the same type.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

HANDLE = re.compile(r"^(input|output)-([a-z]+)-(\d+)$")
MAX_BLOCKS = 200
MAX_EDGES = 500


class Position(BaseModel):
    x: float = 0.0
    y: float = 0.0


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=100)
    type: str = Field(
        min_length=1, max_length=50, description="A block type of the catalog; `start` = start_document."
    )
    label: str = Field("", max_length=200)
    config: dict[str, Any] | None = None
    position: Position = Field(default_factory=Position)


class Edge(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str = Field(min_length=1, max_length=100)
    source_block: str = Field(validation_alias=AliasChoices("source_block", "source"))
    target_block: str = Field(validation_alias=AliasChoices("target_block", "target"))
    source_handle: str = Field("output-file-0", max_length=50)
    target_handle: str = Field("input-file-0", max_length=50)


class Graph(BaseModel):
    blocks: list[Block] = Field(default_factory=list, max_length=MAX_BLOCKS)
    edges: list[Edge] = Field(default_factory=list, max_length=MAX_EDGES)


def handle_type(handle: str) -> str | None:
    """`file` for `output-file-0`; None for a name that is not a handle."""
    match = HANDLE.match(handle)
    return match.group(2) if match else None

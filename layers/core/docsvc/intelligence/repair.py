"""The repair of an output the whole schema still refuses.

Values invalid under a constraint across fields, or items an array cannot hold, are dropped one at a
time (a field to null, as not found; an item out of its array, lowering the array's likelihood), so
that the output validates wherever that can make it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsvc.intelligence.reading import Reading
from docsvc.intelligence.schemas import Node


def repair(output: Any, root: Node, reading: Reading, likelihoods: dict[str, float]) -> None:
    """Values the whole schema still refuses (a constraint across fields, an item it cannot hold) are
    dropped as if not found, one at a time, so that the output validates wherever that can make it."""
    if reading.validator is None:
        return
    for _ in range(50):
        try:  # a null is "not found": whatever the schema says of it, it stands
            errors = [error for error in reading.validator.iter_errors(output) if error.instance is not None]
        except Exception:  # a schema jsonschema cannot apply
            return
        if not any(_drop(output, root, list(error.absolute_path), likelihoods) for error in errors):
            return


def _drop(output: Any, root: Node, path: list[Any], likelihoods: dict[str, float]) -> bool:
    """Drops the innermost value on `path` that can go: a field (to null, not found), else an item."""
    for end in range(len(path), 0, -1):
        name, container = path[end - 1], _at(output, path[: end - 1])
        if isinstance(name, int) and isinstance(container, list) and name < len(container):
            del container[name]
        elif isinstance(name, str) and isinstance(container, dict) and container.get(name) is not None:
            container[name] = None
        else:
            continue
        _lower(likelihoods, path[:end])
        return True
    return False


def _lower(likelihoods: dict[str, float], path: Sequence[Any]) -> None:
    """A dropped field is not found; a dropped cell makes its array less likely."""
    index = next((position for position, part in enumerate(path) if isinstance(part, int)), None)
    if index is None:
        likelihoods[".".join(path)] = 0.0
    else:
        array = ".".join(path[:index])
        likelihoods[array] = likelihoods.get(array, 0.0) * 0.8


def _at(value: Any, path: Sequence[Any]) -> Any:
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _node_at(node: Node | None, path: Sequence[Any]) -> Node | None:
    for part in path:
        if node is None:
            return None
        node = node.items if isinstance(part, int) else dict(node.properties).get(part)
    return node

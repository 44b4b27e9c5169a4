"""Consensus of several answers of a remote model to one extraction: per leaf, the value most runs gave
and the share of runs that gave it.

A leaf is a value that is not an object: a string, a number, a boolean, null, or an array (an array is
compared whole, since its items need not line up between runs). Its path joins the property names with
dots ("total", "vendor.name", "line_items"), as the built-in model names its likelihoods. A run without
a leaf counts as a run that gave none; the majority may be that the leaf is left out. A tie goes to a
value over no value, then to the value the earliest run gave.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

_ABSENT = object()


def consensus(runs: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, float]]:
    """The majority value of every leaf, as one object, and per leaf path the share of runs that gave
    that value (two decimals: 2 runs of 3 give 0.67)."""
    flat = [_leaves(run) for run in runs]
    paths: list[tuple[str, ...]] = []
    for leaves in flat:
        paths += [path for path in leaves if path not in paths]
    output: dict[str, Any] = {}
    likelihoods: dict[str, float] = {}
    for path in sorted(paths, key=len):
        value, agreeing = _majority([leaves.get(path, _ABSENT) for leaves in flat])
        if value is not _ABSENT and _place(output, path, value):
            likelihoods[".".join(path)] = round(agreeing / len(runs), 2)
    return output, likelihoods


def _leaves(value: dict[str, Any], path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    leaves: dict[tuple[str, ...], Any] = {}
    for name, child in value.items():
        if isinstance(child, dict) and child:
            leaves.update(_leaves(child, (*path, name)))
        else:
            leaves[(*path, name)] = child
    return leaves


def _majority(values: list[Any]) -> tuple[Any, int]:
    """The value most runs gave (ties as the module says), and how many gave it."""
    counted: dict[str, tuple[Any, int]] = {}
    for value in values:
        key = "absent" if value is _ABSENT else "value:" + json.dumps(value, sort_keys=True, default=str)
        first, count = counted.get(key, (value, 0))
        counted[key] = (first, count + 1)
    ranked = sorted(counted.values(), key=lambda entry: (-entry[1], entry[0] is _ABSENT))
    return ranked[0]


def _place(output: dict[str, Any], path: tuple[str, ...], value: Any) -> bool:
    """Put the leaf in place; False when a shorter leaf already stands where its objects would go."""
    parent = output
    for name in path[:-1]:
        child = parent.setdefault(name, {})
        if not isinstance(child, dict):
            return False
        parent = child
    parent[path[-1]] = value
    return True

"""The diagnosis of a workflow graph before it is published (spec 4.7): its issues, each an error (a run
would fail: fix it before publishing), a warning (fix it; runs may succeed) or info (advice); one
suggestion per issue code found; and counts of what the graph holds.

The checks, in the order their issues are listed: start blocks, disconnected blocks, dangling edges,
unreachable blocks, handles, required and valid configuration, blank names and keys, review gates,
cycles; then secrets the graph references but the environment lacks, and conditions on fields the
JSON reaching them does not have. What each block type is and has comes from the catalog.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from docsvc.names import REFERENCE_PREFIX, SECRET_NAME_PATTERN
from docsvc.workflows.catalog import CATALOG, BlockSpec, secret_references, spec_of
from docsvc.workflows.graph import Block, Edge, Graph, handle_type

Severity = Literal["error", "warning", "info"]
ENTRY_TYPES = ("start_document", "start_json")  # blocks a run begins at

CODES: dict[str, tuple[Severity, str]] = {
    "NO_START_BLOCK": ("error", "Add a start_document block: a run begins with the document given to it."),
    "DUPLICATE_BLOCK_ID": ("error", "Give every block an id of its own."),
    "MULTIPLE_START_BLOCKS": (
        "info",
        "A run needs a document for each start_document block; keep one unless the workflow reads several.",
    ),
    "UNKNOWN_BLOCK_TYPE": ("error", "Use the block types of the catalog (docs/workflow-blocks.md)."),
    "DISCONNECTED_BLOCK": ("warning", "Connect every block to the workflow with an edge, or remove it."),
    "DANGLING_EDGE": (
        "error",
        "Remove the edges whose source or target block does not exist, or add the block.",
    ),
    "UNREACHABLE_BLOCK": ("warning", "Connect every block to a path that begins at a start block."),
    "HANDLE_TYPE_MISMATCH": ("error", "Join file outputs to file inputs and JSON outputs to JSON inputs."),
    "UNKNOWN_HANDLE": (
        "error",
        "Join an output handle of the source block to an input handle of the target block, as the "
        "catalog names them.",
    ),
    "MISSING_INPUT": ("error", "Feed every input handle of a connected block with an edge."),
    "MISSING_REQUIRED_CONFIG": ("error", "Fill in the required configuration of every block."),
    "INVALID_CONFIG": ("error", "Correct the block configurations the messages name."),
    "BLANK_CATEGORY": ("error", "Give every category of a classifier a name."),
    "BLANK_SUBDOCUMENT": ("error", "Give every subdocument of a split a name."),
    "BLANK_MAP_KEY": ("error", "Give every key of a map (such as headers) a name, or remove the entry."),
    "MISSING_REVIEW_PREDICATE": (
        "warning",
        "Give every enabled review gate a predicate, e.g. {signal, operator, value}, or disable it.",
    ),
    "UNAVAILABLE_REVIEW_SIGNAL": ("warning", "Base review predicates on a signal the block produces."),
    "CYCLE": ("error", "Remove an edge from every cycle: a workflow runs from its start blocks forward."),
    "MISSING_SECRET": (
        "warning",
        "Create the secrets the workflow references in this environment (POST /v1/secrets) before it runs.",
    ),
    "UNKNOWN_FIELD": ("warning", "Test fields of the JSON that reaches a conditional, or fix its schema."),
}
_SCHEMA_SOURCES = ("extract", "start_json")  # block types whose output schema is their json_schema


class Issue(BaseModel):
    severity: Severity
    code: str
    message: str
    block_id: str | None = None


class Stats(BaseModel):
    total_blocks: int = 0
    total_edges: int = 0
    block_types: dict[str, int] = {}
    start_document_blocks: int = 0


class Diagnosis(BaseModel):
    is_valid: bool
    issues: list[Issue]
    suggestions: list[str]
    stats: Stats


@dataclass(frozen=True)
class _View:
    """The graph as the checks read it: the first block of each id, the catalog entry of each block of
    a known type, and the edges whose two ends exist."""

    graph: Graph
    blocks: dict[str, Block]
    specs: dict[str, BlockSpec]
    links: list[Edge]
    connected: set[str]
    re_propagate: bool
    secret_exists: Callable[[str], bool] | None

    @classmethod
    def of(cls, graph: Graph, re_propagate: bool, secret_exists: Callable[[str], bool] | None) -> _View:
        blocks: dict[str, Block] = {}
        for block in graph.blocks:
            blocks.setdefault(block.id, block)
        specs = {block_id: spec for block_id, block in blocks.items() if (spec := spec_of(block.type))}
        links = [edge for edge in graph.edges if edge.source_block in blocks and edge.target_block in blocks]
        connected = {end for edge in graph.edges for end in (edge.source_block, edge.target_block)}
        return cls(graph, blocks, specs, links, connected, re_propagate, secret_exists)

    def type_of(self, block_id: str) -> str | None:
        spec = self.specs.get(block_id)
        return spec.type if spec else None


def diagnose(
    graph: Graph, *, re_propagate: bool = True, secret_exists: Callable[[str], bool] | None = None
) -> Diagnosis:
    """The issues of `graph`. `re_propagate` derives each block's output schema from the catalog;
    without it, the `output_schema` stored in block configurations is used. `secret_exists` answers
    whether the environment holds a secret; without it, secret references are not checked."""
    view = _View.of(graph, re_propagate, secret_exists)
    checks = (
        _start_blocks,
        _disconnected,
        _dangling,
        _unreachable,
        _handles,
        _configuration,
        _blank_names,
        _review_gates,
        _cycles,
        _secrets,
        _condition_fields,
    )
    issues = [issue for check in checks for issue in check(view)]
    codes = dict.fromkeys(issue.code for issue in issues)
    return Diagnosis(
        is_valid=not any(issue.severity == "error" for issue in issues),
        issues=issues,
        suggestions=[CODES[code][1] for code in codes],
        stats=_stats(graph),
    )


def _stats(graph: Graph) -> Stats:
    types = Counter(block.type for block in graph.blocks)
    return Stats(
        total_blocks=len(graph.blocks),
        total_edges=len(graph.edges),
        block_types=dict(types),
        start_document_blocks=types["start_document"] + types["start"],
    )


def _issue(code: str, message: str, block_id: str | None = None) -> Issue:
    return Issue(severity=CODES[code][0], code=code, message=message, block_id=block_id)


def _named(block: Block) -> str:
    return f"'{block.label}' ({block.id})" if block.label and block.label != block.id else f"'{block.id}'"


def _config(block: Block) -> dict[str, Any]:
    return block.config or {}


# ------------------------------------------------------------------------------------- the checks
def _start_blocks(view: _View) -> Iterator[Issue]:
    for block_id, count in Counter(block.id for block in view.graph.blocks).items():
        if count > 1:
            yield _issue(
                "DUPLICATE_BLOCK_ID",
                f"{count} blocks have the id '{block_id}'; rename all but one.",
                block_id,
            )
    known = ", ".join(spec.type for spec in CATALOG)
    for block in view.graph.blocks:
        if spec_of(block.type) is None:
            message = (
                f"Block {_named(block)} has the type '{block.type}', which is not a block type ({known})."
            )
            yield _issue("UNKNOWN_BLOCK_TYPE", message, block.id)
    starts = [block.id for block in view.graph.blocks if view.type_of(block.id) == "start_document"]
    if not starts:
        yield _issue(
            "NO_START_BLOCK", "The graph has no start_document block; add one for the document a run reads."
        )
    elif len(starts) > 1:
        message = (
            f"The graph has {len(starts)} start_document blocks ({', '.join(starts)}); "
            "a run needs a document for each."
        )
        yield _issue("MULTIPLE_START_BLOCKS", message)


def _disconnected(view: _View) -> Iterator[Issue]:
    if len(view.graph.blocks) < 2:
        return
    for block_id, block in view.blocks.items():
        if block_id not in view.connected and view.type_of(block_id) != "note":
            message = f"Block {_named(block)} has no edge; connect it to the workflow or remove it."
            yield _issue("DISCONNECTED_BLOCK", message, block_id)


def _dangling(view: _View) -> Iterator[Issue]:
    for edge in view.graph.edges:
        missing = [end for end in (edge.source_block, edge.target_block) if end not in view.blocks]
        if missing:
            existing = next(
                (end for end in (edge.source_block, edge.target_block) if end in view.blocks), None
            )
            message = (
                f"Edge '{edge.id}' joins {edge.source_block} to {edge.target_block}, but no block has the id "
                f"{' or '.join(repr(end) for end in missing)}; remove the edge or add the block."
            )
            yield _issue("DANGLING_EDGE", message, existing)


def _unreachable(view: _View) -> Iterator[Issue]:
    reached = {block_id for block_id in view.blocks if view.type_of(block_id) in ENTRY_TYPES}
    if not reached:
        return  # NO_START_BLOCK says it all
    following = _successors(view)
    frontier = list(reached)
    while frontier:
        for successor in following[frontier.pop()]:
            if successor not in reached:
                reached.add(successor)
                frontier.append(successor)
    for block_id, block in view.blocks.items():
        if block_id in view.connected and block_id not in reached and view.type_of(block_id) != "note":
            message = f"No path from a start block reaches block {_named(block)}; connect it to one."
            yield _issue("UNREACHABLE_BLOCK", message, block_id)


def _successors(view: _View) -> dict[str, list[str]]:
    following: dict[str, list[str]] = {block_id: [] for block_id in view.blocks}
    for edge in view.links:
        following[edge.source_block].append(edge.target_block)
    return following


def _handles(view: _View) -> Iterator[Issue]:
    for edge in view.links:
        source_ok = yield from _handle_of(view, edge, edge.source_block, edge.source_handle, "output")
        target_ok = yield from _handle_of(view, edge, edge.target_block, edge.target_handle, "input")
        kinds = (handle_type(edge.source_handle), handle_type(edge.target_handle))
        if source_ok and target_ok and None not in kinds and kinds[0] != kinds[1]:
            message = (
                f"Edge '{edge.id}' joins {edge.source_handle} of {_named(view.blocks[edge.source_block])} "
                f"({kinds[0]}) to {edge.target_handle} of {_named(view.blocks[edge.target_block])} "
                f"({kinds[1]}); join handles of the same type."
            )
            yield _issue("HANDLE_TYPE_MISMATCH", message, edge.target_block)
    fed = {(edge.target_block, edge.target_handle) for edge in view.graph.edges}
    for block_id, spec in view.specs.items():
        if block_id not in view.connected:
            continue  # DISCONNECTED_BLOCK says it
        for handle in spec.inputs(_config(view.blocks[block_id])):
            if (block_id, handle) not in fed:
                name = _named(view.blocks[block_id])
                message = f"Nothing feeds input {handle} of block {name}; connect an edge to it."
                yield _issue("MISSING_INPUT", message, block_id)


def _handle_of(
    view: _View, edge: Edge, block_id: str, handle: str, side: Literal["input", "output"]
) -> Generator[Issue, None, bool]:
    """UNKNOWN_HANDLE when the block has no such `side` handle; returns whether the handle is sound."""
    spec = view.specs.get(block_id)
    if spec is None:
        return handle_type(handle) is not None  # UNKNOWN_BLOCK_TYPE says the rest
    config = _config(view.blocks[block_id])
    own, other = (
        (spec.outputs(config), spec.inputs(config))
        if side == "output"
        else (spec.inputs(config), spec.outputs(config))
    )
    if handle in own:
        return True
    names = ", ".join(own) or "none"
    why = f"an {'input' if side == 'output' else 'output'}" if handle in other else "not one of its handles"
    message = (
        f"Edge '{edge.id}' uses {handle} of block {_named(view.blocks[block_id])} ({spec.type}), "
        f"which is {why}; its {side} handles are: {names}."
    )
    yield _issue("UNKNOWN_HANDLE", message, block_id)
    return False


def _configuration(view: _View) -> Iterator[Issue]:
    for block_id, spec in view.specs.items():
        block = view.blocks[block_id]
        config = _config(block)
        missing = [key for key in spec.required if _is_empty(config.get(key))]
        for key in missing:
            message = f"Block {_named(block)} ({spec.type}) needs `{key}` in its configuration; fill it in."
            yield _issue("MISSING_REQUIRED_CONFIG", message, block_id)
        reasons = _invalid(spec, config, set(missing))
        if reasons:
            message = (
                f"The configuration of block {_named(block)} ({spec.type}) is invalid: {'; '.join(reasons)}."
            )
            yield _issue("INVALID_CONFIG", message, block_id)


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value in ([], {})


def _invalid(spec: BlockSpec, config: dict[str, Any], missing: set[str]) -> list[str]:
    """Why `config` fails the block's configuration model (fields MISSING_REQUIRED_CONFIG names aside),
    and the secret references that cannot name a secret."""
    reasons: list[str] = []
    try:
        spec.config_model.model_validate(config)
    except ValidationError as failure:
        for error in failure.errors():
            if error["loc"] and error["loc"][0] in missing:
                continue
            where = ".".join(str(part) for part in error["loc"]) or "the configuration"
            reasons.append(f"{where}: {error['msg'].removeprefix('Value error, ')}")
    for name in sorted(secret_references(config)):
        if not SECRET_NAME_PATTERN.match(name):
            reasons.append(
                f"'{REFERENCE_PREFIX}{name}' does not name a secret (a letter or an underscore, then "
                "letters, digits or underscores)"
            )
    return reasons


_NAMED_ITEMS = {
    "categories": ("BLANK_CATEGORY", "category"),
    "subdocuments": ("BLANK_SUBDOCUMENT", "subdocument"),
}


def _blank_names(view: _View) -> Iterator[Issue]:
    for block_id in view.specs:
        block = view.blocks[block_id]
        config = _config(block)
        for field, (code, what) in _NAMED_ITEMS.items():
            items = config.get(field)
            for position, item in enumerate(items if isinstance(items, list) else [], 1):
                name = item.get("name") if isinstance(item, Mapping) else None
                if isinstance(name, str) and not name.strip():
                    message = (
                        f"The {what} {position} of block {_named(block)} has a blank name; "
                        "name it or remove it."
                    )
                    yield _issue(code, message, block_id)
        for field, value in config.items():
            if isinstance(value, Mapping) and any(isinstance(key, str) and not key.strip() for key in value):
                message = (
                    f"`{field}` of block {_named(block)} has an entry with a blank key; name it or remove it."
                )
                yield _issue("BLANK_MAP_KEY", message, block_id)


def _review_gates(view: _View) -> Iterator[Issue]:
    for block_id, block in view.blocks.items():
        review = _config(block).get("review")
        if not isinstance(review, Mapping):
            continue
        predicate = review.get("predicate")
        if review.get("enabled") is True and _is_empty(predicate):
            message = (
                f"The review gate of block {_named(block)} is enabled but has no predicate; say when a "
                "result needs review, e.g. {signal: confidence, operator: lt, value: 0.8}, or disable it."
            )
            yield _issue("MISSING_REVIEW_PREDICATE", message, block_id)
        spec = view.specs.get(block_id)
        signal = predicate.get("signal") if isinstance(predicate, Mapping) else None
        if spec is not None and isinstance(signal, str) and signal not in spec.signals:
            produced = ", ".join(spec.signals) or "none"
            message = (
                f"The review predicate of block {_named(block)} uses the signal '{signal}', which a "
                f"{spec.type} block does not produce (it produces: {produced})."
            )
            yield _issue("UNAVAILABLE_REVIEW_SIGNAL", message, block_id)


def _cycles(view: _View) -> Iterator[Issue]:
    order = {block_id: position for position, block_id in enumerate(view.blocks)}
    for component in _strongly_connected(list(view.blocks), _successors(view)):
        members = sorted(component, key=order.__getitem__)
        names = " -> ".join(_named(view.blocks[block_id]) for block_id in members)
        message = f"Blocks {names} form a cycle; remove one of its edges."
        yield _issue("CYCLE", message, members[0])


def _strongly_connected(nodes: list[str], following: dict[str, list[str]]) -> list[list[str]]:
    """The cycles of the graph, one per strongly connected component that holds one (Tarjan's
    algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(following[root]))]
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(following[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while not component or component[-1] != node:
                    component.append(stack.pop())
                    on_stack.discard(component[-1])
                if len(component) > 1 or node in following[node]:
                    found.append(component)
    return found


def _secrets(view: _View) -> Iterator[Issue]:
    if view.secret_exists is None:
        return
    for block_id, block in view.blocks.items():
        for name in sorted(secret_references(block.config)):
            if SECRET_NAME_PATTERN.match(name) and not view.secret_exists(name):
                message = (
                    f"Block {_named(block)} references {REFERENCE_PREFIX}{name}, but this environment has no "
                    f"secret '{name}'; create it before the workflow runs."
                )
                yield _issue("MISSING_SECRET", message, block_id)


def _condition_fields(view: _View) -> Iterator[Issue]:
    for block_id, spec in view.specs.items():
        field = _config(view.blocks[block_id]).get("field")
        if spec.type != "conditional" or not isinstance(field, str) or not field.strip():
            continue
        first = field.split(".")[0]
        for schema in _input_schemas(view, block_id, frozenset()):
            properties = schema.get("properties")
            if isinstance(properties, Mapping) and first not in properties:
                message = (
                    f"The condition of block {_named(view.blocks[block_id])} tests '{field}', but the JSON "
                    f"that reaches it has no '{first}' (it has: {', '.join(properties) or 'nothing'})."
                )
                yield _issue("UNKNOWN_FIELD", message, block_id)
                break


def _input_schemas(view: _View, block_id: str, seen: frozenset[str]) -> list[Mapping[str, Any]]:
    """The known schemas of the JSON that edges bring to a block."""
    schemas: list[Mapping[str, Any]] = []
    for edge in view.links:
        if (
            edge.target_block == block_id
            and handle_type(edge.source_handle) == handle_type(edge.target_handle) == "json"
        ):
            schema = _output_schema(view, edge.source_block, seen | {block_id})
            if schema is not None:
                schemas.append(schema)
    return schemas


def _output_schema(view: _View, block_id: str, seen: frozenset[str]) -> Mapping[str, Any] | None:
    """The schema of a block's JSON output: stored in its configuration as `output_schema` (without
    re-propagation), else derived: the `json_schema` of extract and start_json blocks, the input's of
    a conditional (which passes its input on), unknown for the others."""
    config = _config(view.blocks[block_id])
    if not view.re_propagate:
        stored = config.get("output_schema")
        return stored if isinstance(stored, Mapping) else None
    kind = view.type_of(block_id)
    if kind in _SCHEMA_SOURCES:
        schema = config.get("json_schema")
        return schema if isinstance(schema, Mapping) else None
    if kind == "conditional" and block_id not in seen:
        known = _input_schemas(view, block_id, seen)
        return known[0] if known else None
    return None

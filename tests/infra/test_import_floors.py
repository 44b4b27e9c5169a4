"""The floors of the shared package: a module imports only from its own floor or the floors below it,
and no two of its packages import each other, however indirectly.

Every import statement of every module under layers/core/docsvc counts, wherever it stands: at the top
of a module, inside a function (a lazy import is the same dependency, loaded later) and under
`if TYPE_CHECKING:`. That holds for the composition root too: `docsvc.services` may import every floor
it wires because it stands above them, not because its imports are lazy. Imports by name in a string
(`importlib.import_module`) are not read; `docsvc.local` loads the function packages that way, and
`docsvc.endpoints` finds its own modules.

A floor names the packages and modules one level below `docsvc`; adding one means placing it here.
Packages of one floor may import each other one way. Two placements differ from the picture of
docs/architecture.md at first sight: the built-in models, the CSV tables and the workflow catalog sit
below the domain, which calls them (they import leaves only and implement no port); and the API's
entries sit above the composition root, since the auth dependency asks it for the account service.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "layers" / "core" / "docsvc"

# Lowest first. A module may import from its own floor and any floor below it.
FLOORS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "leaves: ids, times, errors, tenants, settings and other small modules every floor may use",
        frozenset(
            {
                "docsvc",  # the package itself: __version__
                "ids",
                "clock",
                "errors",
                "tenancy",
                "config",
                "observability",
                "names",
                "document_types",
                "content_disposition",
                "text_decoding",
            }
        ),
    ),
    (
        "libraries: code without ports (CSV tables, the built-in models, the workflow graph and its "
        "catalog) and the SDK with its webhook check",
        frozenset({"lookup_tables", "intelligence", "workflows", "sdk", "webhooks"}),
    ),
    ("domain: the rules of the specification and its ports", frozenset({"domain"})),
    (
        "the ports' implementers: AWS adapters and remote models, the document engine and reader",
        frozenset({"adapters", "documents"}),
    ),
    ("endpoints: one object per operation, called by its route and by its job", frozenset({"endpoints"})),
    ("the composition root: each service wired to its adapters", frozenset({"services"})),
    (
        "the entries: the FastAPI app and its auth, the Lambda entries of workers",
        frozenset({"api", "workers"}),
    ),
    ("the tools: the local stack and the command line", frozenset({"local", "cli"})),
)
FLOOR_OF: dict[str, int] = {name: level for level, (_, names) in enumerate(FLOORS) for name in names}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module's name one level below docsvc ("domain", "ids", ...)
    target: str  # the imported one's
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.where}: {self.source} -> {self.target}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top(module: str) -> str:
    """`docsvc.domain.jobs` -> `domain`; `docsvc` -> `docsvc`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported(source: str, name: str, *, is_package: bool = False) -> Iterator[tuple[str, int]]:
    """Every docsvc module the source of module `name` imports, at any depth, with the line of the
    import."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from docsvc import ids` imports docsvc.ids; `from docsvc import __version__`, docsvc
            targets = [module] if module != "docsvc" else [f"docsvc.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target == "docsvc" or target.startswith("docsvc."):
                yield (target if target.split(".")[-1] != "__version__" else "docsvc"), node.lineno


def imports() -> list[Import]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = top(module_name(path))
        where = f"{path.relative_to(ROOT)}"
        text = path.read_text(encoding="utf-8")
        for target, line in imported(text, module_name(path), is_package=path.name == "__init__.py"):
            found.append(Import(source, top(target), f"{where}:{line}"))
    return found


def test_every_package_is_on_a_floor() -> None:
    names = {top(module_name(path)) for path in PACKAGE.rglob("*.py")}

    assert names - set(FLOOR_OF) == set(), "place each new package or module in FLOORS"


def test_no_module_imports_from_a_floor_above_its_own() -> None:
    upward = [
        edge
        for edge in imports()
        if edge.source in FLOOR_OF
        and edge.target in FLOOR_OF
        and FLOOR_OF[edge.target] > FLOOR_OF[edge.source]
    ]

    assert not upward, "imports from a floor above the importer's:\n" + "\n".join(map(str, upward))


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of `graph`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_no_packages_import_each_other() -> None:
    edges = [edge for edge in imports() if edge.source != edge.target]
    graph: dict[str, set[str]] = defaultdict(set)
    for edge in edges:
        graph[edge.source].add(edge.target)

    loops = [component for component in strongly_connected(graph) if len(component) > 1]

    assert not loops, "packages that import each other (the fewest imports first: the ones to move):\n" + (
        "\n".join(_listed([edge for edge in edges if {edge.source, edge.target} <= loop]) for loop in loops)
    )


def _listed(edges: list[Import]) -> str:
    by_pair: dict[tuple[str, str], list[str]] = defaultdict(list)
    for edge in edges:
        by_pair[edge.source, edge.target].append(edge.where)
    return "\n".join(
        f"  {source} -> {target} ({len(where)}):\n" + "".join(f"    {place}\n" for place in where)
        for (source, target), where in sorted(by_pair.items(), key=lambda item: (len(item[1]), item[0]))
    )


def test_imports_are_read_at_any_depth_and_relative_ones_resolved() -> None:
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from docsvc import __version__, ids\n"
        "if TYPE_CHECKING:\n"
        "    from docsvc.domain.jobs import JobService\n"
        "def later():\n"
        "    import docsvc.adapters.blobs\n"
        "    from ..intelligence import schemas\n"
        "    from .parse import PARSE\n"
    )

    found = sorted(imported(source, "docsvc.endpoints.extraction"))

    assert found == [
        ("docsvc", 3),
        ("docsvc.adapters.blobs", 7),
        ("docsvc.domain.jobs", 5),
        ("docsvc.endpoints.parse", 9),
        ("docsvc.ids", 3),
        ("docsvc.intelligence", 8),
    ]

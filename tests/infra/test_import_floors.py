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
import sys
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
        "libraries: code without ports (CSV tables, the built-in models, the workflow graph and its catalog)",
        frozenset({"lookup_tables", "intelligence", "workflows"}),
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
    ("the tools: the local stack and the operator's commands", frozenset({"local", "admin"})),
)
FLOOR_OF: dict[str, int] = {name: level for level, (_, names) in enumerate(FLOORS) for name in names}

# The client distribution (MIT, on users' machines): it stands apart from the server and below it. It
# imports the standard library, httpx and itself, never the server. The server imports from it the
# webhook signatures (in every function, through the core layer, which has no httpx) and, in the
# operator's commands, the command line they extend.
CLIENT = ROOT / "clients" / "python" / "docsvc_client"
CLIENT_DEPENDENCIES = frozenset({"httpx"})
CLIENT_FOR_THE_SERVICE = "docsvc_client.webhooks"
CLIENT_FOR_THE_TOOLS = "docsvc_client.cli"


@dataclass(frozen=True)
class Import:
    source: str  # the importing module's name one level below docsvc ("domain", "ids", ...)
    target: str  # the imported one's
    where: str  # file:line

    def __str__(self) -> str:
        return f"{self.where}: {self.source} -> {self.target}"


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top(module: str) -> str:
    """`docsvc.domain.jobs` -> `domain`; `docsvc` -> `docsvc`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported(
    source: str, name: str, *, is_package: bool = False, root: str | None = "docsvc"
) -> Iterator[tuple[str, int]]:
    """Every module of the package `root` (of any package, with None) the source of module `name`
    imports, at any depth, with the line of the import."""
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
            top_level = "." not in module and module not in ("", "__future__")
            targets = [f"{module}.{alias.name}" for alias in node.names] if top_level else [module]
        else:
            continue
        for target in targets:
            if root is None or target == root or target.startswith(f"{root}."):
                yield (
                    (target if target.split(".")[-1] != "__version__" else target.rpartition(".")[0]),
                    node.lineno,
                )


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


def client_imports() -> list[tuple[str, str, str]]:
    """(importing module, imported module, file:line) of every import of the client package."""
    found = []
    for path in sorted(CLIENT.rglob("*.py")):
        name = module_name(path, CLIENT)
        text = path.read_text(encoding="utf-8")
        for target, line in imported(text, name, is_package=path.name == "__init__.py", root=None):
            found.append((name, target, f"{path.relative_to(ROOT)}:{line}"))
    return found


def test_the_client_imports_nothing_of_the_server() -> None:
    server = [
        f"{where}: {target}" for _, target, where in client_imports() if target.split(".")[0] == "docsvc"
    ]

    assert server == [], "the client (MIT) imports the server:\n" + "\n".join(server)


def test_the_client_needs_only_the_standard_library_and_its_dependencies() -> None:
    allowed = set(sys.stdlib_module_names) | CLIENT_DEPENDENCIES | {"docsvc_client", "__future__"}

    foreign = [
        f"{where}: {target}" for _, target, where in client_imports() if target.split(".")[0] not in allowed
    ]

    assert foreign == [], "the client imports more than httpx and the standard library:\n" + "\n".join(
        foreign
    )


def test_the_clients_webhook_signatures_need_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__"}

    foreign = [
        f"{where}: {target}"
        for source, target, where in client_imports()
        if source == CLIENT_FOR_THE_SERVICE and target.split(".")[0] not in allowed
    ]

    assert foreign == [], "the core layer ships this module without httpx:\n" + "\n".join(foreign)


def test_the_server_imports_from_the_client_only_the_webhook_signatures_and_its_tools_the_cli() -> None:
    tools = FLOOR_OF["admin"]
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        text = path.read_text(encoding="utf-8")
        for target, line in imported(text, name, is_package=path.name == "__init__.py", root="docsvc_client"):
            allowed = [CLIENT_FOR_THE_SERVICE] + (
                [CLIENT_FOR_THE_TOOLS] if FLOOR_OF.get(top(name)) == tools else []
            )
            if not any(target == part or target.startswith(f"{part}.") for part in allowed):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {target}")

    assert wrong == [], (
        "imports of the client the service cannot load (no httpx in its layer):\n" + "\n".join(wrong)
    )


def test_imports_of_any_package_are_read_with_the_names_they_take() -> None:
    source = "from docsvc_client import webhooks, __version__\nimport httpx\nfrom typing import Any\n"

    found = sorted(imported(source, "docsvc.domain.deliveries", root=None))

    assert found == [("docsvc_client", 1), ("docsvc_client.webhooks", 1), ("httpx", 2), ("typing.Any", 3)]

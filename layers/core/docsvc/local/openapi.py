"""One OpenAPI document for the whole API, merged from the app of every API function in template.yaml.

`python -m docsvc.local.openapi docs/openapi.json` (or `make openapi`) writes it.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from docsvc import __license__, __version__
from docsvc.local.functions import LocalFunction

SECURITY_SCHEMES = {
    "BearerAuth": {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <key>"},
    "ApiKeyAuth": {"type": "apiKey", "in": "header", "name": "Api-Key", "description": "Api-Key: <key>"},
}


def function_app(function: LocalFunction) -> Any:
    """The FastAPI app of an API function: the `app` module beside its handler."""
    package = function.handler_path.split(".")[0]
    return importlib.import_module(f"{package}.app").app


def merged_openapi(functions: list[LocalFunction]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    for function in sorted(functions, key=lambda item: item.logical_id):
        if not function.routes:
            continue
        document = copy.deepcopy(function_app(function).openapi())  # FastAPI keeps it: never change it
        for path, operations in document.get("paths", {}).items():
            paths.setdefault(path, {}).update(operations)
        for name, schema in document.get("components", {}).get("schemas", {}).items():
            if schemas.setdefault(name, schema) != schema:
                raise ValueError(f"two functions define the schema {name} differently")
    responses = _shared_responses(paths)
    source_urls = {function.environment.get("SOURCE_URL", "") for function in functions} - {""}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "docsvc",
            "version": __version__,
            "description": "Document processing API. Every route accepts `Authorization: Bearer <key>` or "
            "`Api-Key: <key>`; the key selects the organization and environment. A successful answer larger "
            "than Lambda may return (6 MB) is a `303 See Other` whose `Location` is a presigned link to it, "
            "valid 15 minutes: follow it without the key. A 422 shows each wrong `input` cut to 200 "
            "characters a string and 20 items an object or list.",
            "license": {"name": __license__, "identifier": __license__},
            "x-source-url": min(source_urls) if source_urls else None,
        },
        "paths": dict(sorted(paths.items())),
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "responses": responses,
            "securitySchemes": SECURITY_SCHEMES,
        },
    }


def _shared_responses(paths: dict[str, Any]) -> dict[str, Any]:
    """Every operation documents the same error answers (docsvc.api.app.ERROR_RESPONSES): the answer
    most operations give for a status is written once under components/responses, and the operations
    that give it refer to it; an operation's own answer for that status stays in place."""
    from docsvc.api.app import ERROR_RESPONSES

    statuses = {str(status) for status in ERROR_RESPONSES}
    given: dict[str, Counter[str]] = {status: Counter() for status in statuses}
    for operations in paths.values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if status in statuses:
                    given[status][json.dumps(response, sort_keys=True)] += 1
    shared = {
        f"Error{status}": json.loads(counts.most_common(1)[0][0])
        for status, counts in given.items()
        if counts
    }
    for operations in paths.values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if shared.get(f"Error{status}") == response:
                    operation["responses"][status] = {"$ref": f"#/components/responses/Error{status}"}
    return dict(sorted(shared.items(), key=lambda item: int(item[0][5:])))


def render(functions: list[LocalFunction]) -> str:
    return json.dumps(merged_openapi(functions), indent=2, sort_keys=False) + "\n"


def main(argv: list[str]) -> int:
    from docsvc.local.functions import functions_of
    from docsvc.local.stack import find_project_root
    from docsvc.local.template import Resolver, load_template, parameter_defaults

    root = find_project_root()
    template = load_template(root / "template.yaml")
    resolve = Resolver(
        pseudo={}, parameters=parameter_defaults(template), ref=str, attribute=lambda a, b: f"{a}.{b}"
    )
    target = Path(argv[0]) if argv else root / "docs" / "openapi.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(functions_of(template, resolve)))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

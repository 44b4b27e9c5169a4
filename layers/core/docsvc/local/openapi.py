"""One OpenAPI document for the whole API, merged from the app of every API function in template.yaml.

`python -m docsvc.local.openapi docs/openapi.json` (or `make openapi`) writes it.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

from docsvc import __version__
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
        document = function_app(function).openapi()
        for path, operations in document.get("paths", {}).items():
            paths.setdefault(path, {}).update(operations)
        for name, schema in document.get("components", {}).get("schemas", {}).items():
            if schemas.setdefault(name, schema) != schema:
                raise ValueError(f"two functions define the schema {name} differently")
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
        },
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": dict(sorted(schemas.items())), "securitySchemes": SECURITY_SCHEMES},
    }


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

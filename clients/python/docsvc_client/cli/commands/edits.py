"""`docsvc edits create|list|get|delete` and `docsvc edits templates …`: PDF forms filled from
instructions, and blank forms kept as templates.

    docsvc edits create form.pdf --instructions "Name: Jane Roe" --out filled.pdf
    docsvc edits templates fill etpl_… --data name="Jane Roe" --data citizen=true --out filled.pdf
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from docsvc_client.cli.commands import Commands, add_paging, group, leaf, paging
from docsvc_client.cli.context import Context
from docsvc_client.cli.errors import UsageError
from docsvc_client.cli.output import Column, Progress, render_table

EDIT_COLUMNS: list[Column] = [
    ("id", "id"),
    ("filename", "file.filename"),
    ("template", "template_id"),
    (
        "filled",
        lambda edit: sum(1 for field in edit["output"]["form_data"] if field.get("value") is not None),
    ),
    ("fields", lambda edit: len(edit["output"]["form_data"])),
    ("created", "created_at"),
]
TEMPLATE_COLUMNS: list[Column] = [
    ("id", "id"),
    ("name", "name"),
    ("filename", "file.filename"),
    ("fields", "field_count"),
    ("updated", "updated_at"),
]
FIELD_COLUMNS: list[Column] = [
    ("key", "key"),
    ("type", "type"),
    ("page", "bbox.page"),
    ("description", "description"),
    ("value", "value"),
]


def register(commands: Commands, common: argparse.ArgumentParser) -> None:
    actions = group(commands, "edits", "PDF forms filled from instructions")
    create = leaf(actions, "create", "fill a PDF form", _create, common)
    create.add_argument("document", metavar="PATH", nargs="?", help="a path, an http(s) URL or a file id")
    create.add_argument("--template", metavar="ID", help="fill this edit template instead of a document")
    _instructions(create, required=True)
    _filling(create)
    listing = leaf(actions, "list", "list edits", _list, common)
    listing.add_argument("--filename", help="filled document's name prefix")
    listing.add_argument("--template", metavar="ID", help="edits of this template")
    add_paging(listing)
    get = leaf(actions, "get", "an edit with its fields", _get, common)
    get.add_argument("id")
    get.add_argument("--out", type=Path, metavar="PATH", help="save the filled PDF here")
    leaf(actions, "delete", "delete an edit and its filled PDF", _delete, common, confirm=True).add_argument(
        "id"
    )

    templates = group(actions, "templates", "blank forms kept with their fields")
    make = leaf(templates, "create", "keep a blank form as a template", _template_create, common)
    make.add_argument("name")
    make.add_argument("document", metavar="PATH")
    generate = leaf(templates, "generate", "the fields found on a blank form", _template_generate, common)
    generate.add_argument("document", metavar="PATH")
    fill = leaf(templates, "fill", "fill a template", _template_fill, common)
    fill.add_argument("id")
    fill.add_argument(
        "--data", action="append", metavar="KEY=VALUE", default=[], help="repeat for each field"
    )
    _instructions(fill, required=False)
    _filling(fill)
    leaf(templates, "list", "list templates", _template_list, common).add_argument(
        "--name", help="part of the name"
    )
    leaf(templates, "get", "a template with its fields", _template_get, common).add_argument("id")
    leaf(templates, "delete", "delete a template", _template_delete, common, confirm=True).add_argument("id")


def _instructions(parser: argparse.ArgumentParser, *, required: bool) -> None:
    given = parser.add_mutually_exclusive_group(required=required)
    given.add_argument("--instructions", help="what to write, e.g. 'Name: Jane Roe'")
    given.add_argument(
        "--instructions-file", type=Path, metavar="PATH", help="read the instructions from a file"
    )


def _filling(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model")
    parser.add_argument("--color", help="colour of drawn text, #rgb or #rrggbb")
    parser.add_argument("--out", type=Path, metavar="PATH", help="save the filled PDF here")


def _instructions_of(args: argparse.Namespace) -> str | None:
    if getattr(args, "instructions_file", None) is not None:
        return str(args.instructions_file.read_text(encoding="utf-8"))
    return args.instructions  # type: ignore[no-any-return]


def _data(pairs: list[str]) -> dict[str, str]:
    data: dict[str, str] = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key.strip():
            raise UsageError(f"--data takes KEY=VALUE, not {pair!r}")
        data[key.strip()] = value
    return data


def _show_edit(context: Context, edit: Any, out: Path | None) -> None:
    if out is not None:
        context.client.edits.save_filled(edit, out)
    lines = [
        f"{field.get('key')}: {field.get('value')}"
        for field in edit["output"]["form_data"]
        if field.get("value") is not None
    ]
    saved = f"\nsaved {out}" if out is not None else ""
    context.emit(edit, f"{edit['id']}: {len(lines)} field(s) filled\n" + "\n".join(lines) + saved)


def _show_fields(context: Context, form: Any) -> None:
    """A template or a draft: its fields as a table, or the whole of it with --json."""
    fields = form.get("form_fields") or []
    context.emit(form, render_table(fields, FIELD_COLUMNS) if fields else "no fields")


def _create(context: Context) -> int:
    args = context.args
    if (args.document is None) == (args.template is None):
        raise UsageError("give a PATH or --template ID, not both and not neither")
    instructions = _instructions_of(args)
    if not instructions:
        raise UsageError("give --instructions or --instructions-file")
    with Progress(f"filling {args.document or args.template}"):
        edit = context.client.edits.create(
            args.document,
            instructions=instructions,
            template_id=args.template,
            model=args.model,
            color=args.color,
        )
    _show_edit(context, edit, args.out)
    return 0


def _list(context: Context) -> int:
    args = context.args
    page = context.client.edits.list(filename=args.filename, template_id=args.template, **paging(context))
    context.show_list(context.items(page), EDIT_COLUMNS, "edits")
    return 0


def _get(context: Context) -> int:
    args = context.args
    _show_edit(context, context.client.edits.get(args.id), args.out)
    return 0


def _delete(context: Context) -> int:
    edit_id = context.args.id
    context.confirm_production(f"delete edit {edit_id}")
    context.client.edits.delete(edit_id)
    context.emit({"id": edit_id, "deleted": True}, f"deleted {edit_id}")
    return 0


def _template_create(context: Context) -> int:
    args = context.args
    with Progress(f"reading {args.document}"):
        template = context.client.edits.templates.create(args.name, args.document)
    context.show(template, TEMPLATE_COLUMNS)
    return 0


def _template_generate(context: Context) -> int:
    with Progress(f"reading {context.args.document}"):
        draft = context.client.edits.templates.generate(context.args.document)
    _show_fields(context, draft)
    return 0


def _template_fill(context: Context) -> int:
    args = context.args
    data = _data(args.data)
    instructions = _instructions_of(args)
    if not data and instructions is None:
        raise UsageError("give --data KEY=VALUE, --instructions, or both")
    with Progress(f"filling {args.id}"):
        edit = context.client.edits.templates.fill(
            args.id, instructions=instructions, data=data or None, model=args.model, color=args.color
        )
    _show_edit(context, edit, args.out)
    return 0


def _template_list(context: Context) -> int:
    templates = list(context.client.edits.templates.list(name=context.args.name))
    context.show_list(templates, TEMPLATE_COLUMNS, "templates")
    return 0


def _template_get(context: Context) -> int:
    template = context.client.edits.templates.get(context.args.id)
    _show_fields(context, template)
    return 0


def _template_delete(context: Context) -> int:
    template_id = context.args.id
    context.confirm_production(f"delete edit template {template_id}")
    context.client.edits.templates.delete(template_id)
    context.emit({"id": template_id, "deleted": True}, f"deleted {template_id}")
    return 0

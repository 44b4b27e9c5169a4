"""Promotion: a test workflow's draft graph copied into production (spec 6, rule 5).

An organization-level act: run by an operator (`docsvc admin workflows promote`), or over HTTP with a
production key of the organization (`POST /v1/workflows/{id}/promotions`, where `id` is the test
workflow's), never with a test key. Both call `promote`. Only the graph crosses: runs, files, jobs
and secret values stay where they are. The answer says which secrets the graph refers to that
production lacks, and which URLs production could not reach.
"""

from __future__ import annotations

import ipaddress
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel

from docsvc.domain.workflows import SecretExists, WorkflowService
from docsvc.errors import Forbidden, NotFound
from docsvc.ids import new_id
from docsvc.tenancy import Tenant
from docsvc.workflows.catalog import secret_references
from docsvc.workflows.graph import Graph

TUNNEL_SUFFIXES = (
    "ngrok.io",
    "ngrok.app",
    "ngrok-free.app",
    "ngrok-free.dev",
    "trycloudflare.com",
    "loca.lt",
    "localtunnel.me",
    "serveo.net",
    "localhost.run",
    "lhr.life",
)


class Promotion(BaseModel):
    promotion_id: str
    source_workflow_id: str
    target_workflow_id: str
    created: bool  # a new production workflow, or the paired one's draft replaced
    missing_secrets: list[str]
    warnings: list[str]


class PromotionService:
    """Promotion asked for by an API key: only a production key of the organization may promote."""

    def __init__(self, workflows: WorkflowService, secret_exists: SecretExists) -> None:
        self._workflows = workflows
        self._secret_exists = secret_exists

    def promote(self, caller: Tenant, workflow_id: str) -> Promotion:
        if caller.environment != "production":
            raise Forbidden(
                "promotion writes to production, so it is done with a production key "
                "(the workflow id is the test workflow's); a test key cannot promote"
            )
        return promote(self._workflows, self._secret_exists, caller.organization_id, workflow_id)


def promote(
    workflows: WorkflowService, secret_exists: SecretExists, organization_id: str, workflow_id: str
) -> Promotion:
    test, production = Tenant(organization_id, "test"), Tenant(organization_id, "production")
    source = workflows.get(test, workflow_id)
    graph = workflows.graph(test, workflow_id)
    target = None
    if source.promoted_to:
        try:
            target = workflows.get(production, source.promoted_to)
        except NotFound:
            target = None  # deleted in production since: promote anew
    if target is None:
        target = workflows.create(production, source.name, source.description, graph, promoted_from=source.id)
        workflows.pair(test, source.id, target.id)
        created = True
    else:
        workflows.set_graph(production, target.id, graph)
        created = False
    names = sorted(set().union(*(secret_references(block.config or {}) for block in graph.blocks)))
    return Promotion(
        promotion_id=new_id("prm"),
        source_workflow_id=source.id,
        target_workflow_id=target.id,
        created=created,
        missing_secrets=[name for name in names if not secret_exists(production, name)],
        warnings=unreachable_urls(graph),
    )


def unreachable_urls(graph: Graph) -> list[str]:
    """A warning for each URL of a config that a production deployment cannot (or should not) reach."""
    warnings = []
    for block in graph.blocks:
        for url in _urls(block.config or {}):
            reason = _local_reason(urlsplit(url).hostname or "")
            if reason:
                warnings.append(f"block '{block.id}': {url} is {reason}; production cannot rely on it")
    return warnings


def _urls(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.lower().startswith(("http://", "https://")) else []
    if isinstance(value, dict):
        return [url for item in value.values() for url in _urls(item)]
    if isinstance(value, list):
        return [url for item in value for url in _urls(item)]
    return []


def _local_reason(host: str) -> str | None:
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return "on localhost"
    if any(name == suffix or name.endswith("." + suffix) for suffix in TUNNEL_SUFFIXES):
        return "a tunnel to a developer's machine"
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return None
    if address.is_loopback:
        return "a loopback address"
    if not address.is_global:
        return "a private address"
    return None

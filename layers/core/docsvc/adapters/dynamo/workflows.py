"""Workflows in DynamoDB, partition `ORG#<org>#ENV#<env>`:
- `WF#<id>`: the workflow;
- `GRAPH#<id>#DRAFT` and `GRAPH#<id>#V<000001>`: its draft and published graphs (kept in S3 when large);
- `RUN#<id>`: a run, with its inputs; index `runs_by_workflow` lists a workflow's runs by key.
A run's final write carries its event in the same transaction. A run's S3 objects live under
`workflows/<org>/<env>/runs/<run id>/` (`inputs.json`, `run-<status>.json`) and go with it when it is
deleted. With the RunRetentionDays deployment parameter set, a run carries `ttl` (its `created_at` plus
that many days), which DynamoDB's TTL deletes it by, and its S3 objects the tag `retention=run`, which
the bucket's lifecycle rule of that name expires after the same number of days.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.events import event_put
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.values import from_dynamo, retention, to_dynamo
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.domain.events import Event
from docsvc.domain.lists import ListQuery, Page
from docsvc.domain.workflows import RUN_STATUSES, RunInputs, RunStatus, Workflow, WorkflowRun
from docsvc.tenancy import Tenant
from docsvc.workflows.graph import Graph

WORKFLOW = "WF#"
GRAPH = "GRAPH#"
RUN = "RUN#"


class DynamoWorkflowStore(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, bucket: str | None = None) -> None:
        super().__init__(table_name or settings().workflows_table)
        self._payloads = PayloadStore(bucket or settings().files_bucket)

    # ------------------------------------------------------------------ workflows
    def put_workflow(self, tenant: Tenant, workflow: Workflow, *, new: bool) -> bool:
        item = {"pk": tenant.key, "sk": WORKFLOW + workflow.id, **workflow.model_dump()}
        condition = "attribute_not_exists(pk)" if new else "attribute_exists(pk)"
        return aws.written(lambda: self._table.put_item(Item=item, ConditionExpression=condition))

    def get_workflow(self, tenant: Tenant, workflow_id: str) -> Workflow | None:
        item = self._get(tenant, WORKFLOW + workflow_id)
        return _model(Workflow, item) if item else None

    def workflows(self, tenant: Tenant, query: ListQuery) -> Page[Workflow]:
        page = list_page(self._table, Listing(tenant.key, WORKFLOW, "wf", tenant.key), query)
        return page.of(lambda item: _model(Workflow, item))

    def delete_workflow(self, tenant: Tenant, workflow_id: str) -> bool:
        old = self._table.delete_item(
            Key={"pk": tenant.key, "sk": WORKFLOW + workflow_id}, ReturnValues="ALL_OLD"
        )
        self._table.delete_item(Key={"pk": tenant.key, "sk": _graph_key(workflow_id, None)})
        return "Attributes" in old

    # ------------------------------------------------------------------ graphs
    def put_graph(self, tenant: Tenant, workflow_id: str, graph: Graph, version: int | None) -> None:
        name = "draft" if version is None else f"v{version}"
        stored = self._payloads.stored(
            f"workflows/{tenant.storage_prefix}/{workflow_id}/{name}-{_stamp()}.json",
            graph.model_dump(mode="json", by_alias=False),
        )
        self._table.put_item(Item={"pk": tenant.key, "sk": _graph_key(workflow_id, version), "graph": stored})

    def get_graph(self, tenant: Tenant, workflow_id: str, version: int | None) -> Graph | None:
        item = self._get(tenant, _graph_key(workflow_id, version))
        return Graph.model_validate(self._payloads.load(item["graph"])) if item else None

    # ------------------------------------------------------------------ runs
    def put_run(
        self,
        tenant: Tenant,
        run: WorkflowRun,
        inputs: RunInputs | None,
        *,
        expected: RunStatus | None,
        event: Event | None = None,
    ) -> bool:
        expiry = retention(run.created_at, settings().run_retention_days)
        tag = "run" if expiry else None
        item: dict[str, Any] = {
            "pk": tenant.key,
            "sk": RUN + run.id,
            "workflow_pk": f"{tenant.key}#WF#{run.workflow_id}",
            "run": self._payloads.stored(
                f"{_run_folder(tenant, run.id)}run-{run.status}.json", run.model_dump(mode="json"), tag
            ),
            **expiry,
        }
        if inputs is not None:
            item["inputs"] = self._payloads.stored(
                f"{_run_folder(tenant, run.id)}inputs.json", inputs.model_dump(mode="json"), tag
            )
        else:
            current = self._get(tenant, RUN + run.id)
            item["inputs"] = (current or {}).get("inputs")
        item["status"] = run.status
        put: dict[str, Any] = {"TableName": self._table_name, "Item": to_dynamo(item)}
        if expected is None:
            put["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            put["ConditionExpression"] = "#status = :expected"
            put["ExpressionAttributeNames"] = {"#status": "status"}
            put["ExpressionAttributeValues"] = {":expected": expected}
        writes = [{"Put": put}] + ([event_put(tenant, event)] if event else [])
        return aws.written(lambda: self._table.meta.client.transact_write_items(TransactItems=writes))

    def delete_run(self, tenant: Tenant, run_id: str, ended: frozenset[str]) -> bool:
        try:
            self._table.delete_item(
                Key={"pk": tenant.key, "sk": RUN + run_id},
                ConditionExpression=f"#status IN ({', '.join(f':s{index}' for index in range(len(ended)))})",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={f":s{index}": state for index, state in enumerate(sorted(ended))},
            )
        except Exception as error:
            if aws.condition_refused(error):
                return False
            raise
        folder = _run_folder(tenant, run_id)
        self._payloads.forget_keys(
            [f"{folder}inputs.json", *(f"{folder}run-{status}.json" for status in RUN_STATUSES)]
        )
        return True

    def get_run(self, tenant: Tenant, run_id: str) -> WorkflowRun | None:
        item = self._get(tenant, RUN + run_id)
        return self._run(item) if item else None

    def run_inputs(self, tenant: Tenant, run_id: str) -> RunInputs | None:
        item = self._get(tenant, RUN + run_id)
        stored = (item or {}).get("inputs")
        return RunInputs.model_validate(self._payloads.load(stored)) if stored else None

    def runs(self, tenant: Tenant, workflow_id: str, query: ListQuery) -> Page[WorkflowRun]:
        listing = Listing(
            tenant.key,
            RUN,
            "run",
            f"{tenant.key}#WF#{workflow_id}",
            key="workflow_pk",
            index="runs_by_workflow",
        )
        return list_page(self._table, listing, query).of(self._run)

    # ------------------------------------------------------------------ reading
    def _get(self, tenant: Tenant, sort_key: str) -> dict[str, Any] | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": sort_key}, ConsistentRead=True).get("Item")
        return from_dynamo(item) if item else None

    def _run(self, item: dict[str, Any]) -> WorkflowRun:
        return WorkflowRun.model_validate(self._payloads.load(from_dynamo(item)["run"]))


def _run_folder(tenant: Tenant, run_id: str) -> str:
    return f"workflows/{tenant.storage_prefix}/runs/{run_id}/"


def _graph_key(workflow_id: str, version: int | None) -> str:
    return f"{GRAPH}{workflow_id}#" + ("DRAFT" if version is None else f"V{version:06d}")


def _stamp() -> str:
    from docsvc.ids import new_id

    return new_id("g")


def _model(kind: type[Workflow], item: dict[str, Any]) -> Workflow:
    return kind.model_validate({key: value for key, value in item.items() if key in kind.model_fields})

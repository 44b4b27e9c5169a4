"""Jobs in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `JOB#<id>` (ids are time-ordered, so
the sort key is the creation order and a date range is a key range).

Indexes, each a partition per tenant and value with the same sort key, so the common filters are a
key query: `jobs_by_status`, `jobs_by_endpoint`, `jobs_by_workflow` (only jobs with a workflow id).
`jobs_expiring` holds the jobs that still hold their request and response (with their status), by the
day of their `expires_at`, for the sweeper: it expires the unfinished ones and, once `expires_at` has
passed, removes the request and response of the ended ones (`forget_data`), which takes the job out of
the index.
Idempotency keys live beside the jobs under `IDEMPOTENCY#<sha256 of the key>`.

A request or response is kept in the item when its JSON is small, else in S3 under
`jobs/<org>/<env>/<job id>/` (PayloadStore); either way it is read only when asked for.

Retention: the sweeper (every 5 minutes) deletes a job's S3 objects itself when its `expires_at` passes,
rather than a bucket lifecycle rule: a lifecycle rule counts from an object's creation, and a retry
renews `expires_at` without rewriting the request, so it would remove a retried job's request early and
a late response too late. Every job item carries `ttl` = `expires_at` + RECORD_KEPT_SECONDS, so
DynamoDB deletes the record (by then without its data) a month after its expiry; the idempotency
claims carry their own `ttl`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.events import event_put
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.values import from_dynamo, record_fields, to_dynamo
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.domain.events import Event
from docsvc.domain.jobs import (
    ENTERED_FROM,
    RECORD_KEPT_SECONDS,
    TERMINAL,
    UNFINISHED,
    IdempotencyClaim,
    JobQuery,
    JobRecord,
    JobResponse,
)
from docsvc.domain.lists import Page
from docsvc.tenancy import Tenant

_JOB = "JOB#"
_IDEMPOTENCY = "IDEMPOTENCY#"
_EXPIRY = "EXPIRY#"
_STATE_FIELDS = ("status", "error", "started_at", "completed_at", "expires_at")


def _partition(tenant: Tenant, name: str, value: str) -> str:
    return f"{tenant.key}#{name}#{value}"


def _expiry_day(expires_at: int) -> str:
    return _EXPIRY + datetime.fromtimestamp(expires_at, UTC).date().isoformat()


def _index_keys(tenant: Tenant, job: JobRecord) -> dict[str, Any]:
    """The keys of the indexes the job is in, in its current state (it holds its data until
    `forget_data`), and its TTL."""
    return {
        "status_pk": _partition(tenant, "STATUS", job.status),
        "expiry_pk": _expiry_day(job.expires_at),
        "ttl": job.expires_at + RECORD_KEPT_SECONDS,
    }


def job_item(tenant: Tenant, job: JobRecord, request: dict[str, Any] | None) -> dict[str, Any]:
    """The item of a new job; `request` is its stored form (see `_payload`)."""
    item: dict[str, Any] = {
        "pk": tenant.key,
        "sk": _JOB + job.id,
        "endpoint_pk": _partition(tenant, "ENDPOINT", job.endpoint),
        **_index_keys(tenant, job),
        **job.model_dump(mode="json", exclude={"request", "response"}),
        "request": request,
    }
    if job.workflow_id:
        item["workflow_pk"] = _partition(tenant, "WORKFLOW", job.workflow_id)
    stored: dict[str, Any] = to_dynamo(item)
    return stored


class DynamoJobRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, bucket: str | None = None) -> None:
        super().__init__(table_name or settings().jobs_table)
        self._payloads = PayloadStore(bucket or settings().files_bucket)

    # ------------------------------------------------------------------ writes
    def create(
        self, tenant: Tenant, job: JobRecord, claim: IdempotencyClaim | None
    ) -> IdempotencyClaim | None:
        item = job_item(tenant, job, self._payload(tenant, job.id, "request", job.request))
        put = {
            "TableName": self._table_name,
            "Item": item,
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        if claim is None:
            self._table.put_item(**{key: value for key, value in put.items() if key != "TableName"})
            return None
        claim_put = {
            "TableName": self._table_name,
            "Item": {
                "pk": tenant.key,
                "sk": _claim_key(claim.key),
                "job_id": claim.job_id,
                "body_sha256": claim.body_sha256,
                "expires_at": claim.expires_at,
                "ttl": claim.expires_at,
            },
            "ConditionExpression": "attribute_not_exists(pk) OR expires_at < :now",
            "ExpressionAttributeValues": {":now": job.created_at},
        }
        try:
            self._table.meta.client.transact_write_items(TransactItems=[{"Put": put}, {"Put": claim_put}])
        except Exception as error:
            if not aws.condition_refused(error):
                raise
            holder = self._claim(tenant, claim.key)
            if holder is None or holder.expires_at < job.created_at:
                raise  # not refused for the key: let the caller see the failure
            return holder
        return None

    def move(self, tenant: Tenant, job: JobRecord, event: Event | None = None) -> bool:
        states = sorted(ENTERED_FROM[job.status])
        values: dict[str, Any] = {f":s{index}": state for index, state in enumerate(states)}
        names = {"#status": "status"}
        assignments = []
        for field in (*_STATE_FIELDS, "response", *_index_keys(tenant, job)):
            names[f"#{field}"] = field
            assignments.append(f"#{field} = :{field}")
        values |= {f":{field}": value for field, value in _index_keys(tenant, job).items()}
        state = job.model_dump(mode="json", include=set(_STATE_FIELDS))
        values |= {f":{field}": value for field, value in state.items()}
        values[":response"] = self._payload(
            tenant, job.id, "response", job.response.model_dump(mode="json") if job.response else None
        )
        expression = "SET " + ", ".join(assignments)
        condition = f"#status IN ({', '.join(f':s{index}' for index in range(len(states)))})"
        if job.status == "validating":  # a retry: only while the sweeper has not removed the request
            condition += " AND attribute_exists(#request)"
            names["#request"] = "request"
        update = {
            "TableName": self._table_name,
            "Key": {"pk": tenant.key, "sk": _JOB + job.id},
            "UpdateExpression": expression,
            "ConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": to_dynamo(values),
        }
        items: list[dict[str, Any]] = [{"Update": update}]
        if event is not None:
            items.append(event_put(tenant, event))
        return aws.written(lambda: self._table.meta.client.transact_write_items(TransactItems=items))

    # ------------------------------------------------------------------ reads
    def get(
        self, tenant: Tenant, job_id: str, *, with_request: bool = False, with_response: bool = False
    ) -> JobRecord | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _JOB + job_id}, ConsistentRead=True).get(
            "Item"
        )
        return self._record(item, with_request, with_response) if item else None

    def status(self, tenant: Tenant, job_id: str) -> str | None:
        item = self._table.get_item(
            Key={"pk": tenant.key, "sk": _JOB + job_id},
            ConsistentRead=True,
            ProjectionExpression="#status",
            ExpressionAttributeNames={"#status": "status"},
        ).get("Item")
        return str(item["status"]) if item else None

    def list(self, tenant: Tenant, query: JobQuery, keep: Callable[[JobRecord], bool]) -> Page[JobRecord]:
        if query.id:  # one job at most: a key read
            job = self.get(
                tenant, query.id, with_request=query.include_request, with_response=query.include_response
            )
            return Page[JobRecord](
                items=[job] if job and keep(job) else [], has_previous=False, has_next=False
            )
        index, key, partition, answered = _best_key(tenant, query)
        listing = Listing(tenant.key, _JOB, "job", partition, key=key, index=index)
        filtered = bool(query.filters() - answered)
        page = list_page(
            self._table,
            listing,
            query,
            keep=(lambda item: keep(self._record(item, False, False))) if filtered else None,
        )
        return page.of(lambda item: self._record(item, query.include_request, query.include_response))

    def _expiring(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str, str]]:
        """(tenant, id, status) of the jobs in `jobs_expiring` whose `expires_at` lies in the range."""
        first = datetime.fromtimestamp(expiring_from, UTC).date()
        last = datetime.fromtimestamp(expiring_to, UTC).date()
        for days in range((last - first).days + 1):
            params: dict[str, Any] = {
                "IndexName": "jobs_expiring",
                "KeyConditionExpression": "expiry_pk = :day AND expires_at BETWEEN :from AND :to",
                "ExpressionAttributeValues": {
                    ":day": _EXPIRY + (first + timedelta(days=days)).isoformat(),
                    ":from": expiring_from,
                    ":to": expiring_to,
                },
            }
            while True:
                response = self._table.query(**params)
                for item in response["Items"]:
                    tenant = _tenant_of(str(item["pk"]))
                    if tenant is not None:
                        yield tenant, str(item["sk"]).removeprefix(_JOB), str(item["status"])
                if "LastEvaluatedKey" not in response:
                    break
                params["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def unfinished(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str, str]]:
        for tenant, job_id, status in self._expiring(expiring_from, expiring_to):
            if status in UNFINISHED:
                yield tenant, job_id, status

    def holding_data(self, expiring_from: int, expiring_to: int) -> Iterator[tuple[Tenant, str]]:
        for tenant, job_id, _ in self._expiring(expiring_from, expiring_to):
            yield tenant, job_id

    def forget_data(self, tenant: Tenant, job_id: str, now: int) -> bool:
        ended, values = _ended()
        return self._removed(
            self._table.update_item,
            tenant,
            job_id,
            UpdateExpression="REMOVE #request, #response, expiry_pk",
            ConditionExpression=f"expires_at <= :now AND {ended}",
            ExpressionAttributeNames={"#status": "status", "#request": "request", "#response": "response"},
            ExpressionAttributeValues={":now": now, **values},
        )

    def delete(self, tenant: Tenant, job_id: str) -> bool:
        ended, values = _ended()
        return self._removed(
            self._table.delete_item,
            tenant,
            job_id,
            ConditionExpression=ended,
            ExpressionAttributeNames={"#status": "status"},
            ExpressionAttributeValues=values,
        )

    def _removed(self, write: Callable[..., Any], tenant: Tenant, job_id: str, **params: Any) -> bool:
        """Run the conditional `write` on the job's item, then delete the S3 objects of the request and
        response it held; False when the condition refused it (nothing is removed then)."""
        try:
            old = write(Key={"pk": tenant.key, "sk": _JOB + job_id}, ReturnValues="ALL_OLD", **params)
        except Exception as error:
            if aws.condition_refused(error):
                return False
            raise
        item = from_dynamo(old["Attributes"])
        for name in ("request", "response"):
            self._payloads.forget(item.get(name))
        return True

    # ------------------------------------------------------------------ helpers
    def _claim(self, tenant: Tenant, key: str) -> IdempotencyClaim | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _claim_key(key)}, ConsistentRead=True).get(
            "Item"
        )
        if not item:
            return None
        return IdempotencyClaim(key, str(item["job_id"]), str(item["body_sha256"]), int(item["expires_at"]))

    def _record(self, item: dict[str, Any], with_request: bool, with_response: bool) -> JobRecord:
        fields = record_fields(item, JobRecord)
        fields["request"] = self._payloads.load(fields.get("request")) if with_request else None
        response = self._payloads.load(fields.get("response")) if with_response else None
        fields["response"] = JobResponse.model_validate(response) if response else None
        return JobRecord.model_validate(fields)

    def _payload(self, tenant: Tenant, job_id: str, name: str, value: Any) -> dict[str, Any] | None:
        return self._payloads.stored(f"jobs/{tenant.storage_prefix}/{job_id}/{name}.json", value)


def _best_key(tenant: Tenant, query: JobQuery) -> tuple[str | None, str, str, frozenset[str]]:
    """(index, key attribute, partition, the filters it answers) of the narrowest read for the query:
    a workflow, a status, an endpoint, else the whole environment. The other filters run on what it
    reads; with none, items are read a page at a time and never parsed twice."""
    if query.workflow_id:
        partition = _partition(tenant, "WORKFLOW", query.workflow_id)
        return "jobs_by_workflow", "workflow_pk", partition, frozenset({"workflow_id"})
    if query.status:
        partition = _partition(tenant, "STATUS", query.status)
        return "jobs_by_status", "status_pk", partition, frozenset({"status"})
    if query.endpoint:
        partition = _partition(tenant, "ENDPOINT", query.endpoint)
        return "jobs_by_endpoint", "endpoint_pk", partition, frozenset({"endpoint"})
    return None, "pk", tenant.key, frozenset()


def _ended() -> tuple[str, dict[str, str]]:
    """The condition "the job has ended" (on `#status`) and its values."""
    states = {f":ended{index}": state for index, state in enumerate(sorted(TERMINAL))}
    return f"#status IN ({', '.join(states)})", states


def _claim_key(key: str) -> str:
    return _IDEMPOTENCY + hashlib.sha256(key.encode()).hexdigest()


def _tenant_of(partition: str) -> Tenant | None:
    """The tenant of a partition key `ORG#<org>#ENV#<env>` (None for any other key)."""
    if partition.count("#") != 3:
        return None
    try:
        return Tenant.of_key(partition)
    except ValueError:
        return None

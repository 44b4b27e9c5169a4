"""Parses in DynamoDB: partition `ORG#<org>#ENV#<env>`, sort key `PARSE#<id>`; the cache of identical
inputs under `CACHE#<key>`. Index `parses_by_status`: a partition per tenant and status, so a list by
status is a key query. Outputs live in S3 (ParseStore): a record stays far below DynamoDB's 400 KB.
"""

from __future__ import annotations

import time
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.events import event_put
from docsvc.adapters.dynamo.pages import Listing, list_page
from docsvc.adapters.dynamo.usage import usage_add
from docsvc.adapters.dynamo.values import record_fields, to_dynamo
from docsvc.clock import iso, utc_now
from docsvc.config import settings
from docsvc.domain.events import Event
from docsvc.domain.lists import Page
from docsvc.domain.parses import ParseQuery, ParseRecord
from docsvc.domain.usage import Charge
from docsvc.tenancy import Tenant

_PARSE = "PARSE#"
_CACHE = "CACHE#"
_CACHE_DAYS = 30


def _item(tenant: Tenant, record: ParseRecord) -> dict[str, Any]:
    fields = record.model_dump(exclude={"output"}, mode="json")
    return {
        "pk": tenant.key,
        "sk": _PARSE + record.id,
        "status_pk": _status_partition(tenant, record.status),
        "filename": record.file.filename,
        **fields,
    }


def _status_partition(tenant: Tenant, status: str) -> str:
    return f"{tenant.key}#STATUS#{status}"


def _record(item: dict[str, Any]) -> ParseRecord:
    return ParseRecord.model_validate(record_fields(item, ParseRecord))


class DynamoParseRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().parses_table)

    def put(
        self,
        tenant: Tenant,
        record: ParseRecord,
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> None:
        self._write(tenant, {"Item": to_dynamo(_item(tenant, record))}, record.id, event, charge, cache_key)

    def move(
        self,
        tenant: Tenant,
        record: ParseRecord,
        from_states: frozenset[str],
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> bool:
        states = sorted(from_states)
        put = {
            "Item": to_dynamo(_item(tenant, record)),
            "ConditionExpression": f"#status IN ({', '.join(f':s{index}' for index in range(len(states)))})",
            "ExpressionAttributeNames": {"#status": "status"},
            "ExpressionAttributeValues": {f":s{index}": state for index, state in enumerate(states)},
        }
        return aws.written(lambda: self._write(tenant, put, record.id, event, charge, cache_key))

    def _write(
        self,
        tenant: Tenant,
        put: dict[str, Any],
        parse_id: str,
        event: Event | None,
        charge: Charge | None,
        cache_key: str | None,
    ) -> None:
        """The record, and what comes with it (its event, its usage, its cache entry), in one write."""
        extra: list[dict[str, Any]] = []
        if event is not None:
            extra.append(event_put(tenant, event))
        if charge is not None:
            extra.append(usage_add(tenant, charge))
        if cache_key is not None:
            entry = _cache_item(tenant, cache_key, parse_id)
            extra.append({"Put": {"TableName": self._table_name, "Item": entry}})
        if not extra:
            self._table.put_item(**put)
            return
        self._table.meta.client.transact_write_items(
            TransactItems=[{"Put": {"TableName": self._table_name, **put}}, *extra]
        )

    def get(self, tenant: Tenant, parse_id: str) -> ParseRecord | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _PARSE + parse_id}, ConsistentRead=True).get(
            "Item"
        )
        return _record(item) if item else None

    def delete(self, tenant: Tenant, parse_id: str) -> ParseRecord | None:
        old = self._table.delete_item(Key={"pk": tenant.key, "sk": _PARSE + parse_id}, ReturnValues="ALL_OLD")
        return _record(old["Attributes"]) if "Attributes" in old else None

    def list(self, tenant: Tenant, query: ParseQuery) -> Page[ParseRecord]:
        by_status = query.status is not None
        listing = Listing(
            tenant.key,
            _PARSE,
            "parse",
            _status_partition(tenant, query.status) if query.status else tenant.key,
            key="status_pk" if by_status else "pk",
            index="parses_by_status" if by_status else None,
        )
        if query.filename:  # a prefix within the tenant's time-ordered parses
            page = list_page(
                self._table,
                listing,
                query,
                filter_expression="begins_with(filename, :prefix)",
                filter_values={":prefix": query.filename},
            )
        else:
            page = list_page(self._table, listing, query)
        return page.of(_record)

    def cached(self, tenant: Tenant, cache_key: str) -> str | None:
        item = self._table.get_item(Key={"pk": tenant.key, "sk": _CACHE + cache_key}).get("Item")
        return str(item["parse_id"]) if item else None


def _cache_item(tenant: Tenant, cache_key: str, parse_id: str) -> dict[str, Any]:
    return {
        "pk": tenant.key,
        "sk": _CACHE + cache_key,
        "parse_id": parse_id,
        "ttl": int(time.time()) + _CACHE_DAYS * 86400,
        "created_at": iso(utc_now()),
    }

"""Everything one environment of one organization stored, deleted: the operator's purge.

Every table of the service but the accounts table has the partition key `ORG#<org>#ENV#<env>` for
everything a tenant owns (see each adapter's key layout), so a tenant's items are one Query per table on
that partition (keys only, a page at a time), deleted in batches; no table is scanned. Indexes follow
their table. Every object of the files bucket is under `<kind>/<org>/<env>/`: the kinds are the bucket's
top-level prefixes (one delimited listing), and each tenant folder is listed and deleted by its prefix.
The environment's secrets (its own and its webhook signing secret) are the Secrets Manager secrets
named `<stack>/<org>/<env>/...`, listed by that name prefix.

Not touched: the accounts table (partition key: the hash of an API key; the organization, its two
environments and its keys stay, so the environment can be used again at once), and, unless asked, the
usage table (the bill: pages and credits per day, no document data).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.payloads import PayloadStore
from docsvc.config import settings
from docsvc.tenancy import Tenant


@dataclass
class PurgeReport:
    """What a purge removed: items per table, objects per bucket prefix, secrets."""

    organization_id: str
    environment: str
    items: dict[str, int] = field(default_factory=dict)
    objects: dict[str, int] = field(default_factory=dict)
    secrets: int = 0
    kept: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"purged {self.organization_id}/{self.environment}",
            *(f"  table {name}: {count} items" for name, count in self.items.items()),
            *(f"  bucket {prefix}: {count} objects" for prefix, count in self.objects.items()),
            f"  secrets: {self.secrets}",
            *(f"  kept: {what}" for what in self.kept),
        ]


class EnvironmentPurge:
    def __init__(self, bucket: str | None = None, secrets_prefix: str | None = None) -> None:
        self._bucket = bucket or settings().files_bucket
        self._secrets_prefix = secrets_prefix or settings().secrets_prefix

    def tables(self, include_usage: bool) -> dict[str, str]:
        """The tables keyed by tenant, by the name the report gives them."""
        config = settings()
        tables = {
            "files": config.files_table,
            "parses": config.parses_table,
            "jobs": config.jobs_table,
            "results": config.results_table,
            "events": config.events_table,
            "webhooks": config.webhooks_table,
            "workflows": config.workflows_table,
            "secrets": config.secrets_table,
            "tables": config.tables_table,
            "idempotency": config.idempotency_table,
        }
        return tables | ({"usage": config.usage_table} if include_usage else {})

    def purge(self, tenant: Tenant, *, include_usage: bool = False) -> PurgeReport:
        report = PurgeReport(tenant.organization_id, tenant.environment)
        for name, table in self.tables(include_usage).items():
            report.items[name] = self._delete_partition(table, tenant.key)
        for kind in self._kinds():
            prefix = f"{kind}{tenant.storage_prefix}/"
            report.objects[prefix] = self._delete_prefix(prefix)
        report.secrets = self._delete_secrets(f"{self._secrets_prefix}/{tenant.storage_prefix}/")
        report.kept = ["accounts (the organization, its environments and API keys)"]
        if not include_usage:
            report.kept.append("usage (the bill)")
        return report

    def count(self, tenant: Tenant, *, include_usage: bool = True) -> dict[str, int]:
        """The tenant's items per table and objects per prefix, by the same keys a purge reads."""
        counts = {
            f"table {name}": sum(1 for _ in self._keys(table, tenant.key))
            for name, table in self.tables(include_usage).items()
        }
        for kind in self._kinds():
            prefix = f"{kind}{tenant.storage_prefix}/"
            counts[f"bucket {prefix}"] = sum(1 for _ in self._objects(prefix))
        return counts

    # ------------------------------------------------------------------ DynamoDB
    def _keys(self, table_name: str, partition: str) -> Iterator[dict[str, Any]]:
        table = aws.table(table_name)
        key_names = [entry["AttributeName"] for entry in table.key_schema]
        params: dict[str, Any] = {
            "KeyConditionExpression": "#pk = :pk",
            "ExpressionAttributeNames": {f"#k{index}": name for index, name in enumerate(key_names)}
            | {"#pk": key_names[0]},
            "ExpressionAttributeValues": {":pk": partition},
            "ProjectionExpression": ", ".join(f"#k{index}" for index in range(len(key_names))),
        }
        while True:
            page = table.query(**params)
            yield from page["Items"]
            if "LastEvaluatedKey" not in page:
                return
            params["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _delete_partition(self, table_name: str, partition: str) -> int:
        deleted = 0
        with aws.table(table_name).batch_writer() as batch:
            for key in list(self._keys(table_name, partition)):
                batch.delete_item(Key=key)
                deleted += 1
        return deleted

    # ------------------------------------------------------------------ S3
    def _kinds(self) -> list[str]:
        """The bucket's top-level prefixes (`files/`, `jobs/`, ...)."""
        pages = aws.s3().get_paginator("list_objects_v2").paginate(Bucket=self._bucket, Delimiter="/")
        return sorted(entry["Prefix"] for page in pages for entry in page.get("CommonPrefixes", []))

    def _objects(self, prefix: str) -> Iterator[str]:
        pages = aws.s3().get_paginator("list_objects_v2").paginate(Bucket=self._bucket, Prefix=prefix)
        for page in pages:
            yield from (str(entry["Key"]) for entry in page.get("Contents", []))

    def _delete_prefix(self, prefix: str) -> int:
        keys = list(self._objects(prefix))
        PayloadStore(self._bucket).forget_keys(keys)
        return len(keys)

    # ------------------------------------------------------------------ Secrets Manager
    def _delete_secrets(self, name_prefix: str) -> int:
        client = aws.secretsmanager()
        names = [
            str(secret["Name"])
            for page in client.get_paginator("list_secrets").paginate(
                Filters=[{"Key": "name", "Values": [name_prefix]}]
            )
            for secret in page.get("SecretList", [])
            if str(secret["Name"]).startswith(name_prefix)  # the filter matches a prefix of words too
        ]
        for name in names:
            client.delete_secret(SecretId=name, ForceDeleteWithoutRecovery=True)
        return len(names)

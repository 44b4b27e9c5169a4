"""Idempotency-Key claims in DynamoDB (IdempotencyTable): partition `ORG#<org>#ENV#<env>`, sort key
`KEY#<sha256 of the key>`.

An item holds `fingerprint`, `token`, `state` (`in_flight` or `answered`), `expires_at` and `ttl` (the
same Unix seconds: DynamoDB's TTL deletes an expired claim; until it does, a claim past `expires_at` is
taken over as if absent). An answered claim adds `status`, `headers` (a JSON list of pairs) and the body:
`body` (bytes) when it is small, else `body_key`, the S3 object
`idempotency/<org>/<env>/<sha256 of the key>/<token>` of the files bucket, which the bucket's lifecycle
deletes after two days (a day past the claim's expiry at the latest).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.blobs import S3BlobStore
from docsvc.config import settings
from docsvc.domain.idempotency import Claim, StoredAnswer
from docsvc.tenancy import Tenant

_KEY = "KEY#"
PREFIX = "idempotency"
INLINE_BYTES = 300 * 1024  # a DynamoDB item holds 400 KB with its names and the other attributes


class DynamoClaimStore(aws.DynamoTable):
    def __init__(self, table_name: str | None = None, blobs: S3BlobStore | None = None) -> None:
        super().__init__(table_name or settings().idempotency_table)
        self._blobs = blobs or S3BlobStore()

    def take(self, tenant: Tenant, claim: Claim, now: int) -> Claim | None:
        item = {
            **_key(tenant, claim.key),
            "fingerprint": claim.fingerprint,
            "token": claim.token,
            "state": claim.state,
            "expires_at": claim.expires_at,
            "ttl": claim.expires_at,
        }
        written = aws.written(
            lambda: self._table.put_item(
                Item=item,
                ConditionExpression="attribute_not_exists(pk) OR expires_at < :now",
                ExpressionAttributeValues={":now": now},
            )
        )
        return None if written else self._holder(tenant, claim.key)

    def answer(self, tenant: Tenant, claim: Claim) -> bool:
        answer = claim.answer
        assert answer is not None
        names = {"#state": "state", "#status": "status", "#token": "token", "#ttl": "ttl"}
        values: dict[str, Any] = {
            ":answered": "answered",
            ":in_flight": "in_flight",
            ":token": claim.token,
            ":expires_at": claim.expires_at,
            ":status": answer.status,
            ":headers": json.dumps(answer.headers),
        }
        if len(answer.body) <= INLINE_BYTES:
            values[":body"] = answer.body
            body = "body = :body"
        else:
            key = f"{PREFIX}/{tenant.storage_prefix}/{_digest(claim.key)}/{claim.token}"
            self._blobs.put(key, answer.body, "application/octet-stream")
            values[":body"] = key
            body = "body_key = :body"
        return aws.written(
            lambda: self._table.update_item(
                Key=_key(tenant, claim.key),
                UpdateExpression=f"SET #state = :answered, expires_at = :expires_at, #ttl = :expires_at, "
                f"#status = :status, headers = :headers, {body}",
                ConditionExpression="#token = :token AND #state = :in_flight",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
        )

    def release(self, tenant: Tenant, claim: Claim) -> None:
        aws.written(
            lambda: self._table.delete_item(
                Key=_key(tenant, claim.key),
                ConditionExpression="#token = :token",
                ExpressionAttributeNames={"#token": "token"},
                ExpressionAttributeValues={":token": claim.token},
            )
        )

    def _holder(self, tenant: Tenant, key: str) -> Claim | None:
        item = self._table.get_item(Key=_key(tenant, key), ConsistentRead=True).get("Item")
        if not item:
            return None
        answer = None
        if item["state"] == "answered":
            body = bytes(item["body"]) if "body" in item else self._blobs.read(str(item["body_key"]))
            headers = tuple((str(name), str(value)) for name, value in json.loads(str(item["headers"])))
            answer = StoredAnswer(int(item["status"]), headers, body)
        return Claim(
            key=key,
            fingerprint=str(item["fingerprint"]),
            token=str(item["token"]),
            state="answered" if item["state"] == "answered" else "in_flight",
            expires_at=int(item["expires_at"]),
            answer=answer,
        )


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _key(tenant: Tenant, key: str) -> dict[str, str]:
    return {"pk": tenant.key, "sk": _KEY + _digest(key)}

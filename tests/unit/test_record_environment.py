"""A record read back from DynamoDB carries the environment its partition key names, also when it was
written before records carried it."""

from __future__ import annotations

import pytest
from docsvc.adapters.dynamo.values import record_fields
from docsvc.domain.files import FileRecord
from docsvc.tenancy import Tenant

ITEM = {
    "pk": "ORG#org_1#ENV#production",
    "sk": "FILE#file_1",
    "id": "file_1",
    "filename": "a.pdf",
    "mime_type": "application/pdf",
    "created_at": "2026-01-01T00:00:00Z",
    "updated_at": "2026-01-01T00:00:00Z",
    "size_bytes": 3,
}


def test_an_item_written_without_its_environment_is_read_with_that_of_its_key() -> None:
    record = FileRecord.model_validate(record_fields(ITEM, FileRecord))

    assert record.environment == "production"


def test_the_key_decides_over_a_stored_environment() -> None:
    fields = record_fields({**ITEM, "environment": "test"}, FileRecord)

    assert fields["environment"] == "production" and "pk" not in fields and "sk" not in fields


@pytest.mark.parametrize(
    ("key", "tenant"),
    [
        ("ORG#org_1#ENV#test", Tenant("org_1", "test")),
        ("ORG#org_1#ENV#production#STATUS#queued", Tenant("org_1", "production")),
    ],
)
def test_a_tenant_is_read_from_the_start_of_a_partition_key(key: str, tenant: Tenant) -> None:
    assert Tenant.of_key(key) == tenant


@pytest.mark.parametrize("key", ["ORG#org_1", "ORG#org_1#ENV#staging", "USER#x#ENV#test", ""])
def test_a_key_that_names_no_tenant_is_refused(key: str) -> None:
    with pytest.raises(ValueError, match="not a tenant's key"):
        Tenant.of_key(key)

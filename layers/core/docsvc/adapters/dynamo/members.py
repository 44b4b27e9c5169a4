"""The console's members in DynamoDB (the members table of template.yaml).

`pk=ORG#<org>`, `sk=MEMBER#<user id>`: a member (`user_id`, `organization_id`, `email`, `role`,
`added_at`, `added_by`); the index `members_by_user` (`user_id`, `pk`) gives a person's organizations.
`pk=ORG#<org>`, `sk=ADMINS`: `count`, the organization's admins. Every write that makes, unmakes or
removes an admin changes the count in the same transaction, on the condition that it stays at least 1:
two admins removing each other at once cannot leave the organization without one.
"""

from __future__ import annotations

from typing import Any

from docsvc.adapters import aws
from docsvc.adapters.dynamo.values import from_dynamo
from docsvc.config import settings
from docsvc.domain.members import Member, MemberPage, Role
from docsvc.errors import Conflict

_MEMBER = "MEMBER#"
_ADMINS = "ADMINS"
_CHANGED = "this member was changed meanwhile: load the page again"


def _org(organization_id: str) -> str:
    return f"ORG#{organization_id}"


class DynamoMemberRepository(aws.DynamoTable):
    def __init__(self, table_name: str | None = None) -> None:
        super().__init__(table_name or settings().members_table)

    # ------------------------------------------------------------------ writes
    def add(self, member: Member) -> bool:
        put = {
            "TableName": self._table_name,
            "Item": {"pk": _org(member.organization_id), "sk": _MEMBER + member.user_id}
            | member.model_dump(),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
        writes: list[dict[str, Any]] = [{"Put": put}]
        if member.role == "admin":
            writes.append(self._count(member.organization_id, +1))
        return self._transact(writes)

    def set_role(self, member: Member, role: Role) -> bool:
        update = {
            "TableName": self._table_name,
            "Key": self._key(member),
            "UpdateExpression": "SET #role = :role",
            "ConditionExpression": "#role = :was",
            "ExpressionAttributeNames": {"#role": "role"},
            "ExpressionAttributeValues": {":role": role, ":was": member.role},
        }
        change = +1 if role == "admin" else -1
        return self._checked(member, [{"Update": update}, self._count(member.organization_id, change)])

    def remove(self, member: Member) -> bool:
        delete = {
            "TableName": self._table_name,
            "Key": self._key(member),
            "ConditionExpression": "#role = :was",
            "ExpressionAttributeNames": {"#role": "role"},
            "ExpressionAttributeValues": {":was": member.role},
        }
        writes: list[dict[str, Any]] = [{"Delete": delete}]
        if member.role == "admin":
            writes.append(self._count(member.organization_id, -1))
        return self._checked(member, writes)

    def _checked(self, member: Member, writes: list[dict[str, Any]]) -> bool:
        """Write; False when the count refused; Conflict when the member changed since it was read."""
        if self._transact(writes):
            return True
        current = self.get(member.organization_id, member.user_id)
        if current is None or current.role != member.role:
            raise Conflict(_CHANGED)
        return False

    def _count(self, organization_id: str, change: int) -> dict[str, Any]:
        update: dict[str, Any] = {
            "TableName": self._table_name,
            "Key": {"pk": _org(organization_id), "sk": _ADMINS},
            "UpdateExpression": "ADD #count :change",
            "ExpressionAttributeNames": {"#count": "count"},
            "ExpressionAttributeValues": {":change": change},
        }
        if change < 0:
            update["ConditionExpression"] = "#count > :one"
            update["ExpressionAttributeValues"][":one"] = 1
        return {"Update": update}

    def _transact(self, writes: list[dict[str, Any]]) -> bool:
        return aws.written(lambda: self._table.meta.client.transact_write_items(TransactItems=writes))

    @staticmethod
    def _key(member: Member) -> dict[str, str]:
        return {"pk": _org(member.organization_id), "sk": _MEMBER + member.user_id}

    # ------------------------------------------------------------------ reads
    def get(self, organization_id: str, user_id: str) -> Member | None:
        item = self._table.get_item(
            Key={"pk": _org(organization_id), "sk": _MEMBER + user_id}, ConsistentRead=True
        ).get("Item")
        return _member(item) if item else None

    def page(self, organization_id: str, limit: int, after: str | None) -> MemberPage:
        query: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :member)",
            "ExpressionAttributeValues": {":pk": _org(organization_id), ":member": _MEMBER},
            "Limit": limit + 1,  # one more than shown: whether a next page exists
            "ConsistentRead": True,
        }
        if after:
            query["ExclusiveStartKey"] = {"pk": _org(organization_id), "sk": _MEMBER + after}
        members = [_member(item) for item in self._table.query(**query)["Items"]]
        shown = members[:limit]
        return MemberPage(shown, shown[-1].user_id if len(members) > limit else None)

    def of_user(self, user_id: str) -> list[Member]:
        query: dict[str, Any] = {
            "IndexName": "members_by_user",
            "KeyConditionExpression": "user_id = :user",
            "ExpressionAttributeValues": {":user": user_id},
        }
        members: list[Member] = []
        while True:
            answer = self._table.query(**query)
            members += [_member(item) for item in answer["Items"]]
            if "LastEvaluatedKey" not in answer:
                return members
            query["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def _member(item: dict[str, Any]) -> Member:
    return Member.model_validate(
        {key: value for key, value in from_dynamo(item).items() if key in Member.model_fields}
    )

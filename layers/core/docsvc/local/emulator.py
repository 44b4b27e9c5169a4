"""The AWS emulator (moto) made to keep the promises of DynamoDB and Cognito that the service relies on,
at a cost that does not grow with the tables."""

from __future__ import annotations

import copy
import threading
from typing import Any

_lock = threading.Lock()


def adapt_emulator() -> None:
    """Make every DynamoDB request of this process run alone, roll a failed transaction back item by
    item, resend a user pool's invitation as Cognito does, and route requests without listing moto's
    packages each time. Calling it again changes nothing."""
    _adapt_emulator()
    _roll_back_only_what_a_transaction_touched()
    _resend_invitations_to_the_same_user()
    _list_moto_services_once()
    _answer_item_reads_as_plain_json()


def _adapt_emulator() -> None:
    """DynamoDB runs each request whole: the check of a conditional write and the write cannot
    interleave with another request. moto takes no lock, so two threads could both pass one
    condition (two workers both starting the same job); here every DynamoDB request of this process
    runs alone, as on AWS."""
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.call_action
    if getattr(original, "adapted", False):
        return

    def call_action(self: Any) -> Any:
        with _lock:
            return original(self)

    call_action.adapted = True  # type: ignore[attr-defined]
    setattr(DynamoHandler, "call_action", call_action)  # noqa: B010


def _roll_back_only_what_a_transaction_touched() -> None:
    """moto copies every table a transaction names before running it, to put it back if the
    transaction fails: each parse, job or key write then costs time in proportion to all the items
    of its tables. Here the copy is of the items the transaction names, and the length of each
    table's stream. Requests run one at a time (above), so nothing else changes the tables meanwhile."""
    from moto.dynamodb.models import DynamoDBBackend

    original = DynamoDBBackend.transact_write_items
    if getattr(original, "adapted", False):
        return

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        undo = _TransactionUndo.capture(self.tables, transact_items)
        if undo is None:  # a request moto will refuse itself: its own way
            return original(self, transact_items)
        with undo.tables_not_copied():
            try:
                return original(self, transact_items)
            except Exception:
                undo.restore()
                raise

    transact_write_items.adapted = True  # type: ignore[attr-defined]
    setattr(DynamoDBBackend, "transact_write_items", transact_write_items)  # noqa: B010


class _TransactionUndo:
    def __init__(self) -> None:
        self.items: list[tuple[Any, Any, Any, Any]] = []  # table, hash key, range key, item before
        self.streams: dict[str, tuple[Any, int]] = {}  # table name: table, stream length before

    @classmethod
    def capture(cls, tables: dict[str, Any], transact_items: list[dict[str, Any]]) -> _TransactionUndo | None:
        from moto.dynamodb.models.dynamo_type import DynamoType

        undo = cls()
        for operation in transact_items:
            if len(operation) != 1:
                return None
            body = next(iter(operation.values()))
            table = tables.get(body.get("TableName", ""))
            key = body.get("Item") if "Item" in body else body.get("Key")
            if table is None or not isinstance(key, dict):
                return None
            names = [table.hash_key_attr] + ([table.range_key_attr] if table.range_key_attr else [])
            if any(name not in key for name in names):
                return None
            hash_key = DynamoType(key[table.hash_key_attr])
            range_key = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
            before = copy.deepcopy(table.get_item(hash_key, range_key))
            undo.items.append((table, hash_key, range_key, before))
            if table.stream_shard is not None:
                undo.streams.setdefault(table.name, (table, len(table.stream_shard.items)))
        return undo

    def tables_not_copied(self) -> _TablesNotCopied:
        return _TablesNotCopied({id(table): table for table, *_ in self.items}.values())

    def restore(self) -> None:
        for table, hash_key, range_key, before in reversed(self.items):
            items = table.items if range_key is None else table.items[hash_key]
            slot = hash_key if range_key is None else range_key
            if before is None:
                items.pop(slot, None)
            else:
                items[slot] = before
        for table, length in self.streams.values():
            del table.stream_shard.items[length:]


class _TablesNotCopied:
    """While active, `copy.deepcopy` of these tables gives the table itself (moto's own snapshot)."""

    def __init__(self, tables: Any) -> None:
        self.tables = list(tables)

    def __enter__(self) -> None:
        for table in self.tables:
            table.__deepcopy__ = lambda memo, table=table: table

    def __exit__(self, *exc: object) -> None:
        for table in self.tables:
            del table.__deepcopy__


def _resend_invitations_to_the_same_user() -> None:
    """AdminCreateUser with MessageAction RESEND gives a user who never signed in a new temporary
    password (the one before stops working) and refuses anybody else. moto creates a second user with
    the same email instead, in a pool whose usernames are emails; here the user stays the same one."""
    from moto.cognitoidp.models import CognitoIdpBackend, UserStatus

    original = CognitoIdpBackend.admin_create_user
    if getattr(original, "adapted", False):
        return

    def admin_create_user(
        self: Any, user_pool_id: str, username: str, message_action: str, temporary_password: str, *rest: Any
    ) -> Any:
        if message_action != "RESEND":
            return original(self, user_pool_id, username, message_action, temporary_password, *rest)
        user = self.admin_get_user(user_pool_id, username)  # UserNotFoundException, as on AWS
        if user.status != UserStatus.FORCE_CHANGE_PASSWORD:
            raise _unsupported_user_state(f"Resend not possible. {username} status is {user.status}.")
        if temporary_password:
            self._validate_password(user_pool_id, temporary_password)
        user.password = temporary_password or _generated_password()
        return user

    admin_create_user.adapted = True  # type: ignore[attr-defined]
    setattr(CognitoIdpBackend, "admin_create_user", admin_create_user)  # noqa: B010


def _unsupported_user_state(message: str) -> Exception:
    from moto.core.exceptions import JsonRESTError

    return JsonRESTError("UnsupportedUserStateException", message)


def _generated_password() -> str:
    from docsvc.domain.members import generate_temporary_password

    return generate_temporary_password()


def _list_moto_services_once() -> None:
    """moto's server lists its own packages on the disk for every request it routes."""
    from moto import backends

    if getattr(backends.list_of_moto_modules, "adapted", False):
        return
    services = tuple(backends.list_of_moto_modules())

    def list_of_moto_modules() -> tuple[str, ...]:
        return services

    list_of_moto_modules.adapted = True  # type: ignore[attr-defined]
    backends.list_of_moto_modules = list_of_moto_modules


# The reads whose answers are items: DynamoDB's JSON of them is the result moto holds, as it is.
_ITEM_READS = frozenset({"Query", "Scan", "GetItem"})


def _answer_item_reads_as_plain_json() -> None:
    """moto writes every answer through a serializer that walks the botocore shape of each attribute of
    each item: about half a second for 200 jobs, far more than the read. An item read's result is
    already DynamoDB's JSON (binary values as bytes, which the wire carries in base64), so it is written
    as it is; any other answer, or one holding something else, goes through moto's serializer."""
    import base64
    import json
    import uuid

    from moto.dynamodb.responses import DynamoResult

    original = DynamoResult.execute_result
    if getattr(original, "adapted", False):
        return

    def wire(value: object) -> str:
        if isinstance(value, bytes):
            return base64.b64encode(value).decode()
        raise TypeError(type(value).__name__)

    def execute_result(self: Any, context: Any) -> Any:
        if context.operation_model.name in _ITEM_READS:
            try:
                body = json.dumps(self.result, default=wire)
            except TypeError:
                return original(self, context)
            headers = {"Content-Type": "application/x-amz-json-1.0", "x-amzn-requestid": uuid.uuid4().hex}
            return 200, headers, body
        return original(self, context)

    execute_result.adapted = True  # type: ignore[attr-defined]
    setattr(DynamoResult, "execute_result", execute_result)  # noqa: B010

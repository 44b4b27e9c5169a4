"""Every collected test has an id of its own: the parallel runner hands tests to its workers by id."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import pytest_collection_modifyitems


@dataclass(frozen=True)
class _Id:
    text: str

    def child(self, name: str) -> _Id:
        return _Id(f"{self.text}::{name}")

    def __str__(self) -> str:
        return self.text


class _Parent:
    id = _Id("tests/contract/test_fuzz.py")


class _Item:
    def __init__(self, name: str, nodeid: str, parent: _Parent | None = None) -> None:
        self.name, self._id, self.parent = name, _Id(nodeid), parent

    @property
    def nodeid(self) -> str:
        return str(self._id)


def test_tests_sharing_one_id_take_the_id_their_names_give() -> None:
    shared = "tests/contract/test_fuzz.py::test_operation"
    items = [
        _Item("test_operation[GET /v1/jobs]", shared, _Parent()),
        _Item("test_operation[POST /v1/parse]", shared, _Parent()),
        _Item("test_other", "tests/contract/test_fuzz.py::test_other", _Parent()),
    ]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [
        "tests/contract/test_fuzz.py::test_operation[GET /v1/jobs]",
        "tests/contract/test_fuzz.py::test_operation[POST /v1/parse]",
        "tests/contract/test_fuzz.py::test_other",
    ]


def test_a_collection_whose_ids_stay_shared_fails_instead_of_dropping_tests() -> None:
    shared = "tests/contract/test_fuzz.py::test_operation"
    items = [_Item("test_operation[GET /v1/jobs]", shared, _Parent()) for _ in range(2)]  # names alike too
    with pytest.raises(pytest.UsageError, match="1 test ids are each given to several tests"):
        pytest_collection_modifyitems(items)  # type: ignore[arg-type]

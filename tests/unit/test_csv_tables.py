"""CSV tables: decoding, delimiters, type inference, header and row rules, overrides, queries,
snapshots and formula-safe downloads."""

from __future__ import annotations

import csv
import json
import time
from typing import Any

import pytest
from docsvc.lookup_tables import (
    MAX_BYTES,
    Column,
    ParsedTable,
    TableError,
    download,
    from_snapshot,
    parse_csv,
    query,
    to_snapshot,
)


def column(table: ParsedTable, name: str) -> Column:
    return next(c for c in table.columns if c.name == name)


def types(table: ParsedTable) -> dict[str, str]:
    return {c.name: c.type for c in table.columns}


def error_of(content: bytes, overrides: dict[str, str] | None = None) -> TableError:
    with pytest.raises(TableError) as caught:
        parse_csv(content, overrides)
    return caught.value


# ------------------------------------------------------------------ encodings


def test_utf8_is_read_as_utf8() -> None:
    table = parse_csv("name,city\nZoë,Kraków\n".encode())

    assert table.encoding == "utf-8"
    assert table.rows == [["Zoë", "Kraków"]]


def test_a_bom_is_dropped_and_reported() -> None:
    table = parse_csv(b"\xef\xbb\xbfid,name\n1,caf\xc3\xa9\n")

    assert table.encoding == "utf-8-sig"
    assert [c.name for c in table.columns] == ["id", "name"]
    assert table.rows == [[1, "café"]]


def test_text_that_is_not_utf8_is_read_as_windows_1252() -> None:
    table = parse_csv("nom;ville;prix\nRené;Orléans;€5\n".encode("cp1252"))

    assert table.encoding == "windows-1252"
    assert table.rows == [["René", "Orléans", "€5"]]


def test_utf16_with_a_byte_order_mark_is_read() -> None:
    table = parse_csv("id,name\n1,Zoë\n".encode("utf-16"))

    assert table.encoding == "utf-16"
    assert table.rows == [[1, "Zoë"]]


def test_nul_bytes_mean_a_file_that_is_not_a_csv() -> None:
    error = error_of("id,name\n1,a\n".encode("utf-16-le"))

    assert (error.code, error.field) == ("invalid_csv", "file")
    assert "NUL" in str(error)


# ------------------------------------------------------------------ delimiters


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_each_delimiter_is_sniffed(delimiter: str) -> None:
    lines = [["id", "name", "note"], ["1", "Ann", "x y"], ["2", "Bob", "z"]]
    content = "\n".join(delimiter.join(line) for line in lines).encode()

    table = parse_csv(content)

    assert table.delimiter == delimiter
    assert [c.name for c in table.columns] == ["id", "name", "note"]
    assert table.rows == [[1, "Ann", "x y"], [2, "Bob", "z"]]


def test_a_delimiter_inside_quotes_does_not_count() -> None:
    table = parse_csv(b'name;amount\n"Smith, John";"1,5"\n"Doe, Jane";"2,5"\n')

    assert table.delimiter == ";"
    assert table.rows == [["Smith, John", "1,5"], ["Doe, Jane", "2,5"]]


def test_a_single_column_file_defaults_to_a_comma() -> None:
    table = parse_csv(b"code\nA1\nB2\n")

    assert table.delimiter == ","
    assert table.rows == [["A1"], ["B2"]]


# ------------------------------------------------------------------ types


def test_types_are_inferred_per_column() -> None:
    content = (
        b"int,num,bool,day,text,exp\n"
        b"42,3.14,true,2024-01-31,hello,1e3\n"
        b"-7,-0.5,No,2023-12-01,world,2.5E-2\n"
        b"0,10,YES,2000-02-29,42,.5\n"
    )

    table = parse_csv(content)

    assert types(table) == {
        "int": "integer",
        "num": "number",
        "bool": "boolean",
        "day": "date",
        "text": "string",
        "exp": "number",
    }
    assert table.rows[0] == [42, 3.14, True, "2024-01-31", "hello", 1000.0]
    assert table.rows[1] == [-7, -0.5, False, "2023-12-01", "world", 0.025]
    assert table.rows[2] == [0, 10.0, True, "2000-02-29", "42", 0.5]
    assert all(isinstance(row[1], float) for row in table.rows)


def test_codes_with_leading_zeros_stay_strings() -> None:
    table = parse_csv(b"zip,n\n00123,1\n45000,2\n")

    assert column(table, "zip").type == "string"
    assert [row[0] for row in table.rows] == ["00123", "45000"]


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("1,234", "string"),  # thousands separators are not numbers
        ("0,5", "string"),
        ("1", "integer"),
        ("0", "integer"),
        ("2024-02-30", "string"),  # not a real day
        ("31/01/2024", "string"),  # ISO dates only
        ("nan", "string"),
        ("inf", "string"),
        ("1e999", "string"),  # overflows a float
        ("12345678901234567890123", "string"),  # longer than 64 bits: kept exact
        ("t", "string"),
    ],
)
def test_what_counts_as_each_type(cell: str, expected: str) -> None:
    table = parse_csv(f'value\n"{cell}"\n'.encode())

    assert table.columns[0].type == expected


def test_zero_and_one_make_an_integer_column_not_a_boolean_one() -> None:
    table = parse_csv(b"flag\n0\n1\n1\n")

    assert table.columns[0].type == "integer"


def test_integers_and_decimals_together_make_a_number_column() -> None:
    table = parse_csv(b"x\n1\n2.5\n")

    assert table.columns[0].type == "number"
    assert table.rows == [[1.0], [2.5]]


def test_surrounding_spaces_are_ignored_for_typed_values_but_kept_in_strings() -> None:
    table = parse_csv(b"n,s\n 42 , a \n")

    assert table.rows == [[42, " a "]]


def test_blank_cells_are_none_and_make_the_column_nullable() -> None:
    table = parse_csv(b"id,price,note\n1,,x\n2,2.5,\n3,  ,y\n")

    assert types(table) == {"id": "integer", "price": "number", "note": "string"}
    assert [c.nullable for c in table.columns] == [False, True, True]
    assert table.rows == [[1, None, "x"], [2, 2.5, None], [3, None, "y"]]


def test_an_all_blank_column_is_a_nullable_string() -> None:
    table = parse_csv(b"id,empty\n1,\n2,\n")

    assert column(table, "empty") == Column(name="empty", type="string", nullable=True, sample_values=[])


def test_samples_are_three_distinct_typed_values_first_seen_first() -> None:
    table = parse_csv(b"n,s\n5,b\n,b\n5,a\n7,c\n9,d\n")

    assert column(table, "n").sample_values == [5, 7, 9]
    assert column(table, "s").sample_values == ["b", "a", "c"]


def test_a_column_of_distinct_values_keeps_row_order() -> None:
    content = "id\n" + "\n".join(str(n) for n in range(500, 0, -1))

    table = parse_csv(content.encode())

    assert [row[0] for row in table.rows] == list(range(500, 0, -1))


# ------------------------------------------------------------------ header and rows


def test_a_header_only_file_is_a_table_without_rows() -> None:
    table = parse_csv(b"id,name\n")

    assert table.rows == []
    assert [(c.name, c.type, c.nullable) for c in table.columns] == [
        ("id", "string", True),
        ("name", "string", True),
    ]


@pytest.mark.parametrize("content", [b"", b"\n\n", b"\r\n"])
def test_an_empty_file_has_no_header_row(content: bytes) -> None:
    error = error_of(content)

    assert (error.code, error.field) == ("invalid_csv", "file")
    assert "header" in str(error)


def test_header_names_are_trimmed() -> None:
    table = parse_csv(b" id , name \n1,a\n")

    assert [c.name for c in table.columns] == ["id", "name"]


def test_duplicate_header_names_are_refused_naming_them_and_their_positions() -> None:
    error = error_of(b"id,Name,x, name \n1,a,b,c\n")

    assert (error.code, error.field) == ("invalid_csv", "file")
    assert '"Name" at positions 2, 4' in str(error)


def test_empty_header_cells_are_refused_naming_their_positions() -> None:
    error = error_of(b"id,,name,\n1,2,3,4\n")

    assert error.code == "invalid_csv"
    assert "position(s) 2, 4" in str(error)


def test_a_file_over_the_size_cap_is_too_large() -> None:
    content = b"a\n" + b"x" * (MAX_BYTES - 1)

    error = error_of(content)

    assert (error.code, error.field) == ("too_large", "file")


def test_a_row_wider_than_the_header_is_refused_naming_its_line() -> None:
    error = error_of(b'id,name\n1,a\n\n"2\n",b\n3,c,extra\n')

    assert error.code == "invalid_csv"
    assert str(error).startswith("line 6 has 3 cells")


def test_short_rows_get_blank_cells_and_empty_lines_are_skipped() -> None:
    table = parse_csv(b"id,name,city\n1,a\n\n2,b,Rome\n3\n")

    assert table.rows == [[1, "a", None], [2, "b", "Rome"], [3, None, None]]
    assert column(table, "city").nullable


def test_quoted_cells_keep_delimiters_quotes_and_newlines() -> None:
    table = parse_csv(b'id,text\n1,"a, ""b""\nc"\n')

    assert table.rows == [[1, 'a, "b"\nc']]


def test_a_field_over_the_csv_size_limit_is_an_error_not_a_crash() -> None:
    limit = csv.field_size_limit()
    content = b"id,text\n1,ok\n2," + b"y" * (limit + 1) + b"\n"

    error = error_of(content)

    assert error.code == "invalid_csv"
    assert f"longer than {limit} characters" in str(error)
    assert csv.field_size_limit() == limit


def test_a_field_at_the_csv_size_limit_is_accepted() -> None:
    table = parse_csv(b"text\n" + b"y" * csv.field_size_limit() + b"\n")

    assert len(table.rows[0][0]) == csv.field_size_limit()


# ------------------------------------------------------------------ overrides

OVERRIDABLE = b"zip,qty,flag,day,code\n00123,1,1,2024-01-02,7\n04000,,0,2024-03-04,8\n"


def test_overrides_force_types() -> None:
    table = parse_csv(OVERRIDABLE, {"qty": "number", "flag": "boolean", "code": "string", "zip": "integer"})

    assert list(types(table).values()) == ["integer", "number", "boolean", "date", "string"]
    assert table.rows == [[123, 1.0, True, "2024-01-02", "7"], [4000, None, False, "2024-03-04", "8"]]
    assert column(table, "qty").nullable


def test_override_names_ignore_case_and_spaces() -> None:
    table = parse_csv(OVERRIDABLE, {" CODE ": "string"})

    assert column(table, "code").type == "string"


def test_an_override_for_an_unknown_column_is_refused() -> None:
    error = error_of(OVERRIDABLE, {"missing": "integer"})

    assert (error.code, error.field) == ("invalid_override", "column_schema_overrides")
    assert '"missing"' in str(error)


def test_an_override_with_an_unknown_type_is_refused() -> None:
    error = error_of(OVERRIDABLE, {"qty": "float"})

    assert (error.code, error.field) == ("invalid_override", "column_schema_overrides")
    assert "'float'" in str(error)


def test_a_value_the_forced_type_refuses_names_column_row_and_value() -> None:
    error = error_of(b"id,day\n1,2024-01-01\n2,soon\n3,later\n", {"day": "date"})

    assert (error.code, error.field) == ("invalid_override", "column_schema_overrides")
    assert "column \"day\" cannot be date: row 2 holds 'soon'" in str(error)


# ------------------------------------------------------------------ queries

PEOPLE = parse_csv(
    b"id,name,age,score,active,joined,code\n"
    b"1,Alice,30,9.5,true,2020-01-15,A-01\n"
    b"2,bob,25,7,false,2021-06-01,B-02\n"
    b"3,Carol,35,,true,2019-11-30,c-03\n"
    b"4,Dave,,8.25,,2022-02-02,D-04\n"
    b"5,Eve,10,6,false,,e-05\n"
)


def ids(filters: list[dict[str, Any]]) -> list[int]:
    rows, total = query(PEOPLE, filters, limit=500)
    assert total == len(rows)
    return [row["id"] for row in rows]


def test_query_rows_are_dicts_by_column_name() -> None:
    rows, total = query(PEOPLE, [{"column": "id", "operator": "eq", "value": 1}])

    assert total == 1
    assert rows == [
        {
            "id": 1,
            "name": "Alice",
            "age": 30,
            "score": 9.5,
            "active": True,
            "joined": "2020-01-15",
            "code": "A-01",
        }
    ]


@pytest.mark.parametrize(
    ("operator", "value", "expected"),
    [
        ("eq", 30, [1]),
        ("eq", "30", [1]),  # converted to the column's type
        ("ne", 30, [2, 3, 4, 5]),  # a blank cell is not equal to 30
        ("gt", "25", [1, 3]),
        ("gte", 25, [1, 2, 3]),
        ("lt", 25.5, [2, 5]),
        ("lte", "30", [1, 2, 5]),
        ("in", [10, "35", 99], [3, 5]),
        ("not_in", [10, 35], [1, 2, 4]),
        ("is_null", None, [4]),
        ("is_not_null", None, [1, 2, 3, 5]),
        ("contains", "5", [2, 3]),
        ("starts_with", "3", [1, 3]),
        ("ends_with", "0", [1, 5]),
    ],
)
def test_each_operator_on_an_integer_column(operator: str, value: Any, expected: list[int]) -> None:
    assert ids([{"column": "age", "operator": operator, "value": value}]) == expected


def test_numbers_compare_as_numbers_not_text() -> None:
    # As text, "10" < "9": the comparison must be numeric.
    assert ids([{"column": "age", "operator": "lt", "value": "9"}]) == []
    assert ids([{"column": "score", "operator": "gte", "value": "8"}]) == [1, 4]
    assert ids([{"column": "score", "operator": "eq", "value": 7}]) == [2]


def test_string_operators_ignore_case_but_eq_does_not() -> None:
    assert ids([{"column": "name", "operator": "contains", "value": "AR"}]) == [3]
    assert ids([{"column": "code", "operator": "starts_with", "value": "c-"}]) == [3]
    assert ids([{"column": "name", "operator": "ends_with", "value": "VE"}]) == [4, 5]
    assert ids([{"column": "name", "operator": "eq", "value": "bob"}]) == [2]
    assert ids([{"column": "name", "operator": "eq", "value": "Bob"}]) == []
    assert ids([{"column": "name", "operator": "in", "value": ["Eve", "bob"]}]) == [2, 5]


def test_booleans_and_dates_are_typed_too() -> None:
    assert ids([{"column": "active", "operator": "eq", "value": True}]) == [1, 3]
    assert ids([{"column": "active", "operator": "eq", "value": "no"}]) == [2, 5]
    assert ids([{"column": "active", "operator": "contains", "value": "TRU"}]) == [1, 3]
    assert ids([{"column": "joined", "operator": "gte", "value": "2021-01-01"}]) == [2, 4]
    assert ids([{"column": "joined", "operator": "lt", "value": "2020-01-15"}]) == [3]


def test_all_filters_must_match() -> None:
    filters = [
        {"column": "active", "operator": "eq", "value": True},
        {"column": "age", "operator": "gt", "value": 30},
    ]

    assert ids(filters) == [3]


def test_no_filters_match_every_row() -> None:
    assert ids([]) == [1, 2, 3, 4, 5]


def test_a_page_of_matches_and_their_total() -> None:
    filters = [{"column": "id", "operator": "gt", "value": 1}]

    assert query(PEOPLE, filters, limit=2, offset=0)[1] == 4
    assert [r["id"] for r in query(PEOPLE, filters, limit=2, offset=0)[0]] == [2, 3]
    assert [r["id"] for r in query(PEOPLE, filters, limit=2, offset=2)[0]] == [4, 5]
    assert query(PEOPLE, filters, limit=2, offset=4) == ([], 4)
    assert query(PEOPLE, filters, limit=-1, offset=-3) == ([], 4)


@pytest.mark.parametrize(
    ("bad_filter", "problem"),
    [
        ({"column": "nope", "operator": "eq", "value": 1}, 'unknown column "nope"'),
        ({"column": "age", "operator": "like", "value": 1}, "unknown operator 'like'"),
        ({"column": "age", "operator": "in", "value": 1}, "needs a list"),
        ({"column": "age", "operator": "eq"}, "needs a value"),
        ({"column": "age", "operator": "eq", "value": None}, "must not be null"),
        ({"column": "age", "operator": "eq", "value": "ten"}, "'ten' is not a integer value"),
        ({"column": "age", "operator": "eq", "value": True}, "is not a integer value"),
        ({"column": "active", "operator": "gt", "value": True}, "does not apply to the boolean column"),
        ({"column": "active", "operator": "eq", "value": "maybe"}, "is not a boolean value"),
        ({"column": "joined", "operator": "eq", "value": "15/01/2020"}, "is not a date value"),
        ({"column": "name", "operator": "contains", "value": ["a"]}, "must be text"),
        ("age = 3", "must be an object"),
    ],
)
def test_a_filter_that_cannot_apply_is_refused_naming_its_index(bad_filter: Any, problem: str) -> None:
    filters = [{"column": "id", "operator": "is_not_null"}, bad_filter]

    with pytest.raises(TableError) as caught:
        query(PEOPLE, filters)

    assert (caught.value.code, caught.value.field) == ("invalid_filter", "filters")
    assert str(caught.value).startswith("filters[1]: ")
    assert problem in str(caught.value)


# ------------------------------------------------------------------ snapshots


def test_a_snapshot_round_trips_the_table() -> None:
    table = parse_csv(
        'id,price,ok,day,name,blank\n1,2.5,yes,2024-01-01,Zoë,\n2,,no,,"x,y",\n'.encode(),
        {"id": "number"},
    )

    snapshot = to_snapshot(table)

    assert from_snapshot(snapshot) == table
    assert isinstance(from_snapshot(snapshot).rows[0][0], float)
    assert b" " not in snapshot.replace(b"Zo\xc3\xab", b"")  # compact separators
    assert json.loads(snapshot)["format"] == "docsvc.table/1"


def test_something_else_is_not_a_snapshot() -> None:
    with pytest.raises(ValueError, match="not a table snapshot"):
        from_snapshot(b'{"rows": []}')


# ------------------------------------------------------------------ downloads

DANGEROUS = b'name;formula\n=1+2;+SUM(A1)\n-5;@cmd\n"\ttab";"\rcr"\nsafe;a=b\n'


def test_formulas_are_made_inert_keeping_the_delimiter() -> None:
    out = download(DANGEROUS).decode("utf-8")

    assert out == "name;formula\r\n'=1+2;'+SUM(A1)\r\n'-5;'@cmd\r\n'\ttab;\"'\rcr\"\r\nsafe;a=b\r\n"
    assert list(csv.reader(out.splitlines(keepends=True), delimiter=";"))[3] == ["'\ttab", "'\rcr"]


def test_raw_download_is_the_upload_itself() -> None:
    assert download(DANGEROUS, raw=True) == DANGEROUS


def test_a_latin1_upload_downloads_as_utf8_and_a_bom_is_kept() -> None:
    assert download("nom,prix\nRené,=2\n".encode("latin-1")) == "nom,prix\r\nRené,'=2\r\n".encode()
    assert download(b"\xef\xbb\xbfa\n@b\n") == b"\xef\xbb\xbfa\r\n'@b\r\n"


def test_quoted_cells_stay_quoted_in_a_download() -> None:
    out = download(b'a,b\n"x, y","line\nbreak"\n')

    assert out == b'a,b\r\n"x, y","line\nbreak"\r\n'


# ------------------------------------------------------------------ performance


def test_fifty_thousand_rows_parse_load_and_query_quickly() -> None:
    lines = ["id,code,name,price,active,day"]
    lines += [
        f"{n},{n % 997:05d},Name {n},{n * 0.37:.2f},{'true' if n % 3 else 'false'},2024-{n % 12 + 1:02d}-15"
        for n in range(50_000)
    ]
    content = "\n".join(lines).encode()

    started = time.process_time()  # CPU: the same on a busy machine
    table = parse_csv(content)
    parsed = time.process_time()
    loaded = from_snapshot(to_snapshot(table))
    rows, total = query(
        loaded,
        [
            {"column": "active", "operator": "eq", "value": True},
            {"column": "price", "operator": "gte", "value": "100"},
            {"column": "name", "operator": "contains", "value": "7"},
        ],
        limit=10,
    )
    done = time.process_time()

    assert types(table) == {
        "id": "integer",
        "code": "string",
        "name": "string",
        "price": "number",
        "active": "boolean",
        "day": "date",
    }
    assert len(rows) == 10
    assert total == sum(1 for n in range(50_000) if n % 3 and n * 0.37 >= 100 and "7" in f"Name {n}")
    assert parsed - started < 2.0
    assert done - parsed < 2.0

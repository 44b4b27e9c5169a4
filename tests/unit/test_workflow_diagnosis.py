"""Diagnosis of workflow graphs (spec 4.7): each issue code on a minimal graph that has the problem and
not on the same graph fixed, severities, stats, suggestions and schema propagation."""

from __future__ import annotations

from typing import Any

import pytest
from docsvc.workflows.diagnosis import CODES, Diagnosis, diagnose
from docsvc.workflows.graph import Graph

SCHEMA = {"type": "object", "properties": {"total": {"type": "number"}, "vendor": {"type": "string"}}}
PREDICATE = {"signal": "likelihood", "operator": "lt", "value": 0.8}


def block(block_id: str, block_type: str, label: str = "", **config: Any) -> dict[str, Any]:
    return {"id": block_id, "type": block_type, "label": label, "config": config or None}


def edge(
    source: str, target: str, source_handle: str = "output-file-0", target_handle: str = "input-file-0"
) -> Any:
    return {
        "id": f"{source}>{target}",
        "source_block": source,
        "target_block": target,
        "source_handle": source_handle,
        "target_handle": target_handle,
    }


def json_edge(source: str, target: str, source_handle: str = "output-json-0") -> Any:
    return edge(source, target, source_handle, "input-json-0")


def graph(blocks: list[dict[str, Any]], edges: list[dict[str, Any]] | None = None) -> Graph:
    return Graph.model_validate({"blocks": blocks, "edges": edges or []})


def codes(diagnosis: Diagnosis) -> list[str]:
    return [issue.code for issue in diagnosis.issues]


START = block("start", "start_document")
EXTRACT = block("ex", "extract", json_schema=SCHEMA)
TO_EXTRACT = edge("start", "ex")


def extract_with(**config: Any) -> Graph:
    return graph([START, block("ex", "extract", **config)], [TO_EXTRACT])


def classifier_with(**config: Any) -> Graph:
    return graph([START, block("cls", "classifier", **config)], [edge("start", "cls")])


def conditional_after_extract(field: str, extra: list[dict[str, Any]] | None = None) -> Graph:
    condition = block("if", "conditional", field=field, operator="exists")
    blocks = [START, EXTRACT, condition, *(extra or [])]
    return graph(blocks, [TO_EXTRACT, json_edge("ex", "if")])


def api_call_with(**config: Any) -> Graph:
    return graph([START, EXTRACT, block("post", "api_call", **config)], [TO_EXTRACT, json_edge("ex", "post")])


URL = "https://example.com/hook"
CASES: list[tuple[str, Graph, Graph]] = [
    ("NO_START_BLOCK", graph([block("p", "parse")]), graph([START])),
    (
        "DUPLICATE_BLOCK_ID",
        graph([START, block("p", "parse"), block("p", "parse")], [edge("start", "p")]),
        graph([START, block("p", "parse"), block("q", "parse")], [edge("start", "p"), edge("start", "q")]),
    ),
    (
        "MULTIPLE_START_BLOCKS",
        graph([START, block("two", "start"), block("p", "parse")], [edge("start", "p"), edge("two", "p")]),
        graph([START, block("p", "parse")], [edge("start", "p")]),
    ),
    (
        "UNKNOWN_BLOCK_TYPE",
        graph([START, block("m", "magic")], [edge("start", "m")]),
        graph([START, block("m", "parse")], [edge("start", "m")]),
    ),
    (
        "DISCONNECTED_BLOCK",
        graph([START, block("p", "parse")]),
        graph([START, block("p", "parse")], [edge("start", "p")]),
    ),
    ("DANGLING_EDGE", graph([START], [edge("start", "ghost")]), graph([START])),
    (
        "UNREACHABLE_BLOCK",
        graph([START, EXTRACT, block("p", "parse")], [edge("ex", "p", "output-json-0")]),
        graph([START, block("p", "parse")], [edge("start", "p")]),
    ),
    (
        "HANDLE_TYPE_MISMATCH",
        graph(
            [START, block("if", "conditional", field="total", operator="exists")],
            [json_edge("start", "if", "output-file-0")],
        ),
        conditional_after_extract("total"),
    ),
    (
        "UNKNOWN_HANDLE",
        graph([START, block("p", "parse")], [edge("start", "p", "output-file-1")]),
        graph([START, block("p", "parse")], [edge("start", "p", "output-file-0")]),
    ),
    (
        "MISSING_INPUT",
        graph(
            [
                START,
                EXTRACT,
                block("if", "conditional", field="total", operator="exists"),
                block("post", "api_call", url=URL),
            ],
            [TO_EXTRACT, json_edge("if", "post")],
        ),
        graph(
            [
                START,
                EXTRACT,
                block("if", "conditional", field="total", operator="exists"),
                block("post", "api_call", url=URL),
            ],
            [TO_EXTRACT, json_edge("ex", "if"), json_edge("if", "post")],
        ),
    ),
    ("MISSING_REQUIRED_CONFIG", extract_with(), extract_with(json_schema=SCHEMA)),
    ("INVALID_CONFIG", extract_with(json_schema={"type": "array"}), extract_with(json_schema=SCHEMA)),
    (
        "BLANK_CATEGORY",
        classifier_with(categories=[{"name": "invoice"}, {"name": "  "}]),
        classifier_with(categories=[{"name": "invoice"}, {"name": "receipt"}]),
    ),
    (
        "BLANK_SUBDOCUMENT",
        graph([START, block("sp", "split", subdocuments=[{"name": ""}])], [edge("start", "sp")]),
        graph([START, block("sp", "split", subdocuments=[{"name": "cover"}])], [edge("start", "sp")]),
    ),
    (
        "BLANK_MAP_KEY",
        api_call_with(url=URL, headers={" ": "x"}),
        api_call_with(url=URL, headers={"X-Id": "x"}),
    ),
    (
        "MISSING_REVIEW_PREDICATE",
        extract_with(json_schema=SCHEMA, review={"enabled": True}),
        extract_with(json_schema=SCHEMA, review={"enabled": True, "predicate": PREDICATE}),
    ),
    (
        "UNAVAILABLE_REVIEW_SIGNAL",
        extract_with(
            json_schema=SCHEMA, review={"enabled": True, "predicate": {**PREDICATE, "signal": "confidence"}}
        ),
        extract_with(json_schema=SCHEMA, review={"enabled": True, "predicate": PREDICATE}),
    ),
    (
        "CYCLE",
        graph(
            [
                START,
                EXTRACT,
                block("a", "conditional", field="total", operator="exists"),
                block("b", "conditional", field="total", operator="exists"),
            ],
            [TO_EXTRACT, json_edge("ex", "a"), json_edge("a", "b"), json_edge("b", "a")],
        ),
        graph(
            [
                START,
                EXTRACT,
                block("a", "conditional", field="total", operator="exists"),
                block("b", "conditional", field="total", operator="exists"),
            ],
            [TO_EXTRACT, json_edge("ex", "a"), json_edge("a", "b")],
        ),
    ),
    ("UNKNOWN_FIELD", conditional_after_extract("amount"), conditional_after_extract("total.value")),
]


@pytest.mark.parametrize(("code", "broken", "fixed"), CASES, ids=[case[0] for case in CASES])
def test_each_code_is_found_in_a_graph_with_the_problem_and_not_once_it_is_fixed(
    code: str, broken: Graph, fixed: Graph
) -> None:
    found = diagnose(broken)
    clean = diagnose(fixed)

    assert code in codes(found)
    assert code not in codes(clean)
    assert clean.issues == [], clean.issues
    assert all(issue.severity == CODES[issue.code][0] for issue in found.issues)
    if CODES[code][0] == "error":
        assert not found.is_valid


def test_every_code_has_a_case() -> None:
    covered = {case[0] for case in CASES} | {"MISSING_SECRET"}

    assert covered == set(CODES)


def test_a_missing_secret_is_a_warning_when_the_environment_can_be_asked() -> None:
    subject = api_call_with(url=URL, headers={"Authorization": "secret://HOOK_TOKEN"})

    missing = diagnose(subject, secret_exists=lambda name: False)
    present = diagnose(subject, secret_exists=lambda name: name == "HOOK_TOKEN")
    unasked = diagnose(subject)

    assert [(issue.code, issue.severity, issue.block_id) for issue in missing.issues] == [
        ("MISSING_SECRET", "warning", "post")
    ]
    assert "HOOK_TOKEN" in missing.issues[0].message
    assert missing.is_valid
    assert present.issues == [] and unasked.issues == []


def test_a_reference_that_cannot_name_a_secret_is_invalid_configuration() -> None:
    asked: list[str] = []

    def exists(name: str) -> bool:
        asked.append(name)
        return False

    diagnosis = diagnose(api_call_with(url=URL, headers={"X": "secret://not-a-name"}), secret_exists=exists)

    assert codes(diagnosis) == ["INVALID_CONFIG"]
    assert "does not name a secret" in diagnosis.issues[0].message
    assert asked == []


def test_the_empty_graph_has_no_start_block() -> None:
    diagnosis = diagnose(Graph())

    assert codes(diagnosis) == ["NO_START_BLOCK"]
    assert diagnosis.issues[0].block_id is None
    assert diagnosis.is_valid is False
    assert diagnosis.stats.model_dump() == {
        "total_blocks": 0,
        "total_edges": 0,
        "block_types": {},
        "start_document_blocks": 0,
    }
    assert diagnosis.suggestions == [CODES["NO_START_BLOCK"][1]]


def realistic() -> dict[str, Any]:
    """start -> classifier -> an extraction per category -> a condition on the invoice total -> an API
    call, and a note."""
    categories = [{"name": "invoice", "description": "A bill."}, {"name": "receipt"}]
    review = {"enabled": True, "predicate": {"signal": "category", "operator": "eq", "value": "receipt"}}
    return {
        "blocks": [
            block("start", "start", "Upload"),
            block("cls", "classifier", "Sort", categories=categories, review=review),
            block("invoice", "extract", "Invoice data", json_schema=SCHEMA),
            block("receipt", "extract", "Receipt data", json_schema=SCHEMA, review={"enabled": False}),
            block("big", "conditional", "Over 1000?", field="total", operator="gt", value=1000),
            block(
                "post",
                "api_call",
                "Notify ERP",
                url=URL,
                method="PUT",
                headers={"Authorization": "secret://ERP_TOKEN"},
            ),
            block("memo", "note", text="Receipts are only archived."),
        ],
        "edges": [
            {"id": "e1", "source": "start", "target": "cls"},
            {"id": "e2", "source": "cls", "target": "invoice", "source_handle": "output-file-0"},
            {"id": "e3", "source": "cls", "target": "receipt", "source_handle": "output-file-1"},
            {
                "id": "e4",
                "source": "invoice",
                "target": "big",
                "source_handle": "output-json-0",
                "target_handle": "input-json-0",
            },
            {
                "id": "e5",
                "source": "big",
                "target": "post",
                "source_handle": "output-json-0",
                "target_handle": "input-json-0",
            },
        ],
    }


def test_a_realistic_graph_is_valid_without_issues() -> None:
    diagnosis = diagnose(Graph.model_validate(realistic()), secret_exists=lambda name: name == "ERP_TOKEN")

    assert diagnosis.is_valid
    assert diagnosis.issues == []
    assert diagnosis.suggestions == []
    assert diagnosis.stats.total_blocks == 7
    assert diagnosis.stats.total_edges == 5


def test_edges_given_with_source_and_target_connect_blocks() -> None:
    subject = Graph.model_validate(realistic())

    assert [edge.source_block for edge in subject.edges] == ["start", "cls", "cls", "invoice", "big"]
    assert "DISCONNECTED_BLOCK" not in codes(diagnose(subject))


def test_stats_count_types_as_written_and_both_spellings_of_start() -> None:
    subject = graph(
        [START, block("s2", "start"), block("s3", "start"), block("p", "parse"), block("m", "magic")],
        [edge("start", "p")],
    )

    stats = diagnose(subject).stats

    assert stats.block_types == {"start_document": 1, "start": 2, "parse": 1, "magic": 1}
    assert stats.start_document_blocks == 3
    assert (stats.total_blocks, stats.total_edges) == (5, 1)


def test_more_than_one_start_block_is_advice_only() -> None:
    subject = graph(
        [START, block("two", "start"), block("p", "parse")], [edge("start", "p"), edge("two", "p")]
    )

    diagnosis = diagnose(subject)

    assert [(issue.code, issue.severity) for issue in diagnosis.issues] == [("MULTIPLE_START_BLOCKS", "info")]
    assert diagnosis.is_valid


def test_suggestions_are_one_per_code_in_the_order_codes_first_appear() -> None:
    subject = graph([block("a", "parse"), block("b", "parse"), block("c", "magic")], [edge("a", "ghost")])

    diagnosis = diagnose(subject)

    first_seen = list(dict.fromkeys(codes(diagnosis)))
    assert codes(diagnosis).count("DISCONNECTED_BLOCK") == 2
    assert diagnosis.suggestions == [CODES[code][1] for code in first_seen]
    assert len(diagnosis.suggestions) == len(set(diagnosis.suggestions))


def test_notes_are_never_disconnected_or_unreachable() -> None:
    subject = graph([START, block("p", "parse"), block("memo", "note", text="hi")], [edge("start", "p")])

    assert diagnose(subject).issues == []


def test_a_dangling_edge_names_the_end_that_exists() -> None:
    diagnosis = diagnose(graph([START], [edge("start", "ghost"), edge("nobody", "nothing")]))

    dangling = [issue for issue in diagnosis.issues if issue.code == "DANGLING_EDGE"]
    assert [issue.block_id for issue in dangling] == ["start", None]
    assert "'ghost'" in dangling[0].message


def test_a_source_handle_that_is_an_input_is_unknown() -> None:
    subject = graph(
        [START, block("p", "parse")],
        [edge("start", "p"), edge("p", "start", "input-file-0", "output-file-0")],
    )

    unknown = [issue for issue in diagnose(subject).issues if issue.code == "UNKNOWN_HANDLE"]

    assert [issue.block_id for issue in unknown] == ["p", "start"]
    assert "is an input" in unknown[0].message
    assert "is an output" in unknown[1].message


def test_a_classifier_has_no_handle_beyond_its_categories() -> None:
    categories = [{"name": "invoice"}, {"name": "receipt"}]
    subject = graph(
        [START, block("cls", "classifier", categories=categories), block("p", "parse")],
        [edge("start", "cls"), edge("cls", "p", "output-file-2")],
    )

    assert codes(diagnose(subject)) == ["UNKNOWN_HANDLE"]


def test_an_empty_required_field_is_missing_not_invalid() -> None:
    diagnosis = diagnose(classifier_with(categories=[]))

    assert codes(diagnosis) == ["MISSING_REQUIRED_CONFIG"]
    assert "`categories`" in diagnosis.issues[0].message


def test_invalid_configuration_says_why() -> None:
    subject = graph([START, block("p", "parse", "Reader", image_resolution_dpi=50)], [edge("start", "p")])

    issue = diagnose(subject).issues[0]

    assert (issue.code, issue.block_id) == ("INVALID_CONFIG", "p")
    assert "'Reader' (p)" in issue.message
    assert "image_resolution_dpi" in issue.message and "96" in issue.message


def test_an_invalid_extraction_schema_is_explained() -> None:
    issue = diagnose(extract_with(json_schema={"type": "array"})).issues[0]

    assert issue.code == "INVALID_CONFIG"
    assert "json_schema" in issue.message and "object" in issue.message


def test_every_cycle_is_reported_once_on_a_block_of_it() -> None:
    conditions = [block(name, "conditional", field="total", operator="exists") for name in "abcd"]
    subject = graph(
        [START, EXTRACT, *conditions],
        [
            TO_EXTRACT,
            json_edge("ex", "a"),
            json_edge("a", "b"),
            json_edge("b", "a"),
            json_edge("ex", "c"),
            json_edge("c", "d"),
            json_edge("d", "d", "output-json-1"),
        ],
    )

    cycles = [issue for issue in diagnose(subject).issues if issue.code == "CYCLE"]

    assert sorted(issue.block_id or "" for issue in cycles) == ["a", "d"]


def test_stored_output_schemas_are_used_without_re_propagation() -> None:
    stale = {"type": "object", "properties": {"amount": {"type": "number"}}}
    subject = graph(
        [
            START,
            block("ex", "extract", json_schema=SCHEMA, output_schema=stale),
            block("if", "conditional", field="total", operator="gt", value=10),
        ],
        [TO_EXTRACT, json_edge("ex", "if")],
    )

    assert codes(diagnose(subject, re_propagate=True)) == []
    assert codes(diagnose(subject, re_propagate=False)) == ["UNKNOWN_FIELD"]


def test_schemas_propagate_through_conditionals_and_from_json_starts() -> None:
    chained = graph(
        [
            START,
            EXTRACT,
            block("a", "conditional", field="total", operator="exists"),
            block("b", "conditional", "Vendor known", field="vendr", operator="exists"),
        ],
        [TO_EXTRACT, json_edge("ex", "a"), json_edge("a", "b", "output-json-1")],
    )
    from_json = graph(
        [
            START,
            block("in", "start_json", json_schema=SCHEMA),
            block("if", "conditional", field="nope", operator="exists"),
        ],
        [json_edge("in", "if")],
    )

    unknown = diagnose(chained).issues

    assert [(issue.code, issue.block_id) for issue in unknown] == [("UNKNOWN_FIELD", "b")]
    assert "'vendr'" in unknown[0].message and "vendor" in unknown[0].message
    assert codes(diagnose(from_json)) == ["DISCONNECTED_BLOCK", "UNKNOWN_FIELD"]


def test_a_condition_after_a_block_of_unknown_output_is_not_checked() -> None:
    subject = graph(
        [START, block("p", "parse"), block("if", "conditional", field="anything", operator="exists")],
        [edge("start", "p"), json_edge("p", "if")],
    )

    assert diagnose(subject).issues == []


def test_a_chain_of_200_blocks_is_diagnosed_as_valid() -> None:
    conditions = [block(f"c{i}", "conditional", field="text", operator="exists") for i in range(198)]
    chain = [json_edge("p", "c0")] + [json_edge(f"c{i}", f"c{i + 1}") for i in range(197)]
    subject = graph([START, block("p", "parse"), *conditions], [edge("start", "p"), *chain])

    diagnosis = diagnose(subject)

    assert diagnosis.stats.total_blocks == 200
    assert diagnosis.is_valid and diagnosis.issues == []


def test_messages_name_the_block_by_label_and_id() -> None:
    subject = graph([START, block("p", "parse", "Read the scan")])

    issue = next(issue for issue in diagnose(subject).issues if issue.block_id == "p")

    assert issue.message.startswith("Block 'Read the scan' (p)")

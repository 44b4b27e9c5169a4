"""The cut signal learnt from labelled documents (a first page against a continued one), and how the
splitting weighs it."""

from __future__ import annotations

from docsvc.intelligence import learnt
from docsvc.intelligence.learnt import CUT_CAP, CutModel, first_page_odds
from docsvc.intelligence.splitting import Subdocument, first_page_tokens, split

BODY = (
    "The river water was sampled at five stations along the valley every week of the summer. "
    "Nitrate and phosphate levels rose after each storm, and the water samples were filtered "
    "before the nitrate was measured at the station laboratory near the river."
)
PAGES = [f"Water quality of the valley river\n{BODY}\n{BODY}", f"Zebra station notes\n{BODY}\n{BODY}"]
REPORTS = [Subdocument("report", "A report on water quality.", allow_multiple_instances=True)]


def cut_at(model: CutModel, pages: list[str] = PAGES) -> list[list[int]]:
    return [piece.pages for piece in split(pages, REPORTS, cuts=model)]


def test_page_tokens_read_the_top_words_numbering_and_greeting() -> None:
    first = first_page_tokens("Dear Ms Novak,\nPage 1 of 3\nThank you for your letter of last week.")
    later = first_page_tokens("Quarterly results\nPage 3 of 3\nThe figures below are final.")
    assert {"t:dear", "~marker:first", "~greets"} <= first
    assert "~marker:last" in later and "~greets" not in later
    assert "t:dear" not in later


def test_the_cut_models_odds_are_capped_and_kept_to_their_side() -> None:
    model = CutModel({"t:dear": 10.0, "t:continued": -10.0}, temperature=1.0, weight=1.0)
    assert first_page_odds(model, {"t:dear"}) == CUT_CAP
    assert first_page_odds(model, {"t:continued"}) == -CUT_CAP
    against = CutModel(model.words, 1.0, 1.0, side="against")
    assert first_page_odds(against, {"t:dear"}) == 0.0
    assert first_page_odds(against, {"t:continued"}) == -CUT_CAP


def test_a_page_the_model_reads_as_a_first_page_is_cut_where_the_rules_see_nothing() -> None:
    words = {"t:zebra": 10.0}
    assert cut_at(CutModel(words, 1.0, 0.0)) == [[1, 2]]  # weighed at nothing: the rules alone
    assert cut_at(CutModel(words, 1.0, 2.0)) == [[1], [2]]


def test_a_page_the_model_reads_as_continued_is_kept_with_the_page_before() -> None:
    titled = [PAGES[0], f"Specifications report\n{BODY}\n{BODY}"]  # a new title naming a kind: a cut
    words = {"t:specifications": -10.0}
    assert cut_at(CutModel(words, 1.0, 0.0), titled) == [[1], [2]]
    assert cut_at(CutModel(words, 1.0, 2.0), titled) == [[1, 2]]


def test_a_gated_model_is_heard_only_where_the_rules_are_near_even() -> None:
    # the two pages keep one topic: the rules' evidence at the gap is about -2, outside a gate of 0.75
    assert cut_at(CutModel({"t:zebra": 10.0}, 1.0, 2.0, gate=0.75)) == [[1, 2]]
    assert cut_at(CutModel({"t:zebra": 10.0}, 1.0, 2.0, gate=5.0)) == [[1], [2]]


def test_the_bias_counts_for_a_page_without_any_known_token() -> None:
    model = CutModel({"t:dear": 2.0}, temperature=1.0, weight=1.0, bias=-1.0)
    assert first_page_odds(model, {"t:other"}) == -1.0
    assert first_page_odds(model, {"t:dear"}) == 1.0


def test_a_model_heard_against_cuts_only_never_cuts() -> None:
    assert cut_at(CutModel({"t:zebra": 10.0}, 1.0, 2.0, side="against")) == [[1, 2]]


def test_the_shipped_cut_model_loads_with_its_validated_weighing() -> None:
    model = learnt.load_cuts()
    assert len(model.words) >= 100
    assert model.side in ("both", "against", "for")
    assert model.weight >= 0.0

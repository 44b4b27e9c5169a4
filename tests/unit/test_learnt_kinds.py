"""The word model learnt from labelled documents, and how the classification weighs it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from docsvc.intelligence import learnt
from docsvc.intelligence.classification import build_profiles, document_scores
from docsvc.intelligence.learnt import KindModel, features, kind_points, posteriors

MODEL = KindModel(
    kinds=("contract", "report"),
    priors=(0.0, 0.0),
    words={"parties": (1.0, -1.0), "clause": (1.0, -1.0), "findings": (-1.0, 1.0)},
    temperature=1.0,
    weight=6.0,
)
CATEGORIES = [("contract", "A contract between parties."), ("report", "A report on a topic.")]


def test_words_of_a_kind_point_to_that_kind() -> None:
    found, known = posteriors(MODEL, features(["The Parties agree to this clause."]))
    assert known == 2
    assert found["contract"] > 0.9


def test_words_are_read_without_case_or_accents() -> None:
    assert {"resume", "rechnung"} <= features(["RÉSUMÉ der Rechnung"])


def test_a_document_of_few_known_words_gets_points_in_proportion() -> None:
    few = kind_points(MODEL, ["the parties"])
    many = kind_points(MODEL, [" ".join(["parties clause"] * 3 + [f"word{n}" for n in range(3)])])
    assert 0 < few["contract"] < 6.0 * learnt.KNOWN_WORDS
    assert few["contract"] <= many["contract"] + 1e-9
    assert few["contract"] < 6.0 / 10  # one known word of thirty: a thirtieth of the weight at most


def test_a_model_weighed_at_nothing_adds_nothing() -> None:
    assert kind_points(KindModel(MODEL.kinds, MODEL.priors, MODEL.words, 1.0, 0.0), ["parties clause"]) == {}


def test_the_learnt_points_go_to_the_categories_naming_the_kind() -> None:
    profiles = build_profiles(CATEGORIES)
    words = " ".join(["parties clause"] * 20)
    without = {s.name: s.total for s in document_scores(profiles, [words], learnt.EMPTY)}
    heavy = KindModel(MODEL.kinds, MODEL.priors, MODEL.words, 1.0, 150.0)  # two known words of thirty
    with_model = {s.name: s.total for s in document_scores(profiles, [words], heavy)}
    assert with_model["contract"] - without["contract"] > 5.0
    assert with_model["report"] - without["report"] < 1.0


def test_the_shipped_model_knows_every_kind_of_the_bench_and_is_weighed_as_validated() -> None:
    model = learnt.load()
    assert {"contract", "report", "letter", "invoice", "form"} <= set(model.kinds)
    assert len(model.words) >= 500
    assert model.weight >= 0.0


def test_a_missing_model_file_is_an_error_not_an_empty_model(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        learnt.load(tmp_path / "learnt_kinds.json")
    with pytest.raises(FileNotFoundError):
        learnt.load_cuts(tmp_path / "learnt_cuts.json")


def test_the_packages_data_ships_every_learnt_model() -> None:
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = project["tool"]["setuptools"]["package-data"]["docsvc"]
    package = Path(learnt.__file__).parents[1]
    for model in (learnt.DATA, learnt.CUTS_DATA):
        assert any(model.relative_to(package).match(pattern) for pattern in shipped), model.name

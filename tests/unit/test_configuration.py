"""Settings checked when a function starts: every problem named, none on the template's own."""

from __future__ import annotations

import pytest
from docsvc import observability
from docsvc.config import QUEUE_URLS, REQUIRED, ConfigurationError, configuration_problems

COMPLETE = {name: "x" for name in REQUIRED} | {name: f"https://sqs.local/{name}" for name in QUEUE_URLS}


def test_a_complete_environment_has_no_problem() -> None:
    assert configuration_problems(COMPLETE) == []


def test_each_missing_or_malformed_setting_is_named() -> None:
    environment = {name: value for name, value in COMPLETE.items() if name != "JOBS_TABLE"}
    environment |= {"PARSE_QUEUE_URL": "", "WEBHOOK_QUEUE_URL": "WebhookQueue", "OPENAI_MODELS": "[{}"}

    problems = configuration_problems(environment)

    assert problems[:2] == ["JOBS_TABLE is not set", "PARSE_QUEUE_URL is not set"]
    assert "WEBHOOK_QUEUE_URL is not a queue URL: 'WebhookQueue'" in problems
    assert any(problem.startswith("OPENAI_MODELS is not JSON") for problem in problems)


def test_openai_models_must_be_a_list_of_endpoints() -> None:
    listed = '[{"name": "local", "base_url": "https://llm", "model": "m", "api_key_secret": "secret://K"}]'

    assert configuration_problems(COMPLETE | {"OPENAI_MODELS": listed}) == []
    assert configuration_problems(COMPLETE | {"OPENAI_MODELS": '{"name": "local"}'}) != []


def test_a_function_missing_a_setting_fails_at_its_cold_start_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "docsvc-ParsesApiFunction")
    for name, value in COMPLETE.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("PARSE_QUEUE_URL")

    with pytest.raises(ConfigurationError, match="PARSE_QUEUE_URL is not set"):
        observability.observability("parses-api")


def test_outside_lambda_nothing_is_checked_at_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    monkeypatch.delenv("PARSE_QUEUE_URL", raising=False)

    assert observability.observability("parses-api").logger is not None


@pytest.mark.parametrize("address", ["https://git.example.com/acme/docsvc", "http://10.0.0.5/src.tar.gz"])
def test_a_source_url_is_an_http_address(address: str) -> None:
    assert configuration_problems(COMPLETE | {"SOURCE_URL": address}) == []


@pytest.mark.parametrize(
    "address", ["git.example.com/docsvc", "ftp://example.com/src", "https:///x", "see README"]
)
def test_a_source_url_that_is_no_http_address_is_named(address: str) -> None:
    assert configuration_problems(COMPLETE | {"SOURCE_URL": address}) == [
        f"SOURCE_URL must be an http(s) address of the source, not {address!r}"
    ]


def test_retention_days_are_whole_numbers_and_zero_keeps_for_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    from docsvc.config import Settings

    good = COMPLETE | {"EVENT_RETENTION_DAYS": "7", "RESULT_RETENTION_DAYS": "0", "RUN_RETENTION_DAYS": "365"}
    bad = COMPLETE | {"RESULT_RETENTION_DAYS": "-1", "RUN_RETENTION_DAYS": "30d"}
    monkeypatch.setenv("EVENT_RETENTION_DAYS", "7")
    monkeypatch.delenv("RESULT_RETENTION_DAYS", raising=False)

    assert configuration_problems(good) == []
    assert configuration_problems(bad) == [
        "RESULT_RETENTION_DAYS must be a whole number of days (0 keeps for ever), not '-1'",
        "RUN_RETENTION_DAYS must be a whole number of days (0 keeps for ever), not '30d'",
    ]
    settings = Settings.from_environment()
    assert (settings.event_retention_days, settings.result_retention_days) == (7, 0)

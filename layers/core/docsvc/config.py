"""Deployment settings, read from the environment that template.yaml gives every function.

A function checks them when it starts (`check_configuration`, from `observability`): one missing or
malformed fails its cold start with a message naming every problem, instead of its first request
failing on an empty queue URL. The local stack (`make dev`) checks each function's environment the
same way when it starts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

# What every function must be given (template.yaml's Globals), by variable.
REQUIRED = (
    "ACCOUNTS_TABLE",
    "FILES_TABLE",
    "FILES_BUCKET",
    "PARSES_TABLE",
    "USAGE_TABLE",
    "EVENTS_TABLE",
    "JOBS_TABLE",
    "RESULTS_TABLE",
    "SECRETS_TABLE",
    "TABLES_TABLE",
    "WEBHOOKS_TABLE",
    "WORKFLOWS_TABLE",
    "IDEMPOTENCY_TABLE",
    "LIMITS_TABLE",
    "SECRETS_PREFIX",
    "STAGE",
)
QUEUE_URLS = (
    "PARSE_QUEUE_URL",
    "JOB_QUEUE_URL",
    "WEBHOOK_QUEUE_URL",
    "WORKFLOW_QUEUE_URL",
    "WEBHOOK_DEAD_LETTER_QUEUE_URL",
)


# Days each kind of record is kept after it is made (template.yaml's *RetentionDays parameters); 0 keeps
# it until it is deleted.
RETENTION_DAYS = ("EVENT_RETENTION_DAYS", "RESULT_RETENTION_DAYS", "RUN_RETENTION_DAYS")


class ConfigurationError(RuntimeError):
    """The deployment did not give a function what it needs."""


def configuration_problems(environ: Mapping[str, str]) -> list[str]:
    """What is missing or malformed in a function's environment, each said with its variable."""
    problems = [
        f"{name} is not set" for name in (*REQUIRED, *QUEUE_URLS) if not environ.get(name, "").strip()
    ]
    problems += [
        f"{name} is not a queue URL: {environ[name][:80]!r}"
        for name in QUEUE_URLS
        if environ.get(name, "").strip() and not environ[name].startswith(("https://", "http://"))
    ]
    models = environ.get("OPENAI_MODELS", "").strip()
    if models:
        try:
            listed = json.loads(models)
        except ValueError as error:
            problems.append(f"OPENAI_MODELS is not JSON: {error}")
        else:
            wanted = {"name", "base_url", "model", "api_key_secret"}
            if not isinstance(listed, list) or not all(
                isinstance(entry, dict) and wanted <= set(entry) for entry in listed
            ):
                problems.append(
                    f"OPENAI_MODELS must be a JSON array of objects with {', '.join(sorted(wanted))}"
                )
    problems += [
        f"{name} must be a whole number of days (0 keeps for ever), not {environ[name][:20]!r}"
        for name in RETENTION_DAYS
        if not environ.get(name, "0").strip().isdigit()
    ]
    source_url = environ.get("SOURCE_URL", "").strip()
    if source_url and not valid_source_url(source_url):
        problems.append(f"SOURCE_URL must be an http(s) address of the source, not {source_url[:80]!r}")
    problems += [
        f"{name} must be true or false"
        for name in ("ALLOW_LOOPBACK_WEBHOOKS", "SHOW_TEMPORARY_PASSWORDS")
        if environ.get(name, "").strip().lower() not in {"", "0", "1", "true", "false", "yes", "no"}
    ]
    return problems


def valid_source_url(url: str) -> bool:
    """An absolute http(s) address with a host (the SourceUrl deployment parameter)."""
    parts = urlsplit(url)
    return (
        parts.scheme in {"http", "https"} and bool(parts.netloc) and not any(char.isspace() for char in url)
    )


def check_configuration(environ: Mapping[str, str] = os.environ) -> None:
    """ConfigurationError naming every problem of this function's environment."""
    problems = configuration_problems(environ)
    if problems:
        raise ConfigurationError("this function is not configured: " + "; ".join(problems))


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes"}


@dataclass(frozen=True, slots=True)
class Settings:
    accounts_table: str
    files_table: str
    files_bucket: str
    parses_table: str
    usage_table: str
    events_table: str
    jobs_table: str
    results_table: str
    secrets_table: str
    tables_table: str
    webhooks_table: str
    workflows_table: str
    idempotency_table: str
    limits_table: str
    secrets_prefix: str
    parse_queue_url: str
    job_queue_url: str
    webhook_queue_url: str
    workflow_queue_url: str
    webhook_dead_letter_url: str
    document_reader_function: str
    allow_loopback_webhooks: bool
    bedrock_models: tuple[str, ...]
    openai_models: str
    stage: str
    source_url: str | None  # where users get this deployment's source (AGPL-3.0 section 13)
    event_retention_days: int = 0  # 0: kept until deleted
    result_retention_days: int = 0
    run_retention_days: int = 0
    # The console's members and their user pool (ConsoleFunction, and `docsvc admin members`).
    members_table: str = "MembersTable"
    user_pool_id: str = ""
    user_pool_client_id: str = ""
    # The console shows an invitee's temporary password to the admin who invited them, where no mail
    # reaches them (the local stack); on AWS the user pool mails it and it is never shown.
    show_temporary_passwords: bool = False

    @classmethod
    def from_environment(cls) -> Settings:
        return cls(
            accounts_table=os.environ.get("ACCOUNTS_TABLE", "AccountsTable"),
            files_table=os.environ.get("FILES_TABLE", "FilesTable"),
            files_bucket=os.environ.get("FILES_BUCKET", "filesbucket"),
            parses_table=os.environ.get("PARSES_TABLE", "ParsesTable"),
            usage_table=os.environ.get("USAGE_TABLE", "UsageTable"),
            events_table=os.environ.get("EVENTS_TABLE", "EventsTable"),
            jobs_table=os.environ.get("JOBS_TABLE", "JobsTable"),
            results_table=os.environ.get("RESULTS_TABLE", "ResultsTable"),
            secrets_table=os.environ.get("SECRETS_TABLE", "SecretsTable"),
            tables_table=os.environ.get("TABLES_TABLE", "TablesTable"),
            webhooks_table=os.environ.get("WEBHOOKS_TABLE", "WebhooksTable"),
            workflows_table=os.environ.get("WORKFLOWS_TABLE", "WorkflowsTable"),
            idempotency_table=os.environ.get("IDEMPOTENCY_TABLE", "IdempotencyTable"),
            limits_table=os.environ.get("LIMITS_TABLE", "LimitsTable"),
            secrets_prefix=os.environ.get("SECRETS_PREFIX", "docsvc"),
            parse_queue_url=os.environ.get("PARSE_QUEUE_URL", ""),
            job_queue_url=os.environ.get("JOB_QUEUE_URL", ""),
            webhook_queue_url=os.environ.get("WEBHOOK_QUEUE_URL", ""),
            workflow_queue_url=os.environ.get("WORKFLOW_QUEUE_URL", ""),
            webhook_dead_letter_url=os.environ.get("WEBHOOK_DEAD_LETTER_QUEUE_URL", ""),
            document_reader_function=os.environ.get("DOCUMENT_READER_FUNCTION", "DocumentReaderFunction"),
            allow_loopback_webhooks=_flag("ALLOW_LOOPBACK_WEBHOOKS"),
            openai_models=os.environ.get("OPENAI_MODELS", ""),
            bedrock_models=tuple(
                model.strip() for model in os.environ.get("BEDROCK_MODELS", "").split(",") if model.strip()
            ),
            stage=os.environ.get("STAGE", "dev"),
            source_url=os.environ.get("SOURCE_URL", "").strip() or None,
            event_retention_days=_days("EVENT_RETENTION_DAYS"),
            result_retention_days=_days("RESULT_RETENTION_DAYS"),
            run_retention_days=_days("RUN_RETENTION_DAYS"),
            members_table=os.environ.get("MEMBERS_TABLE", "MembersTable"),
            user_pool_id=os.environ.get("USER_POOL_ID", ""),
            user_pool_client_id=os.environ.get("USER_POOL_CLIENT_ID", ""),
            show_temporary_passwords=_flag("SHOW_TEMPORARY_PASSWORDS"),
        )


def _days(name: str) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isdigit() else 0


@cache
def settings() -> Settings:
    return Settings.from_environment()

"""Deployment settings, read from the environment that template.yaml gives every function."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache


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
        )


@cache
def settings() -> Settings:
    return Settings.from_environment()

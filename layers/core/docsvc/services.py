"""The composition root: the domain services of this deployment, wired to their AWS adapters."""

from __future__ import annotations

from functools import cache

from docsvc.adapters.accounts_table import DynamoAccountRepository
from docsvc.adapters.blobs import S3BlobStore
from docsvc.adapters.files_table import DynamoFileRepository
from docsvc.domain.accounts import AccountService
from docsvc.domain.files import FileService


@cache
def account_service() -> AccountService:
    return AccountService(DynamoAccountRepository())


@cache
def file_service() -> FileService:
    return FileService(DynamoFileRepository(), S3BlobStore())


def reset() -> None:
    """Forget every client, setting and service, so the next use reads the environment again."""
    from docsvc.adapters import aws
    from docsvc.config import settings

    aws.reset()
    settings.cache_clear()
    account_service.cache_clear()
    file_service.cache_clear()

"""The two clients of the SDK, `Client` and `AsyncClient`: each holds one transport and every resource."""

from __future__ import annotations

from types import TracebackType

import httpx

from docsvc_client._http import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, AsyncHTTP, SyncHTTP
from docsvc_client.resources.auth import AsyncAuth, Auth
from docsvc_client.resources.classifications import AsyncClassifications, Classifications
from docsvc_client.resources.deep_research import AsyncDeepResearch, DeepResearch
from docsvc_client.resources.edits import AsyncEdits, Edits
from docsvc_client.resources.evals import AsyncEvals, Evals
from docsvc_client.resources.events import AsyncEvents, Events
from docsvc_client.resources.extractions import AsyncExtractions, Extractions
from docsvc_client.resources.files import AsyncFiles, Files
from docsvc_client.resources.jobs import AsyncJobs, Jobs
from docsvc_client.resources.models import AsyncModels, Models
from docsvc_client.resources.parses import AsyncParses, Parses
from docsvc_client.resources.partitions import AsyncPartitions, Partitions
from docsvc_client.resources.schemas import AsyncSchemas, Schemas
from docsvc_client.resources.secrets import AsyncSecrets, Secrets
from docsvc_client.resources.splits import AsyncSplits, Splits
from docsvc_client.resources.tables import AsyncTables, Tables
from docsvc_client.resources.usage import AsyncUsage, Usage
from docsvc_client.resources.webhooks import AsyncWebhooks, Webhooks
from docsvc_client.resources.workflows import AsyncWorkflows, Workflows

__all__ = ["AsyncClient", "Client"]


class Client:
    """A blocking client. `api_key` defaults to `SERVICE_API_KEY`, `base_url` to `SERVICE_BASE_URL`;
    without either, ValueError. `http_client` lets a caller bring its own httpx.Client (proxies, a
    test transport); the SDK then leaves closing it to the caller."""

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        *,
        http_client: httpx.Client | None = None,
    ) -> None:
        self._http = SyncHTTP(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
        )
        self.files = Files(self._http)
        self.parses = Parses(self._http)
        self.jobs = Jobs(self._http)
        self.extractions = Extractions(self._http)
        self.classifications = Classifications(self._http)
        self.splits = Splits(self._http)
        self.partitions = Partitions(self._http)
        self.schemas = Schemas(self._http)
        self.deep_research = DeepResearch(self._http)
        self.edits = Edits(self._http)
        self.evals = Evals(self._http)
        self.workflows = Workflows(self._http)
        self.secrets = Secrets(self._http)
        self.tables = Tables(self._http, self.files)
        self.webhooks = Webhooks(self._http)
        self.events = Events(self._http)
        self.usage = Usage(self._http)
        self.auth = Auth(self._http)
        self.models = Models(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def max_retries(self) -> int:
        return self._http.max_retries

    @property
    def timeout(self) -> float:
        return self._http.timeout

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"


class AsyncClient:
    """The asynchronous client: the same resources, whose methods are awaited
    (`await client.files.get(id)`); pages are iterated with `async for`."""

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        *,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._http = AsyncHTTP(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            http_client=http_client,
        )
        self.files = AsyncFiles(self._http)
        self.parses = AsyncParses(self._http)
        self.jobs = AsyncJobs(self._http)
        self.extractions = AsyncExtractions(self._http)
        self.classifications = AsyncClassifications(self._http)
        self.splits = AsyncSplits(self._http)
        self.partitions = AsyncPartitions(self._http)
        self.schemas = AsyncSchemas(self._http)
        self.deep_research = AsyncDeepResearch(self._http)
        self.edits = AsyncEdits(self._http)
        self.evals = AsyncEvals(self._http)
        self.workflows = AsyncWorkflows(self._http)
        self.secrets = AsyncSecrets(self._http)
        self.tables = AsyncTables(self._http, self.files)
        self.webhooks = AsyncWebhooks(self._http)
        self.events = AsyncEvents(self._http)
        self.usage = AsyncUsage(self._http)
        self.auth = AsyncAuth(self._http)
        self.models = AsyncModels(self._http)

    @property
    def base_url(self) -> str:
        return self._http.base_url

    @property
    def max_retries(self) -> int:
        return self._http.max_retries

    @property
    def timeout(self) -> float:
        return self._http.timeout

    async def close(self) -> None:
        await self._http.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncClient(base_url={self.base_url!r})"

"""The composition root: the domain services of this deployment, wired to their AWS adapters."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Literal

from docsvc.config import settings

if TYPE_CHECKING:  # each factory imports what it builds: a function loads only the services it uses
    from docsvc.documents.reads import DocumentReads
    from docsvc.domain.accounts import AccountService
    from docsvc.domain.deliveries import DeliveryService
    from docsvc.domain.dispatch import FairDispatch
    from docsvc.domain.documents import DocumentSource, FetchedBytes
    from docsvc.domain.edits import EditService
    from docsvc.domain.evals import EvalService
    from docsvc.domain.events import EventService
    from docsvc.domain.files import FileService
    from docsvc.domain.idempotency import IdempotencyService
    from docsvc.domain.intelligence import IntelligenceService, RemoteModels
    from docsvc.domain.jobs import JobService
    from docsvc.domain.limits import RequestLimiter
    from docsvc.domain.members import MemberService, UserDirectory
    from docsvc.domain.models import ModelCatalog
    from docsvc.domain.parses import Engine, ParseService
    from docsvc.domain.pictures import PagePictures
    from docsvc.domain.promotion import PromotionService
    from docsvc.domain.secrets import SecretResolver, SecretService
    from docsvc.domain.tables import TableService
    from docsvc.domain.usage import UsageService
    from docsvc.domain.webhooks import EndpointService, SigningSecrets
    from docsvc.domain.workflow_runs import WorkflowRunner
    from docsvc.domain.workflows import SecretExists, WorkflowService


@cache
def account_service() -> AccountService:
    from docsvc.adapters.dynamo.accounts import DynamoAccountRepository
    from docsvc.domain.accounts import AccountService

    return AccountService(DynamoAccountRepository())


@cache
def user_directory() -> UserDirectory:
    """The console's user pool (Amazon Cognito; moto's in the local stack)."""
    from docsvc.adapters.cognito import CognitoUserDirectory

    return CognitoUserDirectory()


@cache
def member_service() -> MemberService:
    from docsvc.adapters.dynamo.members import DynamoMemberRepository
    from docsvc.domain.members import MemberService

    return MemberService(DynamoMemberRepository(), user_directory(), account_service())


@cache
def idempotency_service() -> IdempotencyService:
    from docsvc.adapters.dynamo.idempotency import DynamoClaimStore
    from docsvc.domain.idempotency import IdempotencyService

    return IdempotencyService(DynamoClaimStore())


@cache
def request_limiter() -> RequestLimiter:
    from docsvc.adapters.dynamo.limits import DynamoRequestCounter
    from docsvc.domain.limits import RequestLimiter

    return RequestLimiter(DynamoRequestCounter())


@cache
def file_service() -> FileService:
    from docsvc.adapters.blobs import S3BlobStore
    from docsvc.adapters.dynamo.files import DynamoFileRepository
    from docsvc.domain.files import FileService

    return FileService(DynamoFileRepository(), S3BlobStore())


def fetch_remote(url: str, max_bytes: int) -> FetchedBytes:
    """Customer document URLs, always through the SSRF guard (loopback is never allowed here)."""
    from docsvc.adapters.fetch import fetch_document
    from docsvc.domain.documents import FetchedBytes

    fetched = fetch_document(url, max_bytes=max_bytes)
    return FetchedBytes(fetched.content, fetched.content_type)


@cache
def document_source() -> DocumentSource:
    from docsvc.adapters.blobs import S3BlobStore
    from docsvc.adapters.dynamo.files import DynamoFileRepository
    from docsvc.domain.documents import DocumentSource

    return DocumentSource(DynamoFileRepository(), S3BlobStore(), fetch_remote)


Reading = Literal["in_process", "by_reader_function"]
"""Where documents are read: here, with the documents layer (the workers), or by the document reader
function (the API functions, which do not carry PyMuPDF)."""


@cache
def parse_service(reading: Reading = "in_process") -> ParseService:
    """Reading in process imports the document engine (PyMuPDF) on first use. Remote models that take
    images parse too."""
    from docsvc.adapters.dynamo.parses import DynamoParseRepository
    from docsvc.adapters.parse_store import S3ParseStore
    from docsvc.adapters.queues import TenantQueue
    from docsvc.domain.parses import ParseService

    return ParseService(
        DynamoParseRepository(),
        S3ParseStore(),
        document_source(),
        _engine(reading),
        TenantQueue(settings().parse_queue_url, "parse_id"),
        model_catalog(),
        remote_models(),
    )


def _engine(reading: Reading) -> Engine:
    if reading == "by_reader_function":
        from docsvc.adapters.blobs import S3BlobStore
        from docsvc.adapters.document_reader import DocumentReader

        return DocumentReader(settings().document_reader_function, S3BlobStore())
    from docsvc.documents.builtin import BuiltinEngine

    return BuiltinEngine()


@cache
def page_pictures() -> PagePictures:
    """Pages drawn by the document reader function (the console has no documents layer)."""
    from docsvc.adapters.blobs import S3BlobStore
    from docsvc.adapters.document_reader import ReaderPictures
    from docsvc.domain.pictures import PagePictures

    return PagePictures(file_service(), ReaderPictures(settings().document_reader_function, S3BlobStore()))


@cache
def document_reads() -> DocumentReads:
    """The document reader function's side: the engine of this process (documents layer)."""
    from docsvc.adapters.blobs import S3BlobStore
    from docsvc.documents.builtin import BuiltinEngine
    from docsvc.documents.reads import DocumentReads

    return DocumentReads(BuiltinEngine(), S3BlobStore())


@cache
def job_service() -> JobService:
    """The jobs API validates with it and the job worker runs with it; the parse service (and its
    document engine) is built only when a job runs."""
    from docsvc.adapters.dynamo.jobs import DynamoJobRepository
    from docsvc.domain.jobs import JobService
    from docsvc.endpoints.jobs import job_runners
    from docsvc.endpoints.operation import ServiceName

    services: dict[ServiceName, Callable[[], object]] = {
        "parses": parse_service,
        "intelligence": intelligence_service,
        "edits": edit_service,
        "evals": eval_service,
    }
    runners = job_runners(services, model_catalog())
    return JobService(DynamoJobRepository(), runners, job_dispatch())


@cache
def job_dispatch() -> FairDispatch:
    """Jobs go to the job queue through their tenant's slots (docsvc.domain.dispatch)."""
    from docsvc.adapters.dynamo.jobs import DynamoJobRepository
    from docsvc.adapters.dynamo.limits import DynamoJobSlots
    from docsvc.adapters.queues import TenantQueue
    from docsvc.domain.dispatch import FairDispatch

    return FairDispatch(
        DynamoJobSlots(), TenantQueue(settings().job_queue_url, "job_id"), DynamoJobRepository().status
    )


@cache
def model_catalog() -> ModelCatalog:
    """The built-in models, and the remote ones the deployment names (BEDROCK_MODELS, OPENAI_MODELS)."""
    from docsvc.adapters.bedrock import bedrock_models
    from docsvc.adapters.openai_compatible import openai_models
    from docsvc.domain.models import BUILTIN_MODELS, ModelCatalog

    bedrock = bedrock_models(list(settings().bedrock_models))
    return ModelCatalog(BUILTIN_MODELS + bedrock + openai_models(settings().openai_models)[0])


@cache
def remote_models() -> RemoteModels:
    """The remote models of the deployment, each through its provider."""
    from docsvc.adapters.bedrock import BedrockModels
    from docsvc.adapters.openai_compatible import OpenAICompatibleModels, openai_models
    from docsvc.adapters.remote_models import RemoteProviders

    endpoints = openai_models(settings().openai_models)[1]
    return RemoteProviders(
        {"bedrock": BedrockModels(), "openai": OpenAICompatibleModels(endpoints, secret_resolver())}
    )


@cache
def intelligence_service(reading: Reading = "in_process") -> IntelligenceService:
    """Documents are read as `reading` says (see Reading)."""
    from docsvc.adapters.dynamo.results import DynamoResultRepository
    from docsvc.adapters.dynamo.usage import DynamoUsageLedger
    from docsvc.domain.intelligence import IntelligenceService

    return IntelligenceService(
        parse_service(reading),
        DynamoResultRepository(),
        model_catalog(),
        remote_models(),
        ledger=DynamoUsageLedger(),
    )


@cache
def edit_service(reading: Reading = "in_process") -> EditService:
    """Forms are read and written as `reading` says (see Reading): the job worker carries PyMuPDF, the
    edits API function asks the document reader function."""
    from docsvc.adapters.dynamo.edits import DynamoEditRepository
    from docsvc.domain.edits import EditService, FormEngine

    forms: FormEngine
    if reading == "by_reader_function":
        from docsvc.adapters.blobs import S3BlobStore
        from docsvc.adapters.document_reader import ReaderForms

        forms = ReaderForms(settings().document_reader_function, S3BlobStore())
    else:
        from docsvc.documents.form_engine import PdfForms

        forms = PdfForms()
    files, documents = file_service(), document_source()
    return EditService(DynamoEditRepository(), files, documents, forms, model_catalog(), remote_models())


@cache
def eval_service(reading: Reading = "in_process") -> EvalService:
    """Extraction evals; their documents are read as `reading` says (see Reading)."""
    from docsvc.adapters.dynamo.evals import DynamoEvalRepository
    from docsvc.domain.evals import EvalService

    return EvalService(DynamoEvalRepository(), intelligence_service(reading))


@cache
def secret_resolver() -> SecretResolver:
    """`secret://NAME` of a tenant to its value: for the functions that call remote models or APIs."""
    from docsvc.adapters.secrets_store import SecretsManagerVault
    from docsvc.domain.secrets import SecretResolver

    return SecretResolver(SecretsManagerVault())


@cache
def secret_service() -> SecretService:
    from docsvc.adapters.secrets_store import DynamoSecretRepository, SecretsManagerVault
    from docsvc.domain.secrets import SecretService

    return SecretService(DynamoSecretRepository(), SecretsManagerVault(), secret_resolver().forget)


@cache
def event_service() -> EventService:
    from docsvc.adapters.dynamo.events import DynamoEventLog
    from docsvc.domain.events import EventService

    return EventService(DynamoEventLog())


@cache
def usage_service() -> UsageService:
    from docsvc.adapters.dynamo.usage import DynamoUsageLedger
    from docsvc.domain.usage import UsageService

    return UsageService(DynamoUsageLedger())


@cache
def table_service() -> TableService:
    from docsvc.adapters.lookup_tables_store import DynamoTableRepository, S3TableStore
    from docsvc.domain.tables import TableService

    return TableService(DynamoTableRepository(), S3TableStore(), document_source())


@cache
def endpoint_service() -> EndpointService:
    """Receiver URLs pass the SSRF guard of document URLs; loopback only where the deployment allows it."""
    from docsvc.adapters.dynamo.webhooks import DynamoWebhookStore
    from docsvc.adapters.fetch import check_url
    from docsvc.domain.webhooks import EndpointService

    allow_loopback = settings().allow_loopback_webhooks
    return EndpointService(DynamoWebhookStore(), lambda url: check_url(url, allow_loopback=allow_loopback))


@cache
def signing_secrets() -> SigningSecrets:
    from docsvc.adapters.secrets_store import SecretsManagerVault
    from docsvc.domain.webhooks import SigningSecrets

    return SigningSecrets(SecretsManagerVault(), secret_resolver())


@cache
def delivery_service() -> DeliveryService:
    from docsvc.adapters.dynamo.events import DynamoEventLog
    from docsvc.adapters.dynamo.webhooks import DynamoWebhookStore
    from docsvc.adapters.fetch import post_webhook
    from docsvc.adapters.queues import DeliveryMessages
    from docsvc.domain.deliveries import DeliveryService

    allow_loopback = settings().allow_loopback_webhooks
    store = DynamoWebhookStore()
    return DeliveryService(
        store,
        store,
        DynamoEventLog(),
        signing_secrets(),
        DeliveryMessages(settings().webhook_queue_url, settings().webhook_dead_letter_url),
        lambda url, body, headers: post_webhook(url, body, headers, allow_loopback=allow_loopback),
    )


@cache
def workflow_service() -> WorkflowService:
    from docsvc.adapters.dynamo.workflows import DynamoWorkflowStore
    from docsvc.adapters.queues import TenantQueue
    from docsvc.domain.workflows import WorkflowService

    return WorkflowService(
        DynamoWorkflowStore(), _secret_exists(), TenantQueue(settings().workflow_queue_url, "run_id")
    )


@cache
def promotion_service() -> PromotionService:
    from docsvc.domain.promotion import PromotionService

    return PromotionService(workflow_service(), _secret_exists())


def _secret_exists() -> SecretExists:
    """Whether a tenant has a secret of this name (its metadata, never its value, is read)."""
    from docsvc.adapters.secrets_store import DynamoSecretRepository

    secrets = DynamoSecretRepository()
    return lambda tenant, name: secrets.get(tenant, name) is not None


@cache
def workflow_runner() -> WorkflowRunner:
    """Runs document blocks as jobs in its own process: for the workflow worker (documents layer)."""
    from docsvc.adapters.dynamo.workflows import DynamoWorkflowStore
    from docsvc.adapters.fetch import post_webhook
    from docsvc.documents.builtin import BuiltinEngine
    from docsvc.documents.pages import PageSelector
    from docsvc.domain.workflow_runs import WorkflowRunner
    from docsvc.names import REFERENCE_PREFIX

    allow_loopback = settings().allow_loopback_webhooks
    return WorkflowRunner(
        DynamoWorkflowStore(),
        job_service(),
        lambda tenant, name: secret_resolver().resolve(tenant, REFERENCE_PREFIX + name),
        lambda url, method, body, headers: post_webhook(
            url, body, headers, method=method, allow_loopback=allow_loopback, keep_body=API_ANSWER_BYTES
        ),
        PageSelector(document_source(), BuiltinEngine().supported),
    )


API_ANSWER_BYTES = 1024 * 1024  # what a workflow's api_call block keeps of an answer


def reset() -> None:
    """Forget every client, setting and service, so the next use reads the environment again."""
    from docsvc.adapters import aws

    aws.reset()
    settings.cache_clear()
    for factory in (
        account_service,
        user_directory,
        member_service,
        request_limiter,
        job_dispatch,
        idempotency_service,
        file_service,
        document_source,
        parse_service,
        document_reads,
        job_service,
        model_catalog,
        remote_models,
        intelligence_service,
        edit_service,
        eval_service,
        secret_resolver,
        secret_service,
        event_service,
        usage_service,
        table_service,
        endpoint_service,
        signing_secrets,
        delivery_service,
        workflow_service,
        promotion_service,
        workflow_runner,
    ):
        factory.cache_clear()

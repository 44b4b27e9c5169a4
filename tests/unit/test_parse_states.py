"""The parse state machine on in-memory ports that keep the adapters' rules (a move is written only
from the states it names; the output, event, charge and cache entry land with the move or not at all):
synchronous, cached and background parses, cancel and delete, every refusal, in milliseconds.
tests/integration run the same service on moto through HTTP."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from docsvc.domain import parses as parses_module
from docsvc.domain.documents import DocumentSource, MIMEData, SourceDocument
from docsvc.domain.events import Event
from docsvc.domain.parses import (
    ENGINE_REVISION,
    SYNC_SECONDS,
    ParseOutput,
    ParseRecord,
    ParseRequest,
    ParseService,
    ReadOptions,
)
from docsvc.domain.usage import Charge
from docsvc.errors import BadRequest, DocumentRejected, NotFound
from docsvc.tenancy import Tenant

TENANT = Tenant("org_parses", "test")


class Parses:
    """The parse table, in memory: a write is the record with its event, charge and cache entry."""

    def __init__(self) -> None:
        self.stored: dict[tuple[Tenant, str], ParseRecord] = {}
        self.cache: dict[tuple[Tenant, str], str] = {}
        self.events: list[str] = []
        self.charges: list[Charge] = []

    def put(
        self,
        tenant: Tenant,
        record: ParseRecord,
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> None:
        self._write(tenant, record, event, charge, cache_key)

    def get(self, tenant: Tenant, parse_id: str) -> ParseRecord | None:
        return self.stored.get((tenant, parse_id))

    def delete(self, tenant: Tenant, parse_id: str) -> ParseRecord | None:
        return self.stored.pop((tenant, parse_id), None)

    def list(self, tenant: Tenant, query: Any) -> Any:
        raise NotImplementedError  # lists are tested on DynamoDB

    def move(
        self,
        tenant: Tenant,
        record: ParseRecord,
        from_states: frozenset[str],
        event: Event | None = None,
        *,
        charge: Charge | None = None,
        cache_key: str | None = None,
    ) -> bool:
        stored = self.stored.get((tenant, record.id))
        if stored is None or stored.status not in from_states:
            return False
        self._write(tenant, record, event, charge, cache_key)
        return True

    def cached(self, tenant: Tenant, cache_key: str) -> str | None:
        return self.cache.get((tenant, cache_key))

    def _write(
        self, tenant: Tenant, record: ParseRecord, event: Event | None, charge: Charge | None, key: str | None
    ) -> None:
        self.stored[(tenant, record.id)] = record.model_copy(update={"output": None})
        self.events += [event.type] if event else []
        self.charges += [charge] if charge else []
        if key:
            self.cache[(tenant, key)] = record.id


class Store:
    def __init__(self) -> None:
        self.outputs: dict[tuple[Tenant, str], ParseOutput] = {}
        self.inputs: dict[tuple[Tenant, str], bytes] = {}

    def save_output(self, tenant: Tenant, parse_id: str, output: ParseOutput) -> None:
        self.outputs[(tenant, parse_id)] = output

    def load_output(self, tenant: Tenant, parse_id: str) -> ParseOutput | None:
        return self.outputs.get((tenant, parse_id))

    def save_input(self, tenant: Tenant, parse_id: str, content: bytes) -> None:
        self.inputs[(tenant, parse_id)] = content

    def load_input(self, tenant: Tenant, parse_id: str) -> bytes | None:
        return self.inputs.get((tenant, parse_id))

    def delete_all(self, tenant: Tenant, parse_id: str) -> None:
        self.outputs.pop((tenant, parse_id), None)
        self.inputs.pop((tenant, parse_id), None)


@dataclass(frozen=True)
class Page:
    number: int
    text: str
    warnings: tuple[str, ...] = ()
    ocr_confidence: float | None = None
    words: tuple[Any, ...] = ()
    image: bytes | None = None
    size: tuple[float, float] | None = None


@dataclass
class Engine:
    """Reads a text document as one page per line; `during` runs after each page is read."""

    supported: tuple[str, ...] = ("txt",)
    reads: int = 0
    during: Callable[[int], None] = lambda number: None
    options: list[ReadOptions] = field(default_factory=list)

    def pages(
        self, tenant: Tenant, document: SourceDocument, options: ReadOptions, on_count: Callable[[int], None]
    ) -> Iterator[Page]:
        self.reads += 1
        self.options.append(options)
        lines = document.content.decode().splitlines()
        on_count(len(lines))
        for number, line in enumerate(lines, 1):
            yield Page(number, line)
            self.during(number)


@pytest.fixture
def parses() -> Parses:
    return Parses()


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.fixture
def engine() -> Engine:
    return Engine()


@pytest.fixture
def sent() -> list[str]:
    return []


@pytest.fixture
def service(parses: Parses, store: Store, engine: Engine, sent: list[str]) -> ParseService:
    documents = DocumentSource(None, None, None)  # type: ignore[arg-type]  # data: URLs only
    return ParseService(parses, store, documents, engine, lambda tenant, parse_id: sent.append(parse_id))


def request(text: str = "first page\nsecond page", **fields: Any) -> ParseRequest:
    url = "data:text/plain;base64," + base64.b64encode(text.encode()).decode()
    return ParseRequest(document=MIMEData(filename="notes.txt", url=url), **fields)


# ---------------------------------------------------------------------------- synchronous
def test_a_parse_completes_with_its_pages_its_event_and_one_credit_a_page(
    service: ParseService, parses: Parses, store: Store
) -> None:
    parse = service.parse(TENANT, request())

    assert parse.status == "completed" and parse.output is not None
    assert parse.output.pages == ["first page", "second page"]
    assert parses.events == ["parse.completed"]
    assert parses.charges == [Charge(pages=2, credits=2.0, operation="parse")]
    assert store.outputs[(TENANT, parse.id)].pages == parse.output.pages


def test_identical_input_answers_from_the_cache_without_reading_and_says_so(
    service: ParseService, engine: Engine, parses: Parses
) -> None:
    first = service.parse(TENANT, request())
    again = service.parse(TENANT, request())
    busted = service.parse(TENANT, request(bust_cache=True))

    assert engine.reads == 2  # the first, and the one that busts the cache
    assert again.id != first.id and again.usage is not None and again.usage.cached is True
    assert again.output is not None and first.output is not None and again.output.pages == first.output.pages
    assert busted.usage is not None and busted.usage.cached is False


def test_the_cache_is_kept_per_tenant(service: ParseService, engine: Engine) -> None:
    service.parse(TENANT, request())
    other = service.parse(Tenant("org_parses", "production"), request())

    assert engine.reads == 2 and other.usage is not None and other.usage.cached is False


def test_english_asked_for_is_not_answered_from_a_parse_that_guessed_its_languages(
    service: ParseService, engine: Engine
) -> None:
    service.parse(TENANT, request())
    english = service.parse(TENANT, request(languages=["eng"]))

    assert engine.reads == 2 and english.usage is not None and english.usage.cached is False


def test_a_parse_cached_by_an_earlier_engine_is_read_again(
    service: ParseService, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.parse(TENANT, request())
    monkeypatch.setattr(parses_module, "ENGINE_REVISION", ENGINE_REVISION + 1)
    again = service.parse(TENANT, request())

    assert engine.reads == 2 and again.usage is not None and again.usage.cached is False


def test_a_document_over_the_synchronous_page_limit_is_a_413_and_nothing_is_stored(
    service: ParseService, parses: Parses
) -> None:
    with pytest.raises(DocumentRejected) as refused:
        service.parse(TENANT, request("\n".join(f"line {n}" for n in range(201))))

    assert (refused.value.code, refused.value.status_code) == ("too_many_pages", 413)
    assert parses.stored == {} and parses.charges == []


def test_an_ocr_language_the_deployment_lacks_is_a_422_before_anything_is_read(
    service: ParseService, engine: Engine
) -> None:
    with pytest.raises(DocumentRejected) as refused:
        service.parse(TENANT, request(languages=["chi_sim"]))

    assert refused.value.status_code == 422 and engine.reads == 0


def test_a_synchronous_parse_gives_a_page_time_for_dense_ocr_within_the_request(
    service: ParseService, engine: Engine
) -> None:
    service.parse(TENANT, request())

    (options,) = engine.options
    assert 10 < options.page_seconds <= 20 < SYNC_SECONDS


# ---------------------------------------------------------------------------- background
def test_a_background_parse_is_stored_queued_with_its_input_and_sent_once(
    service: ParseService, parses: Parses, store: Store, sent: list[str]
) -> None:
    queued = service.submit(TENANT, request())

    assert queued.status == "queued" and sent == [queued.id]
    assert parses.stored[(TENANT, queued.id)].status == "queued"
    assert store.inputs[(TENANT, queued.id)] == b"first page\nsecond page"


def test_the_worker_completes_a_queued_parse_once_however_often_its_message_comes(
    service: ParseService, parses: Parses, engine: Engine
) -> None:
    queued = service.submit(TENANT, request())

    service.run(TENANT, queued.id)
    service.run(TENANT, queued.id)

    assert service.get(TENANT, queued.id).status == "completed"
    assert engine.reads == 1 and parses.events == ["parse.completed"]


def test_a_background_parse_gives_a_page_a_minute(service: ParseService, engine: Engine) -> None:
    queued = service.submit(TENANT, request())

    service.run(TENANT, queued.id)

    (options,) = engine.options
    assert options.page_seconds == 60


def test_a_parse_cancelled_while_the_worker_reads_it_stays_cancelled_uncharged_and_uncached(
    service: ParseService, parses: Parses, engine: Engine
) -> None:
    queued = service.submit(TENANT, request("a\nb\nc"))

    def cancel_after_the_first_page(number: int) -> None:
        if number == 1:
            service.cancel(TENANT, queued.id)

    engine.during = cancel_after_the_first_page

    service.run(TENANT, queued.id)

    assert service.get(TENANT, queued.id).status == "cancelled"
    assert parses.charges == [] and parses.cache == {}
    assert parses.events == ["parse.cancelled"]


def test_a_document_the_engine_refuses_in_the_background_fails_the_parse_with_its_code(
    service: ParseService, engine: Engine
) -> None:
    def refuse(number: int) -> None:
        raise DocumentRejected("damaged_document", "the PDF could not be read", 400)

    engine.during = refuse
    queued = service.submit(TENANT, request())

    service.run(TENANT, queued.id)

    failed = service.get(TENANT, queued.id)
    assert failed.status == "failed" and failed.error is not None and failed.error.code == "damaged_document"


def test_a_fault_of_the_service_fails_the_parse_as_internal_never_leaves_it_in_progress(
    service: ParseService, engine: Engine
) -> None:
    def crash(number: int) -> None:
        raise RuntimeError("a bug")

    engine.during = crash
    queued = service.submit(TENANT, request())

    service.run(TENANT, queued.id)

    failed = service.get(TENANT, queued.id)
    assert failed.status == "failed" and failed.error is not None and failed.error.code == "internal_error"
    assert "a bug" not in failed.error.message


# ---------------------------------------------------------------------------- cancel and delete
def test_a_queued_parse_is_cancelled_and_the_worker_then_leaves_it(
    service: ParseService, engine: Engine
) -> None:
    queued = service.submit(TENANT, request())

    assert service.cancel(TENANT, queued.id).status == "cancelled"
    service.run(TENANT, queued.id)

    assert service.get(TENANT, queued.id).status == "cancelled" and engine.reads == 0


def test_a_finished_parse_cannot_be_cancelled(service: ParseService) -> None:
    parse = service.parse(TENANT, request())

    with pytest.raises(BadRequest, match="already completed"):
        service.cancel(TENANT, parse.id)


def test_a_deleted_parse_takes_its_bytes_with_it_and_is_then_not_found(
    service: ParseService, store: Store
) -> None:
    parse = service.parse(TENANT, request())

    service.delete(TENANT, parse.id)

    assert (TENANT, parse.id) not in store.outputs
    with pytest.raises(NotFound):
        service.get(TENANT, parse.id)
    with pytest.raises(NotFound):
        service.delete(TENANT, parse.id)


def test_another_environments_parse_is_not_found(service: ParseService) -> None:
    parse = service.parse(TENANT, request())

    with pytest.raises(NotFound):
        service.get(Tenant("org_parses", "production"), parse.id)

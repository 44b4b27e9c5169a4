"""Routes of the document-intelligence endpoints: create (synchronous), get and list per result kind,
schema generation, and the models of the deployment."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from docsvc.api.auth import CurrentTenant
from docsvc.api.params import list_parameters
from docsvc.domain.intelligence import IntelligenceService
from docsvc.domain.lists import ListQuery
from docsvc.domain.models import ModelCatalog, ModelInfo
from docsvc.domain.tables import TableService
from docsvc.endpoints.classification import CLASSIFICATION, Classification, ClassificationCreate
from docsvc.endpoints.deep_research import DEEP_RESEARCH, DeepResearchAnswer, DeepResearchCreate
from docsvc.endpoints.extraction import EXTRACTION, Extraction, ExtractionCreate, ExtractionSources
from docsvc.endpoints.lists import ListMetadata
from docsvc.endpoints.partition import PARTITION, Partition, PartitionCreate
from docsvc.endpoints.results import Result, ResultOperation
from docsvc.endpoints.schema_generation import SCHEMA_GENERATION, GeneratedSchema, SchemaGenerate
from docsvc.endpoints.split import SPLIT, Split, SplitCreate
from docsvc.services import intelligence_service, model_catalog, table_service
from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel

router = APIRouter(prefix="/v1")


def intelligence() -> IntelligenceService:
    """This function has no documents layer: documents are read by the document reader function."""
    return intelligence_service("by_reader_function")


Intelligence = Annotated[IntelligenceService, Depends(intelligence)]
Models = Annotated[ModelCatalog, Depends(model_catalog)]
Paging = Annotated[dict[str, Any], Depends(list_parameters(default_limit=10))]


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelInfo]


@router.get("/models", response_model=ModelList, tags=["models"], summary="The models of this deployment")
def list_models(tenant: CurrentTenant, models: Models) -> ModelList:
    return ModelList(data=models.list())


@router.post("/extractions", status_code=201, response_model=Extraction, tags=["extractions"])
def create_extraction(tenant: CurrentTenant, service: Intelligence, body: ExtractionCreate) -> Result:
    """The data of a document, as an object valid against `json_schema`, with a likelihood per field."""
    return EXTRACTION.answer(service, tenant, body)


@router.post("/classifications", status_code=201, response_model=Classification, tags=["classifications"])
def create_classification(tenant: CurrentTenant, service: Intelligence, body: ClassificationCreate) -> Result:
    """The category of a document among `categories`, with the reasoning."""
    return CLASSIFICATION.answer(service, tenant, body)


@router.post("/splits", status_code=201, response_model=Split, tags=["splits"])
def create_split(tenant: CurrentTenant, service: Intelligence, body: SplitCreate) -> Result:
    """The pages of a packet grouped into its subdocuments."""
    return SPLIT.answer(service, tenant, body)


@router.post("/partitions", status_code=201, response_model=Partition, tags=["partitions"])
def create_partition(tenant: CurrentTenant, service: Intelligence, body: PartitionCreate) -> Result:
    """The pages grouped by the value of `key` found on them."""
    return PARTITION.answer(service, tenant, body)


@router.post("/schemas/generate", status_code=201, response_model=GeneratedSchema, tags=["schemas"])
def generate_schema(tenant: CurrentTenant, service: Intelligence, body: SchemaGenerate) -> GeneratedSchema:
    """A JSON Schema of the data in the documents: their fields, types and tables."""
    return SCHEMA_GENERATION.answer(service, tenant, body)


@router.post(
    "/beta/deepresearch/extract",
    response_model=DeepResearchAnswer,
    tags=["deep research"],
    summary="Extract with an agent that searches and reads the document step by step (beta)",
)
def create_deep_research(
    tenant: CurrentTenant,
    service: Intelligence,
    tables: Annotated[TableService, Depends(table_service)],
    body: DeepResearchCreate,
    access_token: Annotated[str | None, Query(description="Accepted; not used.")] = None,
) -> DeepResearchAnswer:
    """A research that fails (a document that cannot be read, say) answers 200 with `success: false`
    and `error`, as the spec says; a request that is not valid is a 422 like everywhere else."""
    return DEEP_RESEARCH.answer(
        service, tenant, body, lookup=lambda column, value: tables.lookup(tenant, column, value)
    )


@router.get(
    "/extractions/{extraction_id}/sources",
    response_model=ExtractionSources,
    tags=["extractions"],
    summary="Where each value of an extraction came from",
)
def get_extraction_sources(
    tenant: CurrentTenant, service: Intelligence, extraction_id: str
) -> ExtractionSources:
    """The output's shape with each leaf value as {value, source, likelihood}: the page, the box of the
    words it was read from (fractions of the page) and those words."""
    return ExtractionSources.of(service.sources(tenant, extraction_id))


def _result_routes(operation: ResultOperation) -> None:
    """GET <path> (a page, newest first), GET <path>/{id} and DELETE <path>/{id}."""
    kind, path, resource = operation.kind, operation.path.removeprefix(router.prefix), operation.resource

    class ResultList(BaseModel):
        data: list[resource]  # type: ignore[valid-type]
        list_metadata: ListMetadata

    ResultList.__name__ = f"{resource.__name__}List"

    def list_results(tenant: CurrentTenant, service: Intelligence, paging: Paging) -> ResultList:
        page = service.list(tenant, kind, ListQuery(**paging))
        return ResultList(
            data=[resource.of(record) for record in page.items],
            list_metadata=ListMetadata.of(page),
        )

    def get_result(tenant: CurrentTenant, service: Intelligence, result_id: str) -> Any:
        return resource.of(service.get(tenant, kind, result_id))

    def get_extraction(
        tenant: CurrentTenant,
        service: Intelligence,
        result_id: str,
        include_sources: Annotated[
            bool, Query(description="Include `sources` (see the sources route).")
        ] = False,
    ) -> Any:
        if include_sources:
            record = service.sources(tenant, result_id, field=("query", "include_sources"))
            return resource.of(record, sources=True)
        return resource.of(service.get(tenant, kind, result_id))

    def delete_result(tenant: CurrentTenant, service: Intelligence, result_id: str) -> Response:
        service.delete(tenant, kind, result_id)
        return Response(status_code=204)

    router.add_api_route(
        path,
        list_results,
        methods=["GET"],
        response_model=ResultList,
        tags=[path.strip("/")],
        summary=f"List {kind}s",
        operation_id=f"list_{kind}s",
    )
    router.add_api_route(
        path + "/{result_id}",
        get_extraction if kind == "extraction" else get_result,
        methods=["GET"],
        response_model=resource,
        tags=[path.strip("/")],
        summary=f"Get a {kind}",
        operation_id=f"get_{kind}",
    )
    router.add_api_route(
        path + "/{result_id}",
        delete_result,
        methods=["DELETE"],
        status_code=204,
        response_class=Response,
        tags=[path.strip("/")],
        summary=f"Delete a {kind} and its stored output",
        operation_id=f"delete_{kind}",
    )


for _operation in (EXTRACTION, CLASSIFICATION, SPLIT, PARTITION):
    _result_routes(_operation)

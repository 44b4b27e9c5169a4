"""Parse outputs and background inputs in S3, under `parses/<org>/<env>/<parse id>/`."""

from __future__ import annotations

import json

from botocore.exceptions import ClientError

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.domain.parses import ParseOutput, output_of
from docsvc.tenancy import Tenant


def _prefix(tenant: Tenant, parse_id: str) -> str:
    return f"parses/{tenant.storage_prefix}/{parse_id}/"


class S3ParseStore:
    def __init__(self, bucket: str | None = None) -> None:
        self._bucket = bucket or settings().files_bucket

    def save_output(self, tenant: Tenant, parse_id: str, output: ParseOutput) -> None:
        """Only the pages, their OCR confidences and their sizes are stored: the text is their join,
        made again on reading."""
        stored = {
            "pages": output.pages,
            "ocr_confidence": output.ocr_confidence,
            "page_sizes": output.page_sizes,
        }
        aws.s3().put_object(
            Bucket=self._bucket,
            Key=_prefix(tenant, parse_id) + "output.json",
            Body=json.dumps(stored, ensure_ascii=False).encode(),
            ContentType="application/json",
        )

    def load_output(self, tenant: Tenant, parse_id: str) -> ParseOutput | None:
        content = self._get(_prefix(tenant, parse_id) + "output.json")
        if content is None:
            return None
        stored = json.loads(content)
        # an output stored before page sizes were kept has none: read without them
        return output_of(stored["pages"], stored.get("ocr_confidence") or (), stored.get("page_sizes") or ())

    def save_input(self, tenant: Tenant, parse_id: str, content: bytes) -> None:
        aws.s3().put_object(Bucket=self._bucket, Key=_prefix(tenant, parse_id) + "input", Body=content)

    def load_input(self, tenant: Tenant, parse_id: str) -> bytes | None:
        return self._get(_prefix(tenant, parse_id) + "input")

    def delete_all(self, tenant: Tenant, parse_id: str) -> None:
        prefix = _prefix(tenant, parse_id)
        aws.s3().delete_objects(
            Bucket=self._bucket,
            Delete={
                "Objects": [{"Key": prefix + "output.json"}, {"Key": prefix + "input"}],
                "Quiet": True,
            },
        )

    def _get(self, key: str) -> bytes | None:
        try:
            return bytes(aws.s3().get_object(Bucket=self._bucket, Key=key)["Body"].read())
        except ClientError as error:
            if error.response["Error"]["Code"] in {"NoSuchKey", "404"}:
                return None
            raise

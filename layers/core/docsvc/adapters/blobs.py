"""Document bytes in S3, under `files/<org>/<env>/` and `uploads/<org>/<env>/`."""

from __future__ import annotations

from collections.abc import Iterator

from botocore.exceptions import ClientError

from docsvc.adapters import aws
from docsvc.config import settings
from docsvc.content_disposition import attachment

_CHUNK = 1024 * 1024


class S3BlobStore:
    def __init__(self, bucket: str | None = None) -> None:
        self._bucket = bucket or settings().files_bucket

    def put(self, key: str, content: bytes, content_type: str) -> None:
        aws.s3().put_object(Bucket=self._bucket, Key=key, Body=content, ContentType=content_type)

    def size(self, key: str) -> int | None:
        try:
            return int(aws.s3().head_object(Bucket=self._bucket, Key=key)["ContentLength"])
        except ClientError as error:
            if error.response["Error"]["Code"] in {"404", "NoSuchKey", "NotFound"}:
                return None
            raise

    def read(self, key: str) -> bytes:
        return bytes(aws.s3().get_object(Bucket=self._bucket, Key=key)["Body"].read())

    def stream(self, key: str) -> Iterator[bytes]:
        body = aws.s3().get_object(Bucket=self._bucket, Key=key)["Body"]
        try:
            yield from body.iter_chunks(_CHUNK)
        finally:
            body.close()

    def copy(self, source: str, target: str) -> None:
        aws.s3().copy_object(
            Bucket=self._bucket, Key=target, CopySource={"Bucket": self._bucket, "Key": source}
        )

    def delete(self, key: str) -> None:
        aws.s3().delete_object(Bucket=self._bucket, Key=key)

    def upload_url(self, key: str, content_type: str, expires_in: int) -> str:
        return str(
            aws.s3().generate_presigned_url(
                "put_object",
                Params={"Bucket": self._bucket, "Key": key, "ContentType": content_type},
                ExpiresIn=expires_in,
            )
        )

    def download_url(self, key: str, filename: str, expires_in: int) -> str:
        return self.link(key, expires_in, attachment(filename))

    def link(self, key: str, expires_in: int, disposition: str | None = None) -> str:
        """A presigned GET of the object, served with `disposition` as its Content-Disposition."""
        params = {"Bucket": self._bucket, "Key": key}
        if disposition:
            params["ResponseContentDisposition"] = disposition
        return str(aws.s3().generate_presigned_url("get_object", Params=params, ExpiresIn=expires_in))

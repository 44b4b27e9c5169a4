"""One module per route group of the API; each has a blocking and an asynchronous class."""

from docsvc_client.resources._base import document

__all__ = ["document"]

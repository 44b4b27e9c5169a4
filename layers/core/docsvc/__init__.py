"""docsvc: a serverless document-processing service, isolated per organization and environment."""

__version__ = "0.1.0"
__license__ = "AGPL-3.0-or-later"  # SPDX; GET /v1/source and the OpenAPI document name it

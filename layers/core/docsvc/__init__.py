"""docsvc: a serverless document-processing service, isolated per organization and environment."""

__version__ = "0.1.0"

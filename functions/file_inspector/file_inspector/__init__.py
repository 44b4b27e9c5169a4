"""Inspects uploaded files: S3 ObjectCreated events arrive through SQS."""

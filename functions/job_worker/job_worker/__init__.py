"""Runs jobs from the job queue: the job endpoint's own domain service, never the HTTP API."""

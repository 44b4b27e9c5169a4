"""/v1/jobs: create (with Idempotency-Key), get, status, cancel, retry, list."""

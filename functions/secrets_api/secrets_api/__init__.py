"""/v1/secrets: create, set or rotate, get, list, delete. Metadata only; never the value."""

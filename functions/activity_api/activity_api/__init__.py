"""/v1/events (the environment's event log) and /v1/usage (pages and credits per day)."""

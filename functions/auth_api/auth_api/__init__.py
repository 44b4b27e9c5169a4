"""GET /v1/auth/status."""

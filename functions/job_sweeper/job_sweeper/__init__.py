"""Expires the jobs that did not finish before their expires_at, on a schedule."""

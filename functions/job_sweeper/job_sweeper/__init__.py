"""Expires the jobs that did not finish before their expires_at, and sends stranded jobs again."""

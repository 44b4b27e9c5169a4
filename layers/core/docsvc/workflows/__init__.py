"""Workflows: graphs of blocks, their diagnosis, versions and runs."""

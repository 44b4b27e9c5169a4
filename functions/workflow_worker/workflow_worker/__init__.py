"""Runs workflow runs from the workflow queue."""

"""Runs background parses from the parse queue."""

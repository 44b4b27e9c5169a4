"""Reads documents for the API functions (Lambda Invoke, never behind the API)."""

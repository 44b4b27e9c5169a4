"""Extraction evals: /v1/evals/extract, its documents and iterations, and extract, process and split."""

# docsvc: the two commands are `make dev` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 3000
STAMP := $(VENV)/.installed

.PHONY: dev test install lint typecheck unit integration e2e infra build openapi clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## Start the whole service on http://127.0.0.1:$(PORT) (Ctrl-C stops it).
dev: $(STAMP)
	PORT=$(PORT) $(BIN)/python -m docsvc.local

## Run the whole test suite: lint, types, unit, integration, e2e, infra (template, cfn-lint, sam build).
test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit integration e2e infra: $(STAMP)
	$(BIN)/python -m pytest -q tests/$@

## Build the deployment artefacts for the runtime and architecture of template.yaml (no Docker).
build: $(STAMP)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/sam build --template-file template.yaml

## Write the merged OpenAPI description of every route to docs/openapi.json.
openapi: $(STAMP)
	$(BIN)/python -m docsvc.local.openapi docs/openapi.json

clean:
	rm -rf $(VENV) .aws-sam .docsvc .pytest_cache .mypy_cache .ruff_cache

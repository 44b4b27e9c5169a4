# docsvc: the two commands are `make dev` and `make test`.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 3000
STAMP := $(VENV)/.installed

.PHONY: dev test install ocr browser screenshots lint typecheck audit unit integration e2e infra build lock openapi clean

# The server and its client (clients/python: the SDK and the `docsvc` command), each from its own pyproject.
# The client comes second: it owns the `docsvc` command, which replacing an older server would remove.
$(STAMP): pyproject.toml clients/python/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet -e ./clients/python
	touch $(STAMP)

install: $(STAMP)

## Tesseract's language data for the languages the documents layer ships (Debian/Ubuntu, as root);
## elsewhere the OCR tests are skipped.
OCR_LANGUAGES := $(shell sed -n 's/^OCR_LANGUAGES ?= //p' layers/documents/Makefile)
ocr:
	@missing=""; for language in $(OCR_LANGUAGES); do \
	  [ -n "$$(ls /usr/share/tesseract-ocr/*/tessdata/$$language.traineddata /usr/share/tessdata/$$language.traineddata 2>/dev/null)" ] \
	    || missing="$$missing tesseract-ocr-$$language"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -q tesseract-ocr $$missing >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q tesseract-ocr $$missing >/dev/null; }; \
	  else echo "OCR tests need Tesseract's data: apt-get install tesseract-ocr$$missing (or brew install tesseract tesseract-lang)" >&2; fi; \
	fi

## Chromium for the console's browser tests (Debian/Ubuntu, as root): Playwright drives the system's
## browser, never a download of its own. Elsewhere the browser tests are skipped (DOCSVC_CHROMIUM names
## another Chromium or Chrome).
browser:
	@if [ -z "$$DOCSVC_CHROMIUM" ] && ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get install -y -q chromium >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }; \
	  else echo "The console's browser tests need Chromium: apt-get install chromium (or set DOCSVC_CHROMIUM)" >&2; fi; \
	fi

## The console's pages as docs/console/*.png, taken by its browser tests in Chromium.
screenshots: $(STAMP) browser
	DOCSVC_SCREENSHOTS=docs/console $(BIN)/python -m pytest -q -p no:cacheprovider tests/e2e/test_console_browser.py

## Start the whole service on http://127.0.0.1:$(PORT) (Ctrl-C stops it).
dev: $(STAMP)
	PORT=$(PORT) $(BIN)/python -m docsvc.local

## Run the whole test suite: lint, types, unit, integration, e2e, infra (template, cfn-lint, sam build),
## and report the lines of docsvc and of the functions the tests ran (tests/with_coverage.py): a total
## under COVERAGE_FLOOR percent fails.
COVERAGE_FLOOR := 89
test: $(STAMP) ocr browser lint typecheck audit
	$(BIN)/python -m tests.with_coverage $(COVERAGE_FLOOR) -q -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

## Known vulnerabilities (PyPI's advisory database) in what the layers ship: the versions of their locks.
## A finding is fixed by moving that dependency's bound or lock to a fixed version (make lock), not ignored.
audit: $(STAMP)
	$(BIN)/pip-audit --progress-spinner off --disable-pip --require-hashes \
		-r layers/core/requirements.lock -r layers/documents/requirements.lock

unit integration e2e infra: $(STAMP)
	$(BIN)/python -m pytest -q tests/$@

## Build the deployment artefacts for the runtime and architecture of template.yaml (no Docker).
build: $(STAMP)
	SAM_CLI_TELEMETRY=0 PATH=$(abspath $(BIN)):$$PATH $(BIN)/sam build --template-file template.yaml --no-cached

## Resolve the layers' dependencies afresh (pyproject.toml, PyPI) into layers/<layer>/requirements.lock,
## which `make build` installs exactly. Run it after changing a dependency, and commit the locks.
lock: $(STAMP)
	$(MAKE) --makefile layers/core/Makefile PYTHON=$(abspath $(BIN)/python) lock-core lock-documents

## Write the merged OpenAPI description of every route to docs/openapi.json.
openapi: $(STAMP)
	$(BIN)/python -m docsvc.local.openapi docs/openapi.json

clean:
	rm -rf $(VENV) .aws-sam .docsvc .pytest_cache .mypy_cache .ruff_cache

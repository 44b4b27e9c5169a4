# Shared by layers/<name>/Makefile (sam build, BuildMethod: makefile).
#
# sam runs `make --makefile <absolute path of layers/<name>/Makefile> build-<LogicalId>` with ARTIFACTS_DIR
# set, from a scratch copy of the layer folder: paths here start from LAYERS_DIR (this file's folder), never
# from the working directory. A layer's content goes to $(ARTIFACTS_DIR)/python (/opt/python on Lambda).
#
# Dependencies come from the layer's lock, layers/<name>/requirements.lock: exact versions with the hashes of
# their wheels for the runtime of template.yaml (runtime.mk: CPython 3.12 on arm64), installed with --no-deps
# --require-hashes, so every build ships the same bytes. `make lock` (the top Makefile, the lock-<name>
# target here) writes the locks from pyproject.toml (layers/requirements.py): pip resolves the group's
# requirements for the target (--dry-run --report), and requirements.py keeps the closure without boto3 and
# botocore (the runtime has them) and adds the hashes of PyPI's wheels. --no-compile: pip would write .pyc
# files for the build interpreter; runtime.mk writes them for the runtime's.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
PIP := $(PYTHON) -m pip --disable-pip-version-check
LAYERS_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
include $(LAYERS_DIR)/runtime.mk
REQUIREMENTS := $(PYTHON) $(LAYERS_DIR)/requirements.py
PLATFORM := --platform manylinux2014_$(RUNTIME_MACHINE) --platform manylinux_2_28_$(RUNTIME_MACHINE) \
	--implementation cp --python-version $(RUNTIME_VERSION) --only-binary=:all:
SITE = $(ARTIFACTS_DIR)/python

.PHONY: artifacts-dir
artifacts-dir:
	@test -n "$(ARTIFACTS_DIR)" || { echo "ARTIFACTS_DIR is not set: run sam build (make build)" >&2; exit 1; }
	rm -rf "$(SITE)"
	mkdir -p "$(SITE)"

# $(call install-group,core|documents): the group's locked wheels into $(SITE), with their bytecode.
define install-group
	$(PIP) install --quiet --root-user-action=ignore --no-deps --require-hashes --no-compile \
		--target "$(SITE)" $(PLATFORM) -r "$(LAYERS_DIR)/$(1)/requirements.lock"
	rm -rf "$(SITE)/bin"
	$(call compile-bytecode,$(SITE))
endef

# make lock-core, lock-documents: the group's lock, resolved afresh from pyproject.toml and PyPI.
lock-%:
	scratch="$$(mktemp -d)"; trap 'rm -rf "$$scratch"' EXIT; \
	$(REQUIREMENTS) $* \
	| $(PIP) install --quiet --dry-run --ignore-installed --report - --target "$$scratch/site" $(PLATFORM) \
		-r /dev/stdin > "$$scratch/report.json"; \
	$(REQUIREMENTS) $* --lock "$$scratch/report.json" > "$$scratch/requirements.lock"; \
	mv "$$scratch/requirements.lock" "$(LAYERS_DIR)/$*/requirements.lock"

# Shared by layers/<name>/Makefile (sam build, BuildMethod: makefile).
#
# sam runs `make --makefile <absolute path of layers/<name>/Makefile> build-<LogicalId>` with ARTIFACTS_DIR
# set, from a scratch copy of the layer folder: paths here start from LAYERS_DIR (this file's folder), never
# from the working directory. A layer's content goes to $(ARTIFACTS_DIR)/python (/opt/python on Lambda).
#
# Dependencies come from pyproject.toml (layers/requirements.py) as wheels for the runtime of template.yaml
# (runtime.mk: CPython 3.12 on arm64). pip resolves them once (--dry-run --report), requirements.py keeps the
# closure of the group's requirements without boto3/botocore (the runtime has them), and pip installs exactly
# those pins with --no-deps. --no-compile: pip would write .pyc files for the build interpreter; runtime.mk
# writes them for the runtime's.

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

# $(call install-group,core|documents): the group's wheels into $(SITE), with their bytecode.
define install-group
	$(REQUIREMENTS) $(1) \
	| $(PIP) install --quiet --dry-run --report - --target "$(SITE)" $(PLATFORM) -r /dev/stdin \
	| $(REQUIREMENTS) $(1) --resolved - \
	| $(PIP) install --quiet --root-user-action=ignore --no-deps --no-compile --target "$(SITE)" $(PLATFORM) -r /dev/stdin
	rm -rf "$(SITE)/bin"
	$(call compile-bytecode,$(SITE))
endef

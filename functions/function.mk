# Shared by functions/<name>/Makefile (sam build, BuildMethod: makefile): the function's artifact is its one
# package, functions/<name>/<name>/, with bytecode for the runtime (../layers/runtime.mk); docsvc and the
# dependencies come from the layers.
#
# sam runs `make --makefile <absolute path of functions/<name>/Makefile> build-<LogicalId>` with ARTIFACTS_DIR
# set, from a scratch copy of the function folder: the including Makefile sets FUNCTION_DIR (its own folder,
# from its absolute path) and everything here starts from it, never from the working directory.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PACKAGE := $(notdir $(patsubst %/,%,$(FUNCTION_DIR)))
include $(FUNCTION_DIR)../../layers/runtime.mk

ifeq ($(wildcard $(FUNCTION_DIR)$(PACKAGE)/__init__.py),)
$(error $(FUNCTION_DIR) holds no package $(PACKAGE)/: a function folder holds one package of its own name)
endif

.PHONY: function
function:
	@test -n "$(ARTIFACTS_DIR)" || { echo "ARTIFACTS_DIR is not set: run sam build (make build)" >&2; exit 1; }
	rm -rf "$(ARTIFACTS_DIR)/$(PACKAGE)"
	mkdir -p "$(ARTIFACTS_DIR)"
	cp -R "$(FUNCTION_DIR)$(PACKAGE)" "$(ARTIFACTS_DIR)/$(PACKAGE)"
	find "$(ARTIFACTS_DIR)/$(PACKAGE)" \( -name __pycache__ -prune -o -name '*.py[co]' \) -exec rm -rf {} +
	$(call compile-bytecode,$(ARTIFACTS_DIR)/$(PACKAGE))

# The Lambda runtime the layers and functions are built for (template.yaml: Runtime, Architectures), and
# its bytecode. Included by layer.mk and ../functions/function.mk.
#
# Lambda's code folders are read-only, so a module without its .pyc is compiled again at every cold start:
# an API handler imports in about 1.5 s without bytecode and 0.5 s with it (docs/performance.md). Only an
# interpreter of the runtime's version writes bytecode the runtime accepts: RUNTIME_PYTHON, python3.12 from
# PATH unless set. Without one the build goes on, and says that it ships no bytecode.
# --invalidation-mode unchecked-hash: the runtime never compares a .pyc with its source's timestamp (a zip
# keeps timestamps to 2 s), so none is compiled again.

RUNTIME_VERSION := 3.12
RUNTIME_MACHINE := aarch64
RUNTIME_PYTHON ?= python$(RUNTIME_VERSION)

# $(call compile-bytecode,<folder>)
define compile-bytecode
	if "$(RUNTIME_PYTHON)" -c 'import sys; sys.exit("%d.%d" % sys.version_info[:2] != "$(RUNTIME_VERSION)")' 2>/dev/null; \
	then "$(RUNTIME_PYTHON)" -m compileall -q -j 0 --invalidation-mode unchecked-hash "$(1)" >/dev/null; \
	else echo "warning: no Python $(RUNTIME_VERSION) to run (RUNTIME_PYTHON=$(RUNTIME_PYTHON)): $(1) ships without bytecode, so cold starts compile it" >&2; \
	fi
endef

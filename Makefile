# zabkit: the one entry point. `make help` lists the targets.
#
# Each component adds its targets in a fragment of its own (mk/*.mk, spec/*.mk,
# check/*.mk, jepsen/*.mk, bench/*.mk) and appends to TEST_TARGETS, so `make test` is the
# union of every component's tests and no fragment edits another's.
SHELL := /bin/bash
.DEFAULT_GOAL := help
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
ENSURE := $(ROOT)/mk/ensure.sh
MVN := mvn -B -q -Dstyle.color=never
TEST_TARGETS :=

include $(sort $(wildcard $(ROOT)/mk/*.mk))
include $(sort $(wildcard $(ROOT)/spec/*.mk $(ROOT)/check/*.mk $(ROOT)/sim/*.mk $(ROOT)/jepsen/*.mk $(ROOT)/docker/*.mk $(ROOT)/bench/*.mk))

.PHONY: help test
help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | sort -u | \
	  awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

test: $(TEST_TARGETS) ## run every test suite (what CI runs)
	@echo "make test: every suite passed: $(TEST_TARGETS)"
	@echo "suites: $(words $(TEST_TARGETS)) passed, 0 failed"

# `make verify`: the user's CI gate. Every verification layer (TLC's CI models, simulator seeds of
# every shape, simulator histories through zk-check, a short campaign on both systems, trace
# validation once it exists) on embedded defaults, one verdict table, JUnit XML, exit 0/1/2.
.PHONY: verify
VERIFY_ARGS ?=

verify: deps-java ## the main job: every verification layer, one verdict table; exit 0 valid, 1 violated, 2 undecided (VERIFY_ARGS='--quick')
	@$(ENSURE) python3
	python3 $(ROOT)/bin/zabkit-verify $(VERIFY_ARGS)

.PHONY: verify-selftest
verify-selftest: deps-java ## the gate's own test: an honest short run exits 0, a planted lying disk exits 1 with a replay line
	@$(ENSURE) python3
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests install
	$(ROOT)/bin/zabkit-verify-selftest

TEST_TARGETS += verify-selftest

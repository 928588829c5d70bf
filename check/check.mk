# History checkers (check/): the zabkit-check Java library (its unit tests run in test-java's mvn install),
# the zk-check command, the mutation corpus and the Porcupine cross-check.
CHECK_DIR := $(ROOT)/check
CHECK_CORPUS := $(CHECK_DIR)/out/corpus
ZK_CHECK := $(CHECK_DIR)/bin/zk-check
.PHONY: deps-check check-corpus test-check bench-check

deps-check:
	@$(ENSURE) java maven go

check-corpus: deps-check ## write the good and known-bad history corpus to check/out/corpus
	rm -rf $(CHECK_CORPUS)
	$(ZK_CHECK) corpus --out $(CHECK_CORPUS)

test-check: check-corpus ## zk-check over the corpus (exit codes, property names), the Porcupine cross-check, the brute-force oracle, the untuned seed sweep
	$(CHECK_DIR)/bin/corpus-smoke $(CHECK_CORPUS)
	$(CHECK_DIR)/bin/crosscheck $(CHECK_CORPUS)
	cd $(ROOT) && mvn -B -q -Dstyle.color=never -pl check -am test -Dtest=DifferentialOracleTest -Dsurefire.failIfNoSpecifiedTests=false
	$(MAKE) --no-print-directory sweep-ci

TEST_TARGETS += test-check

bench-check: deps-check ## check a 1,000,000-operation, 100-session history; prints ops/s, wall and CPU time, peak heap
	$(ZK_CHECK) bench --ops 1000000 --sessions 100 --seed 42 --info-probability 0.05

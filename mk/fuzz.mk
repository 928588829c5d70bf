# Coverage-guided fuzzing (Jazzer) of the request decoder, the peer codec, the log, transaction and
# snapshot readers and the zoo.cfg parser. The committed inputs (seeds and every past finding) replay
# in test-java with the other tests; `make fuzz` mutates them. Not in CI: fuzzing is open-ended.
.PHONY: fuzz fuzz-seeds
FUZZ_MINUTES ?= 2

fuzz: deps-java ## coverage-guided fuzzing of every byte reader, FUZZ_MINUTES per target (default 2); findings become committed regression inputs
	FUZZ_MINUTES=$(FUZZ_MINUTES) $(ROOT)/bin/zabkit-fuzz $(FUZZ_TARGETS)

fuzz-seeds: deps-java ## rewrite the fuzz targets' seed inputs from real frames and files (after a format change)
	cd $(ROOT) && $(MVN) -pl impl -am install -DskipTests && $(MVN) -pl impl surefire:test -Dtest='*FuzzTest' \
	  -Dzabkit.fuzz.writeSeeds=true -Dsurefire.failIfNoSpecifiedTests=false

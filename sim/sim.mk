# Deterministic simulator (sim/). Its JUnit tests (1,000 seeds, replay, lying disk) already run in the
# shared Maven build (test-java), so nothing is appended to TEST_TARGETS here.
.PHONY: sim-build sim sim-replay sim-ensembles sim-merge sim-shard-selftest

ENSEMBLE_SEEDS ?= 2000

SIM_SEEDS ?= 20000
SIM_FIRST ?= 1
SIM_PROGRESS ?= 1000
TICKS ?= 600
DISK ?= honest
SIM_CP = $(ROOT)/sim/target/classes:$$(cat $(ROOT)/sim/target/classpath.txt)
SIM_JAVA = java -ea -cp $(SIM_CP) io.zabkit.sim.SimMain
SERVERS ?= 1
VARIANT ?= Zab
SIM_FLAGS ?=
SIM_SHAPE = --servers $(SERVERS) --variant $(VARIANT) $(SIM_FLAGS)
# Sharding (SHARD=i/N): run the i-th of N disjoint blocks of the seed plan and write its result to
# SIM_RESULTS (one JSON file per shape and shard) for `make sim-merge`; see sim/README.md.
SHARD ?=
SIM_RESULTS ?= $(ROOT)/sim/target/shards
SIM_SHARDING = $(if $(SHARD),--shard $(SHARD) --result $(SIM_RESULTS)/$(1)-shard-$(subst /,-of-,$(SHARD)).json,)

sim-build: deps-java
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests package

sim: sim-build ## run many seeds (SIM_SEEDS=20000 SIM_FIRST=1 TICKS=600 SERVERS=1|3|5 VARIANT=Zab|ZabAc|... SHARD=i/N) with progress and a summary
	@mkdir -p $(SIM_RESULTS)
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(SIM_SEEDS) --ticks $(TICKS) --disk $(DISK) --progress-every $(SIM_PROGRESS) $(SIM_SHAPE) \
	  $(call SIM_SHARDING,sim-$(SERVERS)-$(VARIANT))

sim-replay: sim-build ## replay one seed with its full event trace: make sim-replay SEED=N [HISTORY=file.edn]
	@test -n "$(SEED)" || { echo "sim-replay: give the seed to replay, e.g. make sim-replay SEED=12345" >&2; exit 2; }
	$(SIM_JAVA) --seed $(SEED) --ticks $(TICKS) --disk $(DISK) $(SIM_SHAPE) --trace $(if $(HISTORY),--history $(HISTORY),)

sim-ensembles: sim-build ## ENSEMBLE_SEEDS seeds each: 3 and 5 servers under classic Zab, then every fast variant on 3 (SHARD=i/N)
	@mkdir -p $(SIM_RESULTS)
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 3 --variant Zab $(call SIM_SHARDING,ens-3-Zab)
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 5 --variant Zab $(call SIM_SHARDING,ens-5-Zab)
	for v in ZabAc ZabAa ZabCt ZabCT; do \
	  $(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 3 --variant $$v \
	    $(call SIM_SHARDING,ens-3-$$v) || exit 1; \
	done

sim-merge: ## merge shard results into one verdict: make sim-merge DIR=dir-of-shard-files (refuses missing or repeated shards)
	@test -n "$(DIR)" || { echo "sim-merge: give the directory of shard results, e.g. make sim-merge DIR=sim/target/shards" >&2; exit 2; }
	python3 $(ROOT)/bin/sim-merge $(DIR)

sim-shard-selftest: sim-build ## sharded sweeps merged equal the unsharded run; missing, repeated and mismatched shards are refused
	$(ROOT)/bin/sim-shard-selftest

TEST_TARGETS += sim-shard-selftest

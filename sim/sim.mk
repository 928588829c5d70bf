# Deterministic simulator (sim/). Its JUnit tests (1,000 seeds, replay, lying disk) already run in the
# shared Maven build (test-java), so nothing is appended to TEST_TARGETS here.
.PHONY: sim-build sim sim-replay sim-ensembles

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

sim-build: deps-java
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests package

sim: sim-build ## run many seeds (SIM_SEEDS=20000 SIM_FIRST=1 TICKS=600 SERVERS=1|3|5 VARIANT=Zab|ZabAc|...) with progress and a summary
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(SIM_SEEDS) --ticks $(TICKS) --disk $(DISK) --progress-every $(SIM_PROGRESS) $(SIM_SHAPE)

sim-replay: sim-build ## replay one seed with its full event trace: make sim-replay SEED=N [HISTORY=file.edn]
	@test -n "$(SEED)" || { echo "sim-replay: give the seed to replay, e.g. make sim-replay SEED=12345" >&2; exit 2; }
	$(SIM_JAVA) --seed $(SEED) --ticks $(TICKS) --disk $(DISK) $(SIM_SHAPE) --trace $(if $(HISTORY),--history $(HISTORY),)

sim-ensembles: sim-build ## ENSEMBLE_SEEDS seeds each: 3 and 5 servers under classic Zab, then every fast variant on 3
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 3 --variant Zab
	$(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 5 --variant Zab
	for v in ZabAc ZabAa ZabCt ZabCT; do \
	  $(SIM_JAVA) --seed $(SIM_FIRST) --seeds $(ENSEMBLE_SEEDS) --ticks $(TICKS) --progress-every $(SIM_PROGRESS) --servers 3 --variant $$v || exit 1; \
	done

# Perturbation harness (check/perturb/): violations planted by code that shares nothing with zk-check,
# counted per kind; the simulator's ground truth against zk-check's placements; the untuned seed sweep.
# zk-check is used only through its command line (check/bin/zk-check).
PERTURB_DIR := $(ROOT)/check/perturb
PERTURB := $(PERTURB_DIR)/bin/perturb
PERTURB_OUT := $(PERTURB_DIR)/out
# The CI bar: the ONE place that says how much of each kind zk-check must catch (see the file's header).
PERTURB_BAR := $(PERTURB_DIR)/ci-bar.tsv
# A zk-check run per mutated history: a small heap and the quick JIT start the JVM faster.
PERTURB_JAVA_OPTS ?= -Xmx1g -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
PERTURB_JOBS ?= 2
# The search budget per mutated history, in operations replayed (deterministic: the same figures on a loaded
# machine): past it zk-check says :unknown (counted as missed, never as caught). The seconds are only zk-check's
# outer safety net against a pathological history.
PERTURB_SEARCH_STEPS ?= 5000000
PERTURB_SEARCH_SECONDS ?= 300
PERTURB_RUN = ZK_CHECK_JAVA_OPTS="$(PERTURB_JAVA_OPTS)" ZK_CHECK_SEARCH_STEPS=$(PERTURB_SEARCH_STEPS) ZK_CHECK_SEARCH_SECONDS=$(PERTURB_SEARCH_SECONDS) $(PERTURB)
HISTORY_DUMP = nice java -ea -cp $(ROOT)/sim/target/classes:$$(cat $(ROOT)/sim/target/classpath.txt) io.zabkit.sim.HistoryDump
.PHONY: deps-perturb test-perturb-unit perturb-ci-inputs perturb-inputs test-perturb perturb perturb-truth sweep-sim sweep-ci

deps-perturb:
	@$(ENSURE) python3 java maven

test-perturb-unit: deps-perturb
	cd $(PERTURB_DIR) && python3 -m unittest discover -s tests -t . -q

# CI inputs: fixed seeds, so the figures (and the bar) are the same on every run. The simulator's
# targeted scenarios are off for them (--scenarios off, SimMain's --without-scenarios): each scenario
# the bug zoo adds draws from the seed and would change these histories, and with them the sites the
# bar was measured on. `make perturb` (the full run) takes the simulator as it is.
perturb-ci-inputs: sim-build
	rm -rf $(PERTURB_OUT)/ci-inputs && mkdir -p $(PERTURB_OUT)/ci-inputs
	$(HISTORY_DUMP) --first 2004 --count 1 --servers 1 --scenarios off --out $(PERTURB_OUT)/ci-inputs
	$(HISTORY_DUMP) --first 6 --count 1 --servers 5 --scenarios off --out $(PERTURB_OUT)/ci-inputs
	$(ZK_CHECK) generate --out $(PERTURB_OUT)/ci-inputs/gen-p05-seed1.edn --seed 1 --ops 300 --info-probability 0.05
	$(ZK_CHECK) generate --out $(PERTURB_OUT)/ci-inputs/gen-p10-seed2.edn --seed 2 --ops 300 --info-probability 0.10

test-perturb: test-perturb-unit perturb-ci-inputs ## bounded perturbation run: fails when a kind catches fewer (or misses more) than its line in check/perturb/ci-bar.tsv
	$(PERTURB_RUN) run --zk-check $(ZK_CHECK) --out $(PERTURB_OUT)/ci --sites 1 --jobs $(PERTURB_JOBS) --bar $(PERTURB_BAR) \
	  $(PERTURB_OUT)/ci-inputs

TEST_TARGETS += test-perturb

# Full run: simulator histories of 1, 3 and 5 servers, generator histories at 1-20 % :info, and any
# campaign history under jepsen/store or results/.
PERTURB_SIM_SEEDS ?= 6
PERTURB_SITES ?= 1
perturb-inputs: sim-build
	rm -rf $(PERTURB_OUT)/inputs && mkdir -p $(PERTURB_OUT)/inputs
	$(HISTORY_DUMP) --first 2001 --count $(PERTURB_SIM_SEEDS) --servers 1 --out $(PERTURB_OUT)/inputs
	$(HISTORY_DUMP) --first 1 --count $(PERTURB_SIM_SEEDS) --servers 3 --out $(PERTURB_OUT)/inputs
	$(HISTORY_DUMP) --first 1 --count $(PERTURB_SIM_SEEDS) --servers 5 --out $(PERTURB_OUT)/inputs
	for p in 01 05 10 20; do for s in 1 2; do \
	  $(ZK_CHECK) generate --out $(PERTURB_OUT)/inputs/gen-p$$p-seed$$s.edn --seed $$s --ops 300 --info-probability 0.$$p || exit 1; \
	done; done
	n=0; for h in $$(find $(ROOT)/jepsen/store $(ROOT)/results -name history.edn 2>/dev/null); do \
	  n=$$((n+1)); cp "$$h" $(PERTURB_OUT)/inputs/campaign-$$n.edn; done; \
	  echo "perturb-inputs: $$n campaign histories found under jepsen/store and results/"

perturb: perturb-inputs ## full perturbation run: every kind on simulator, generator and campaign histories; table in check/perturb/out/full
	$(PERTURB_RUN) run --zk-check $(ZK_CHECK) --out $(PERTURB_OUT)/full --sites $(PERTURB_SITES) --jobs $(PERTURB_JOBS) \
	  --goal 99 $(PERTURB_OUT)/inputs

perturb-truth: perturb-ci-inputs ## compare zk-check's :placements with the simulator's ground truth (NAME.truth.edn)
	$(PERTURB_RUN) truth --zk-check $(ZK_CHECK) $(if $(TRUTH_ALLOW_MISSING),--allow-missing,) $(PERTURB_OUT)/ci-inputs

# Untuned sweep: a fresh seed range every day, far from every range a test pins (tests use seeds < 10,000).
SWEEP_DAY := $(shell echo $$(( $$(date -u +%s) / 86400 )))
SWEEP_FIRST ?= $(shell echo $$(( 1000000 + ($(SWEEP_DAY) % 9000) * 1000 )))
SWEEP_S1 ?= 100
SWEEP_S3 ?= 60
SWEEP_S5 ?= 40
sweep-sim: sim-build ## zk-check SWEEP_S1+SWEEP_S3+SWEEP_S5 simulator histories from a date-derived seed range; any INVALID fails
	@echo "sweep-sim: $$(date -u +%F): seeds $(SWEEP_FIRST).. ($(SWEEP_S1) standalone, $(SWEEP_S3) of 3 servers, $(SWEEP_S5) of 5);" \
	  "reproduce: make sweep-sim SWEEP_FIRST=$(SWEEP_FIRST)"
	rm -rf $(PERTURB_OUT)/sweep && mkdir -p $(PERTURB_OUT)/sweep
	$(HISTORY_DUMP) --first $(SWEEP_FIRST) --count $(SWEEP_S1) --servers 1 --out $(PERTURB_OUT)/sweep
	$(HISTORY_DUMP) --first $(SWEEP_FIRST) --count $(SWEEP_S3) --servers 3 --out $(PERTURB_OUT)/sweep
	$(HISTORY_DUMP) --first $(SWEEP_FIRST) --count $(SWEEP_S5) --servers 5 --out $(PERTURB_OUT)/sweep
	$(PERTURB_RUN) sweep --zk-check $(ZK_CHECK) --jobs $(PERTURB_JOBS) $(PERTURB_OUT)/sweep || \
	  { echo "sweep-sim: reproduce the whole sweep: make sweep-sim SWEEP_FIRST=$(SWEEP_FIRST)"; exit 1; }

# CI's untuned sweep (run by make test-check): the same date-derived fresh seed range, 150 histories, a search
# budget of 1,000,000 operations replayed each. An UNKNOWN (budget) is counted and listed, never a failure; an INVALID is a false alarm and fails,
# printing the range so that `make sweep-ci SWEEP_FIRST=N` reproduces it.
sweep-ci: ## the untuned sweep at CI's size (70 standalone, 50 three-server, 30 five-server histories; ~2-3 min)
	$(MAKE) --no-print-directory sweep-sim SWEEP_S1=70 SWEEP_S3=50 SWEEP_S5=30 PERTURB_SEARCH_STEPS=1000000

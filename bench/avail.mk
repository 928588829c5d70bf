# Watch-unavailable windows after a crash (issue 20): System S's Fig 10a/10b-c on real ensembles of
# Apache ZooKeeper 3.9.4 and zabkit, one after the other in the same run (bench/.../avail/AvailMain).
# The real run takes a few minutes; QUICK=1 is the smoke run (2 clients per system, into
# bench/target/avail-quick/). make test-avail runs the smoke run and checks its figures (CI, ~50 s).
.PHONY: avail-systems test-avail

AVAIL_ARGS ?=
AVAIL_OUT ?= $(if $(QUICK),$(ROOT)/bench/target/avail-quick,$(ROOT)/results/availability)

avail-systems: bench-build ## watch-unavailable windows (follower and leader kill -9, leader SIGSTOP), both systems, ~6 min (QUICK=1, AVAIL_ARGS='--clients 5,25 --rate 100')
	@mkdir -p $(AVAIL_OUT)
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.avail.AvailMain --systems "$(SYSTEMS)" --out "$(AVAIL_OUT)" $(if $(QUICK),--quick,) $(AVAIL_ARGS) \
	  2>&1 | tee "$(AVAIL_OUT)/avail-output.txt"

# CI smoke run (about 30 s): 2 lean clients per system, one follower and one leader kill -9 each;
# fails unless every disconnected client's window was measured, positive and after its own
# milestones, and each leader kill shows a new leader in srvr and in the logs.
test-avail: bench-build ## smoke run of avail-systems that checks every window was measured
	@mkdir -p $(ROOT)/bench/target/avail-test
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.avail.AvailMain --quick --check --java-clients 0 --faults follower-kill,leader-kill --max-window-s 30 \
	  --out "$(ROOT)/bench/target/avail-test" 2>&1 | tee "$(ROOT)/bench/target/avail-test/avail-output.txt"

TEST_TARGETS += test-avail

.PHONY: avail-plots
avail-plots: bench-build ## redraw the availability figures from a run's TSVs (AVAIL_OUT=dir, default results/availability)
	cd $(ROOT) && java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.avail.Replot "$(AVAIL_OUT)"

# seed 004's Fig 8 (throughput over time while servers fail and recover), both systems, same schedule.
FIG8_OUT = $(if $(QUICK),$(ROOT)/bench/target/fig8-quick,$(ROOT)/results/availability/fig8)
.PHONY: avail-fig8
avail-fig8: bench-build ## seed 004 Fig 8: 5 servers at 30% writes, kills and restarts at the paper's marks, both systems, ~6 min (QUICK=1: ~2 min)
	@mkdir -p $(FIG8_OUT)
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "$(PAPERS_CP)" \
	  io.zabkit.bench.papers.PapersMain fig8 --out "$(FIG8_OUT)" $(if $(QUICK),--quick,) $(PAPERS_ARGS) \
	  2>&1 | tee "$(FIG8_OUT)/output.txt"

# Issue 20 item 4: the same windows in the deterministic simulator (sim/.../AvailSweep), at scale
# (thousands of clients, millions of watches), sweeping tickTime, initLimit, syncLimit, the session
# timeout, clients, watches per client, the server's CPU per watch and the fault kind; plus bench/avail's
# own points for calibration. About 5 min at load 30; AVAIL_SIM_ARGS=--full adds 2,000 clients (the committed run),
# --large 5,000 clients and 10,000 watches per client.
AVAIL_SIM_OUT ?= $(if $(QUICK),$(ROOT)/sim/target/avail-sim-quick,$(ROOT)/results/availability/sim)
AVAIL_SIM_ARGS ?=
.PHONY: avail-sim
avail-sim: sim-build bench-build ## simulator sweeps of the watch-unavailable window (results/availability/sim/ with AVAIL_SIM_ARGS=--full; QUICK=1, --large, --seeds K)
	@mkdir -p $(AVAIL_SIM_OUT)
	set -o pipefail; cd $(ROOT) && nice java -ea -Xmx3g -cp "$(ROOT)/sim/target/classes:$$(cat $(ROOT)/sim/target/classpath.txt)" \
	  io.zabkit.sim.AvailSweep --out "$(AVAIL_SIM_OUT)" $(if $(QUICK),--quick,) $(AVAIL_SIM_ARGS) \
	  2>&1 | tee "$(AVAIL_SIM_OUT)/output.txt"
	cd $(ROOT) && java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.avail.SimPlots "$(AVAIL_SIM_OUT)" "$(ROOT)/results/availability/rounds.tsv"

# The papers' performance experiments (bench/src/main/java/io/zabkit/bench/papers): Apache ZooKeeper 3.9.4
# and zabkit in one run each, written to results/papers/<paper>/ (README.md, .tsv, .png, .svg). Each
# prints figures and never fails on speed; the bounded checks run in test-java (bench/src/test). Every
# run but a QUICK one ends by rewriting results/README.md, the index, from the papers' .tsv files.
.PHONY: papers papers-zookeeper papers-system-s papers-system-s-replot papers-thesis papers-index

# PAPERS_ARGS: e.g. --parts fig5 --systems zabkit --quick (QUICK=1 writes to bench/target/papers-quick/)
PAPERS_ARGS ?=
PAPERS_OUT = $(if $(QUICK),$(ROOT)/bench/target/papers-quick/$(1),$(ROOT)/results/papers/$(1))
# zabkit's classes (impl/) run in the benchmark's JVM for the core-only and snapshot measurements.
PAPERS_CP = bench/target/classes:$$(cat bench/target/classpath.txt):impl/target/classes:impl/target/lib/*

define papers_run
	@mkdir -p $(call PAPERS_OUT,$(1))
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "$(PAPERS_CP)" \
	  io.zabkit.bench.papers.PapersMain $(1) --out "$(call PAPERS_OUT,$(1))" $(if $(QUICK),--quick,) $(PAPERS_ARGS) \
	  2>&1 | tee "$(call PAPERS_OUT,$(1))/output-$$(date -u +%Y%m%dT%H%M%S).txt"
	$(if $(QUICK),,cd $(ROOT) && java -cp "$(PAPERS_CP)" io.zabkit.bench.papers.PapersMain index --out "$(ROOT)/results")
endef

papers-zookeeper: bench-build ## seed 004: Table 2, Fig 5, Fig 7, both systems (PAPERS_ARGS='--parts fig7' QUICK=1)
	$(call papers_run,zookeeper)

papers-system-s: bench-build ## seed 001: Fig 2 (primitive ops) and Fig 6 (the limits of multi), both systems
	$(call papers_run,system-s)

papers-system-s-replot: bench-build ## redraw seed 001 Fig 2's charts from results/papers/system-s/fig2.tsv (no run)
	cd $(ROOT) && java -Djava.awt.headless=true -cp "$(PAPERS_CP)" io.zabkit.bench.papers.PapersMain system-s-replot \
	  --out "$(ROOT)/results/papers/system-s"

papers-thesis: bench-build ## seed 000: sync vs async, persistent vs sequential, tmpfs vs disk, snapshot cost
	$(call papers_run,thesis)

papers-index: bench-build ## results/README.md: each reproduced figure, the paper's number beside ours (from the .tsv files)
	cd $(ROOT) && java -cp "$(PAPERS_CP)" io.zabkit.bench.papers.PapersMain index --out "$(ROOT)/results"

papers: papers-zookeeper papers-system-s papers-thesis papers-kalantari papers-zookeeper-table3 papers-zookeeper-fig6 papers-el-sanosi ## every paper below and above, one after the other (each refreshes the index)

# Seed 003 (EL-Sanosi and Ezhilchelvan): Zab's variants by write ratio, Net-Only and with the disk, Apache
# ZooKeeper 3.9.4 in the same run (its own driver, ElSanosiMain). ELSANOSI_ARGS: e.g. --parts net --servers 3
# --variants Zab,ZabAc --windows 3 (QUICK=1: N = 3, Zab/ZabAc/ZooKeeper, 2 short windows, ~2 min).
.PHONY: papers-el-sanosi
ELSANOSI_ARGS ?=

papers-el-sanosi: bench-build ## seed 003: Fig 2-5, Zab/ZabAc/ZabAa/ZabCt/ZabCT/ZabAA vs ZooKeeper, Net-Only and disk (ELSANOSI_ARGS, QUICK=1)
	@mkdir -p $(call PAPERS_OUT,el-sanosi)
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "$(PAPERS_CP)" \
	  io.zabkit.bench.papers.ElSanosiMain --out "$(call PAPERS_OUT,el-sanosi)" $(if $(QUICK),--quick,) $(ELSANOSI_ARGS) \
	  2>&1 | tee "$(call PAPERS_OUT,el-sanosi)/output-$$(date -u +%Y%m%dT%H%M%S).txt"
	$(if $(QUICK),,cd $(ROOT) && java -cp "$(PAPERS_CP)" io.zabkit.bench.papers.PapersMain index --out "$(ROOT)/results")

# Seed 002 (Kalantari and Schiper) and seed 004's Table 3: coordination recipes (the papers' own and
# Curator's) on both systems (io.zabkit.bench.papers.RecipesMain); RecipesTest checks the recipes in test-java.
.PHONY: papers-kalantari papers-zookeeper-table3

define recipes_run
	@mkdir -p $(call PAPERS_OUT,$(2))
	set -o pipefail; cd $(ROOT) && nice java -Djava.awt.headless=true -cp "$(PAPERS_CP)" \
	  io.zabkit.bench.papers.RecipesMain $(1) --out "$(call PAPERS_OUT,$(2))" $(if $(QUICK),--quick,) $(PAPERS_ARGS) \
	  2>&1 | tee "$(call PAPERS_OUT,$(2))/output-$(1)-$$(date -u +%Y%m%dT%H%M%S).txt"
	$(if $(QUICK),,cd $(ROOT) && java -cp "$(PAPERS_CP)" io.zabkit.bench.papers.PapersMain index --out "$(ROOT)/results")
endef

papers-kalantari: bench-build ## seed 002: queue Table 1, Fig 4, Fig 5, herd Table 2, barrier Table 3; paper's recipes and Curator's, both systems
	$(call recipes_run,kalantari,kalantari)

papers-zookeeper-table3: bench-build ## seed 004 Table 3: Curator's double barrier, 50/100/200 clients, both systems
	$(call recipes_run,zookeeper-table3,zookeeper)

.PHONY: papers-zookeeper-fig6
papers-zookeeper-fig6: bench-build ## seed 004 Fig 6: throughput vs read ratio, every client on the leader (and spread, same run), both systems
	$(call recipes_run,zookeeper-fig6,zookeeper)

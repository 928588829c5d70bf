# TLA+ models of Zab and of ZooKeeper's client guarantees, checked with TLC.
# The model list, with the verdict each model must reach, is spec/models.tsv.
.PHONY: deps-tlc tlc tlc-deep tlc-dist-test

deps-tlc:
	@$(ENSURE) java maven python3

tlc: deps-tlc ## model-check the CI models with TLC (every verdict must be as expected)
	python3 $(ROOT)/spec/tlc.py --suite ci

TLC_DEEP_WORKERS ?= 1
# WORKERS=host1,host2: the breadth-first models run on TLC's distributed mode (TLCServer here,
# one TLCWorker per host; localhost entries are started here, the others print their command).
WORKERS ?=
tlc-deep: deps-tlc ## model-check MCZab_Deep (3 servers, 2 txns, 2 crashes, epoch<=3): bfs for 40 min, then 1,000 random traces (niced, 1 worker; WORKERS=h1,h2 for TLC's distributed mode; not part of make test)
	nice -n 10 python3 $(ROOT)/spec/tlc.py --suite deep --workers $(TLC_DEEP_WORKERS) $(if $(WORKERS),--dist $(WORKERS))

tlc-dist-test: deps-tlc ## TLC's distributed mode on loopback (TLCServer + 2 TLCWorkers) finds the same distinct states as one process (about 1-2 min; not in make test)
	nice -n 10 python3 $(ROOT)/spec/test_tlc_dist.py

TEST_TARGETS += tlc

tlc-mutants: deps-tlc ## show that each service property and Zab invariant can fail: TLC must catch every mutant of ZooKeeper.tla and Zab.tla
	python3 $(ROOT)/spec/tlc.py --fetch
	$(ROOT)/spec/mutants.sh

TEST_TARGETS += tlc-mutants

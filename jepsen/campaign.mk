# Fault campaigns (jepsen/): Jepsen-shaped tests of a real ensemble. See jepsen/README.md.
# Every target needs root (network namespaces, iptables); everything it creates is removed at
# the end of the run, also when it fails or is interrupted (`make campaign-clean` for runs that
# were killed with SIGKILL).
.PHONY: campaign-deps campaign-unit campaign campaign-ci campaign-all campaign-scale campaign-demo campaign-curate campaign-clean

CAMPAIGN_SYSTEM ?= zookeeper
CAMPAIGN_WORKLOAD ?= register
CAMPAIGN_NEMESIS ?= kill,partition
CAMPAIGN_NODES ?= 3
CAMPAIGN_TIME ?= 30
CAMPAIGN_ARGS ?=
LEIN := cd $(ROOT)/jepsen && lein

campaign-deps:
	@$(ENSURE) java lein iptables iproute2 faketime maven
	@$(LEIN) deps >/dev/null

campaign-unit: campaign-deps ## the campaign checkers' unit tests (hand-written legal and violating histories)
	$(LEIN) test

TEST_TARGETS += campaign-unit

campaign: campaign-deps ## one campaign (CAMPAIGN_SYSTEM/WORKLOAD/NEMESIS/NODES/TIME, CAMPAIGN_ARGS for the rest)
	$(LEIN) run test --system $(CAMPAIGN_SYSTEM) --workload $(CAMPAIGN_WORKLOAD) --nemesis $(CAMPAIGN_NEMESIS) \
	  --nodes $(CAMPAIGN_NODES) --time-limit $(CAMPAIGN_TIME) $(CAMPAIGN_ARGS)

# The short campaign CI runs, on both systems in one JVM (`test-all` prints a row per system with
# its verdict): register under kill then partition, 3 nodes in namespaces, 20 s each. --strict: an
# invalid or unknown verdict of either system fails the target (exit 1), an error exits 2.
CAMPAIGN_CI_ARGS := --systems zookeeper,zabkit --workloads register --nemeses kill,partition --nodes 3 \
  --time-limit 20 --nemesis-interval 4 --rate 40 --concurrency 5 --strict

campaign-ci: campaign-deps ## the short CI campaign on both systems: 3 nodes in namespaces, kill and partition, 20 s each
	$(LEIN) run test-all $(CAMPAIGN_CI_ARGS)

TEST_TARGETS += campaign-ci

campaign-all: campaign-deps ## the matrix: every system x workload x nemesis set (long; CAMPAIGN_ARGS e.g. --time-limit 30)
	$(LEIN) run test-all $(CAMPAIGN_ARGS)

campaign-demo: campaign-deps ## a newcomer's campaign: register under kill+partition on both systems, verdicts, table and plots
	@rc=0; $(LEIN) run test-all --systems zookeeper,zabkit --workloads register --nemeses kill,partition \
	  --nodes 3 --time-limit 30 || rc=$$?; \
	$(LEIN) run curate && \
	echo "campaign-demo: verdicts above; table results/campaigns/TABLE.md, plots results/campaigns/plots/, full runs jepsen/store/latest" && \
	exit $$rc

# Availability at Jepsen's scale (issue 20, item 6): register under each fault family alone, 10
# faults or more each (one every 8 s: 4 s quiet, 4 s of fault, for 100 s: 12 nominally, since the
# restarts and iptables calls of a loaded machine stretch the cycle), both systems with one seed,
# so both meet the same targets in the same order; then one CDF per family with both systems.
# About 30 minutes on the shared 2-core machine. SCALE_SEED picks the schedule.
SCALE_SEED ?= 20261125
SCALE_NEMESES := kill;pause;partition;loss;clock
SCALE_ARGS := --systems zookeeper,zabkit --workloads register --nemeses "$(SCALE_NEMESES)" --nodes 3 \
  --time-limit 100 --nemesis-interval 4 --rate 40 --concurrency 5 --seed $(SCALE_SEED)

campaign-scale: campaign-deps ## each fault family 10 times on both systems (one seed), then availability CDFs in results/availability/campaigns-scale/ (~30 min)
	@rc=0; $(LEIN) run test-all $(SCALE_ARGS) || rc=$$?; \
	$(LEIN) run availability-report $(SCALE_ARGS) --out $(ROOT)/results/availability/campaigns-scale && exit $$rc

campaign-curate: campaign-deps ## rebuild results/campaigns/ from rows.edn and the latest run of each test in jepsen/store (newer run wins)
	$(LEIN) run curate

campaign-clean: ## remove namespaces and processes left by campaigns that were killed
	@$(ENSURE) iproute2 lein
	$(LEIN) run clean

# The ssh backend, run for real: three "hosts" (network namespaces, each with its own sshd,
# address and iptables) and a control node, all created and removed by jepsen/bin/ssh-selftest;
# register under kill,partition on both systems, 20 s each (about 2 minutes). It also fails if
# the run leaves a server, a fault chain or its directory on a host. In `make test`: it took
# 110 s in each of three runs on this 2-core machine, all valid.
.PHONY: campaign-ssh-selftest
campaign-ssh-selftest: campaign-deps ## the ssh backend against sshd-in-namespace hosts this run creates: both systems, kill+partition (~2 min)
	@$(ENSURE) sshd
	$(ROOT)/jepsen/bin/ssh-selftest zookeeper zabkit

TEST_TARGETS += campaign-ssh-selftest

# The README's "Check your ZooKeeper fork" tutorial run as written: ZooKeeper 3.9.4's published
# sources with a planted lost update (the version check of a conditional write dropped), rebuilt into
# a fork's lib/; step 2 on the release's jars must be valid and on the fork's INVALID.
.PHONY: campaign-fork-selftest
campaign-fork-selftest: campaign-deps ## the fork tutorial for real: a ZooKeeper 3.9.4 fork with a planted lost update must be caught, the release not
	$(ROOT)/jepsen/bin/fork-selftest

# The same on 7 hosts from a nodes file, with the control node separate from them: what a user's
# cluster of 5-9 machines looks like (not in CI: seven servers of each system on 2 cores).
.PHONY: campaign-ssh-nodes
SSH_NODES ?= 7
campaign-ssh-nodes: campaign-deps ## the ssh backend on SSH_NODES (default 7) namespace hosts named in a nodes file, both systems
	@$(ENSURE) sshd
	SELFTEST_NODES=$(SSH_NODES) $(ROOT)/jepsen/bin/ssh-selftest zookeeper zabkit

# Hours of mixed load with rotating faults on a 3-server ensemble (issue 23): fresh znodes under
# 64 buckets, reads, listings; kill -9, pause, partition, a full disk (each dataDir on a tmpfs of
# --disk-mb), a client that never reads its replies and a stray peer impersonating a member, in
# turn. Ends with the read-back of every acknowledged create (the soak workload's checker: lost
# and phantom znodes), zk-check on the whole history, server memory and latency over time
# (memory.png/.svg, latency-windows.png/.svg in the run's store folder). --strict: an unknown
# verdict fails too. Not in CI (an hour); SOAK_MINUTES=3 for a smoke run.
.PHONY: soak
SOAK_SYSTEM ?= zabkit
SOAK_MINUTES ?= 60
SOAK_NEMESIS ?= kill,pause,partition,disk,slow-client,stray-peer
SOAK_ARGS ?=
soak: campaign-deps ## SOAK_MINUTES (60) of load and rotating faults incl. disk full, slow client, stray peer; read-back of every acknowledged write
	@$(ENSURE) util-linux
	$(LEIN) run test --system $(SOAK_SYSTEM) --workload soak --nemesis $(SOAK_NEMESIS) --nodes 3 \
	  --time-limit $$(( $(SOAK_MINUTES) * 60 )) --nemesis-interval 15 --rate 40 --concurrency 6 --controller-heap-mb 4096 \
	  --strict $(SOAK_ARGS)

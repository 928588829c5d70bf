# Benchmarks of real ensembles (bench/): throughput, latency and the leader-crash window of Apache
# ZooKeeper 3.9.4 and zabkit, one system after the other on the same machine and zoo.cfg. A benchmark
# prints figures and never fails on speed, so nothing is appended to TEST_TARGETS. (The real-process
# failover test, bench/src/test, runs in test-java with the other Maven tests.)
.PHONY: bench-build bench bench-writes

SYSTEMS ?= zookeeper,zabkit
BENCH_ARGS ?=
BENCH_OUT ?= $(if $(QUICK),$(ROOT)/bench/target/bench-quick,$(ROOT)/results/bench)

bench-build: deps-java
	cd $(ROOT) && $(MVN) -pl bench -am -DskipTests package

bench: bench-build ## ensembles side by side: ops/s, p50/p99, leader-crash windows (SYSTEMS=zookeeper QUICK=1 BENCH_ARGS='--clients 16')
	@mkdir -p $(BENCH_OUT)
	set -o pipefail; cd $(ROOT) && java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.BenchMain --systems "$(SYSTEMS)" --out "$(BENCH_OUT)" $(if $(QUICK),--quick,) $(BENCH_ARGS) \
	  2>&1 | tee "$(BENCH_OUT)/bench-output.txt"

# The two figures performance work moves (issue 21 item 6): the 0%-reads point (servers' CPU per write)
# and the leader-crash rounds, both systems, about 3 minutes; into bench/target/bench-writes/.
bench-writes: bench-build ## short bench: only the 0%-reads point and 20 leader-crash rounds, both systems (SYSTEMS=zabkit)
	@mkdir -p $(ROOT)/bench/target/bench-writes
	set -o pipefail; cd $(ROOT) && java -Djava.awt.headless=true -cp "bench/target/classes:$$(cat bench/target/classpath.txt)" \
	  io.zabkit.bench.BenchMain --systems "$(SYSTEMS)" --out "$(ROOT)/bench/target/bench-writes" --reads 0 $(BENCH_ARGS) \
	  2>&1 | tee "$(ROOT)/bench/target/bench-writes/bench-output.txt"

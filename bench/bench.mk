# Benchmarks of real ensembles (bench/): throughput, latency and the leader-crash window of Apache
# ZooKeeper 3.9.4 and zabkit, one system after the other on the same machine and zoo.cfg. A benchmark
# prints figures and never fails on speed, so nothing is appended to TEST_TARGETS. (The real-process
# failover test, bench/src/test, runs in test-java with the other Maven tests.)
.PHONY: bench-build bench

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

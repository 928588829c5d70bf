# Trace validation (issue 11): simulator traces of the real Zab core checked by TLC against spec/Zab.tla
# through spec/TraceZab.tla. spec/README.md has the event-to-action mapping and the divergences.
TRACE_SEEDS_3 ?= 20
TRACE_SEEDS_5 ?= 4
TRACE_TICKS ?= 150
TRACE_FIRST ?= 1
TRACE_FAULT_SEEDS_3 ?= 50
TRACE_FAULT_SEEDS_5 ?= 20
.PHONY: tlc-trace tlc-trace-teeth tlc-trace-long tlc-trace-faults trace-build

trace-build: deps-tlc
	python3 $(ROOT)/spec/tlc.py --fetch
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests install

tlc-trace: trace-build ## validate simulator traces against Zab.tla (TRACE_SEEDS_3=20 TRACE_SEEDS_5=4 TRACE_TICKS=150)
	nice python3 $(ROOT)/spec/trace.py suite --seeds3 $(TRACE_SEEDS_3) --seeds5 $(TRACE_SEEDS_5) \
	  --ticks $(TRACE_TICKS) --first-seed $(TRACE_FIRST)

tlc-trace-teeth: trace-build ## planted divergences (early ACK, early currentEpoch) must be rejected on their first affected seed
	nice python3 $(ROOT)/spec/trace.py teeth --ticks $(TRACE_TICKS)

tlc-trace-long: trace-build ## more traces: 100 of 3 servers and 50 of 5 (about 15 minutes)
	nice python3 $(ROOT)/spec/trace.py suite --seeds3 100 --seeds5 50 --ticks $(TRACE_TICKS)

# Not in CI yet: with crashes and partitions some traces are still rejected (spec/README.md, D17 is open).
tlc-trace-faults: trace-build ## traces with crashes and partitions, every seed validated; rejections grouped (exit 1 while any)
	nice python3 $(ROOT)/spec/trace.py survey --servers 3 --seeds $(TRACE_FAULT_SEEDS_3) --ticks $(TRACE_TICKS); \
	  r3=$$?; nice python3 $(ROOT)/spec/trace.py survey --servers 5 --seeds $(TRACE_FAULT_SEEDS_5) --ticks $(TRACE_TICKS); \
	  r5=$$?; exit $$(( r3 > r5 ? r3 : r5 ))

TEST_TARGETS += tlc-trace tlc-trace-teeth

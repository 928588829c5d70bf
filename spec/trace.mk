# Trace validation (issue 11): simulator traces of the real Zab core checked by TLC against spec/Zab.tla
# through spec/TraceZab.tla. spec/README.md has the event-to-action mapping and the divergences.
# CI (make tlc-trace): traces with the simulator's crashes, restarts and partitions, plus the regression
# seeds of trace.py (REGRESSION_SEEDS); TRACE_TICKS_5 keeps 5-server runs short enough for CI's budget.
TRACE_SEEDS_3 ?= 100
TRACE_SEEDS_5 ?= 50
TRACE_TICKS ?= 150
TRACE_TICKS_5 ?= 60
TRACE_TLC_TIMEOUT ?= 120
TRACE_FIRST ?= 1
TRACE_FAULT_SEEDS_3 ?= 500
TRACE_FAULT_SEEDS_5 ?= 100
.PHONY: tlc-trace tlc-trace-teeth tlc-trace-variants tlc-trace-long tlc-trace-faults trace-build

trace-build: deps-tlc
	python3 $(ROOT)/spec/tlc.py --fetch
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests install

tlc-trace: trace-build ## validate simulator traces with crashes and partitions against Zab.tla (TRACE_SEEDS_3=100 TRACE_SEEDS_5=50, and each fast variant)
	nice python3 $(ROOT)/spec/trace.py suite --seeds3 $(TRACE_SEEDS_3) --seeds5 $(TRACE_SEEDS_5) \
	  --ticks $(TRACE_TICKS) --ticks5 $(TRACE_TICKS_5) --first-seed $(TRACE_FIRST) --tlc-timeout $(TRACE_TLC_TIMEOUT) \
	  --variant-seeds $(TRACE_VARIANT_SEEDS_CI) --variants $(TRACE_VARIANT_SHAPES) --variant-ticks $(TRACE_VARIANT_TICKS)

tlc-trace-teeth: trace-build ## planted divergences (early ACK, early currentEpoch, D17's early sync write, a fast ACK before the log) rejected on their first affected seed
	nice python3 $(ROOT)/spec/trace.py teeth --ticks $(TRACE_TICKS)

# The fast variants (spec/README.md, "Fast variants"): whole traces, broadcast included, with the simulator's
# faults; 40 ticks keep TLC's search over the silent steps short (5 servers: TRACE_VARIANT_SHAPES=5:ZabAa, not CI). make tlc-trace runs TRACE_VARIANT_SEEDS_CI of
# each shape, tlc-trace-variants TRACE_VARIANT_SEEDS.
TRACE_VARIANT_SEEDS ?= 3
TRACE_VARIANT_SEEDS_CI ?= 1
TRACE_VARIANT_TICKS ?= 40
TRACE_VARIANT_SHAPES ?= 3:ZabAc,3:ZabAa,3:ZabCt,3:ZabCT
tlc-trace-variants: trace-build ## fast variants' whole traces (with faults), 3 servers, TRACE_VARIANT_SEEDS per shape
	nice python3 $(ROOT)/spec/trace.py suite --seeds3 0 --seeds5 0 --variant-seeds $(TRACE_VARIANT_SEEDS) \
	  --variants $(TRACE_VARIANT_SHAPES) --variant-ticks $(TRACE_VARIANT_TICKS) --first-seed $(TRACE_FIRST) --tlc-timeout $(TRACE_TLC_TIMEOUT)

tlc-trace-long: trace-build ## fault-free traces: 100 of 3 servers and 50 of 5
	nice python3 $(ROOT)/spec/trace.py suite --fault-free --seeds3 100 --seeds5 50 --ticks $(TRACE_TICKS)

# Not CI: many more seeds with faults; every seed validated, rejections grouped.
tlc-trace-faults: trace-build ## traces with crashes and partitions, TRACE_FAULT_SEEDS_3=500 and _5=100 seeds; rejections grouped (exit 1 while any)
	nice python3 $(ROOT)/spec/trace.py survey --servers 3 --seeds $(TRACE_FAULT_SEEDS_3) --ticks $(TRACE_TICKS); \
	  r3=$$?; nice python3 $(ROOT)/spec/trace.py survey --servers 5 --seeds $(TRACE_FAULT_SEEDS_5) --ticks $(TRACE_TICKS); \
	  r5=$$?; exit $$(( r3 > r5 ? r3 : r5 ))

TEST_TARGETS += tlc-trace tlc-trace-teeth tlc-trace-variants

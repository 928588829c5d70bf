# The bug zoo (issue 13): every switch of impl/.../zab/Bug.java through the simulator at CI's seed
# counts, and the correct configuration on the same seeds; writes results/bugzoo/ and prints the
# mutation score. Not part of `make test` (about 10-15 minutes); BugZooTest in the Maven build checks a
# handful of switches at small seed counts. `make bugzoo` runs every layer and writes layers.md.
.PHONY: mutants bugzoo bugzoo-campaigns bugzoo-layers

BUGZOO_BUGS ?=
BUGZOO_SHAPES ?= 3,5,3-ZabAa

mutants: sim-build ## every bug-zoo switch through the simulator at CI's seed counts; results/bugzoo/ and the mutation score (BUGZOO_BUGS=A,B BUGZOO_SHAPES=3,5,3-ZabAa)
	python3 $(ROOT)/bin/bugzoo-mutants --shapes $(BUGZOO_SHAPES) $(if $(BUGZOO_BUGS),--bugs $(BUGZOO_BUGS),)

# The campaign layer: one short campaign per switch on 3 zabkit nodes in namespaces (root; ~40 min).
BUGZOO_CAMPAIGN_ARGS ?=
bugzoo-campaigns: campaign-deps ## the bug zoo's campaign layer: one campaign per switch and the same faults without one, results/bugzoo/campaigns/ (root, ~40 min; BUGZOO_CAMPAIGN_ARGS='--only A,B')
	python3 $(ROOT)/bin/bugzoo-campaigns $(BUGZOO_CAMPAIGN_ARGS)
	python3 $(ROOT)/bin/bugzoo-layers

bugzoo-layers: ## results/bugzoo/layers.md: each switch x layer (simulator, TLC, trace validation, replay, campaign) from what each last measured; runs nothing
	python3 $(ROOT)/bin/bugzoo-layers

# Every layer in turn, then the table (long: about an hour and a half).
bugzoo: mutants tlc tlc-mutants tlc-trace-teeth tlc-replay bugzoo-campaigns ## every bug-zoo switch through every layer, then results/bugzoo/layers.md (root; ~1.5 h)
	python3 $(ROOT)/bin/bugzoo-layers

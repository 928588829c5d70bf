# The bug zoo (issue 13): every switch of impl/.../zab/Bug.java through the simulator at CI's seed
# counts, and the correct configuration on the same seeds; writes results/bugzoo/ and prints the
# mutation score. Not part of `make test` (about 10-15 minutes); BugZooTest in the Maven build checks a
# handful of switches at small seed counts.
.PHONY: mutants bugzoo

BUGZOO_BUGS ?=
BUGZOO_SHAPES ?= 3,5,3-ZabAa

mutants: sim-build ## every bug-zoo switch through the simulator at CI's seed counts; results/bugzoo/ and the mutation score (BUGZOO_BUGS=A,B BUGZOO_SHAPES=3,5,3-ZabAa)
	python3 $(ROOT)/bin/bugzoo-mutants --shapes $(BUGZOO_SHAPES) $(if $(BUGZOO_BUGS),--bugs $(BUGZOO_BUGS),)

bugzoo: mutants ## the same as make mutants (the simulator layer of the bug zoo)

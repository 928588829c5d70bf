# Java build: the reference server (impl/), the simulator (sim/), the checkers (check/).
.PHONY: deps-java build test-java run

deps-java:
	@$(ENSURE) java maven

build: deps-java ## compile the Java modules and gather runtime jars (no tests)
	cd $(ROOT) && $(MVN) -DskipTests install

test-java: deps-java ## unit, integration and simulation tests of every Java module
	cd $(ROOT) && mvn -B -Dstyle.color=never install

TEST_TARGETS += test-java

run: ## start a 1-node server on the embedded default config (the quick start); builds on first use
	$(ROOT)/bin/zabkit-run-standalone

.PHONY: test-kazoo
test-kazoo: ## kazoo (Python client) suite against a fresh reference server
	$(ROOT)/impl/src/test/kazoo/run.sh

TEST_TARGETS += test-kazoo

/**
 * Integration tests with real clients: the official ZooKeeper Java client, Curator's recipes and zkCli
 * drive the server over loopback.
 *
 * <p>Each *Contract class holds the assertions once; a Zabkit* subclass runs them against zabkit's
 * server ({@link io.zabkit.it.ZabkitTarget}: the core, the config reader and the storage behind a
 * test event loop that checks the core's invariants after every step) and a ZooKeeper* subclass
 * against Apache ZooKeeper 3.9.4 in-process ({@link io.zabkit.it.ZooKeeperTarget}), the oracle for
 * every "exact" expectation, and a Production* subclass against the production server,
 * io.zabkit.runtime.ServerMain in its own JVM ({@link io.zabkit.it.ProductionTarget}).
 * {@link io.zabkit.it.BadInputFuzzTest} sends seeded bad input on raw sockets to both zabkit servers
 * and checks their rejection logs.
 *
 * <p>Run just these: {@code mvn -pl impl test -Dtest='io.zabkit.it.*Test'}.
 */
package io.zabkit.it;

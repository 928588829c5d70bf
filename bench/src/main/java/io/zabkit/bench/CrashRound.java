package io.zabkit.bench;

/**
 * One leader crash: milliseconds from the kill -9 of the leader to (a) srvr showing a new leader
 * with a quorum of followers, (b) the first acknowledged write of a client on a surviving server,
 * (c) the first acknowledged write of a client that was connected to the old leader.
 */
record CrashRound(SystemUnderTest system, int round, int oldLeader, int newLeader, double leaderServingMs,
        double survivorWriteMs, double oldLeaderClientWriteMs) {
}

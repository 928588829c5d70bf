# Model-based replay (issue 11 item 4): TLC-simulated behaviours of spec/ReplayZab.tla replayed in the Java
# Zab cores (sim's io.zabkit.sim.replay). spec/README.md, "Model-based replay", has the mapping.
REPLAY_MID ?= 60
REPLAY_ANYTIME ?= 40
REPLAY_FIVE ?= 20
REPLAY_DEPTH ?= 100
REPLAY_SEED ?= 1
REPLAY_OUT ?= $(ROOT)/sim/target/replay
# Each planted bug must make the replay of the same behaviours fail (the bug zoo, impl's io.zabkit.zab.Bug).
# Not listed: STALE_LEADERINFO_ACCEPTED (caught in about 1 of 200 behaviours with faults at any time),
# SNAP_BEHIND_APPLIED_INSTALLED and ZK4712_WRITE_OUTLIVES_ROLE (not reached; spec/README.md says why).
REPLAY_TEETH ?= ACK_BEFORE_FSYNC,APPLY_BEFORE_COMMIT,QUORUM_OFF_BY_ONE,ZK3911_DIFF_LOGGED_AT_UPTODATE,ZK4643_EPOCH_BEFORE_HISTORY,ZK4646_NEWLEADER_ACK_BEFORE_FSYNC,ELECTION_ID_BEFORE_ZXID,TRUNC_NOT_APPLIED_ON_DISK,STALE_ACKEPOCH_COUNTED
.PHONY: tlc-replay tlc-replay-long replay-build

replay-build: deps-tlc
	python3 $(ROOT)/spec/tlc.py --fetch
	cd $(ROOT) && $(MVN) -pl sim -am -DskipTests install

tlc-replay: replay-build ## replay TLC-simulated Zab.tla behaviours in the Java cores (60 + 40 of 3 servers, 20 of 5), then the planted bugs
	$(ROOT)/spec/replay.sh run $(REPLAY_OUT) $(REPLAY_MID) $(REPLAY_ANYTIME) $(REPLAY_FIVE) $(REPLAY_DEPTH) $(REPLAY_SEED)
	$(ROOT)/spec/replay.sh teeth $(REPLAY_OUT) $(REPLAY_TEETH)

tlc-replay-long: replay-build ## more behaviours: 1,000 + 500 of 3 servers and 300 of 5 (a few minutes)
	$(ROOT)/spec/replay.sh run $(REPLAY_OUT) 1000 500 300 $(REPLAY_DEPTH) $(REPLAY_SEED)

TEST_TARGETS += tlc-replay

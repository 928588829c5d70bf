---------------------------- MODULE MCZooKeeper ----------------------------
(* Model bounds for ZooKeeper.tla: symmetry of servers and of sessions,   *)
(* and a second initial state. The constants are set in MCZooKeeper*.cfg. *)
EXTENDS ZooKeeper

\* The tree of the models: "/a" and its child "/a/b" (any other path is top-level).
MCParentOf(p) == IF p = "/a/b" THEN "/a" ELSE "/"

\* ExpectedVersions of the models (a .cfg cannot write -1): any version only, or exactly 0 or 1
\* (a node is created at version 0, so one conditional delete succeeds and one fails).
MCAnyVersion == {-1}
MCVersions == {0, 1}

\* Servers and sessions are interchangeable.
ZkSymmetry == Permutations(Server) \cup Permutations(Session)

(* EstablishedWith(Q): an ensemble whose servers Q (L among them) have     *)
(* just established epoch 1 with leader L, the others LOOKING and never    *)
(* part of it, with empty logs: the state Zab.tla reaches after            *)
(* ElectLeader(L, Q) and discovery/synchronization with Q.                 *)
(* EstablishedInit has every server in BROADCAST. The                      *)
(* service models start here so that TLC spends its budget on client       *)
(* operations and on the faults and elections that follow; MCZab*.cfg      *)
(* check elections from scratch.                                           *)
L == CHOOSE l \in Server : TRUE
EstablishedWith(Q) ==
    /\ state = [i \in Server |-> IF i = L THEN LEADING ELSE IF i \in Q THEN FOLLOWING ELSE LOOKING]
    /\ zabState = [i \in Server |-> IF i \in Q THEN BROADCAST ELSE ELECTION]
    /\ acceptedEpoch = [i \in Server |-> IF i \in Q THEN 1 ELSE 0]
    /\ currentEpoch = [i \in Server |-> IF i \in Q THEN 1 ELSE 0]
    /\ history = [i \in Server |-> <<>>]
    /\ durable = [i \in Server |-> 0]
    /\ lastCommitted = [i \in Server |-> 0]
    /\ up = [i \in Server |-> TRUE]
    /\ leaderOf = [i \in Server |-> IF i \in Q THEN L ELSE NoServer]
    /\ snapInMemory = [i \in Server |-> "none"]
    /\ leaderEpoch = [i \in Server |-> IF i = L THEN 1 ELSE 0]
    /\ infoMaxEpoch = [i \in Server |-> 0]
    /\ learners = [i \in Server |-> IF i = L THEN Q \ {L} ELSE {}]
    /\ ackepochRecv = [i \in Server |-> IF i = L
                                        THEN {[sid |-> j, zxid |-> <<0, 0>>, fresh |-> TRUE] : j \in Q \ {L}}
                                        ELSE {}]
    /\ forwarding = [i \in Server |-> IF i = L THEN Q \ {L} ELSE {}]
    /\ ackldRecv = [i \in Server |-> IF i = L THEN Q \ {L} ELSE {}]
    /\ ackIndex = [i \in Server |-> [j \in Server |-> 0]]
    /\ suspects = [i \in Server |-> {}]
    /\ zabAckers = [i \in Server |-> {}]
    /\ msgs = [i \in Server |-> [j \in Server |-> <<>>]]
    /\ partitioned = {}
    /\ crashes = 0
    /\ partitions = 0
    /\ proposed = {}
    /\ leaders = {<<1, L>>}
    /\ committedLog = <<>>
    /\ applied = [i \in Server |-> <<>>]
    /\ lastProcessed = [i \in Server |-> 0]
    /\ watches = [i \in Server |-> {}]
    /\ unresolvedEpoch = [s \in Session |-> 0]
    /\ sessionState = [s \in Session |-> "none"]
    /\ sessServer = [s \in Session |-> NoServer]
    /\ outstanding = [s \in Session |-> <<>>]
    /\ forwarded = [s \in Session |-> 0]
    /\ inbox = [s \in Session |-> <<>>]
    /\ lastZxidSeen = [s \in Session |-> <<0, 0>>]
    /\ clientWatches = [s \in Session |-> {}]
    /\ syncFloor = [s \in Session |-> {}]
    /\ nextCxid = [s \in Session |-> 1]
    /\ completed = {}
    /\ ops = 0
    /\ disconnects = 0
EstablishedInit == EstablishedWith(Server)

ZkSpecEstablished == EstablishedInit /\ [][ZkNext]_allVars

(* Constraints of the stale-sync models (MCZooKeeper_SyncStale,          *)
(* MCZooKeeper_SyncLease). They narrow the search to the shape of the     *)
(* deposed-leader sync, so that breadth-first search reaches it: one       *)
(* session (Writer) only writes and never uses the first leader L; the     *)
(* other (Reader) creates its session at L, then pipelines sync and read   *)
(* there; only links to L break, and they never heal; the writer connects  *)
(* in epoch 2 and the reader syncs after the write completed. Every trace  *)
(* found under them is a trace of ZkSpec.                                  *)
Writer == CHOOSE s \in Session : TRUE
Reader == CHOOSE s \in Session : s /= Writer
StaleLeaderShape ==
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op \in {"createSession", "setData"}
    /\ \A k \in 1..Len(outstanding[Reader]) :
           /\ outstanding[Reader][k].op \in {"createSession", "sync", "read"}
           /\ outstanding[Reader][k].op = "read" =>
                  /\ ~outstanding[Reader][k].watch
                  /\ \/ k > 1 /\ outstanding[Reader][k - 1].op = "sync"
                     \/ k = 1 /\ ReadFloor(Reader) /= {}
           /\ outstanding[Reader][k].op = "sync" => completed /= {}
    /\ sessServer[Reader] \in {NoServer, L}
    /\ sessServer[Writer] /= L
    /\ \A p \in partitioned : L \in p
    /\ sessServer[Writer] /= NoServer => currentEpoch[sessServer[Writer]] = 2
\* Links, once broken, stay broken (the partition outlasts the run).
PartitionsPersist == partitioned \subseteq partitioned'
\* ... and L does not step down on its own: the timing assumption fails.
StaleLeaderSteps ==
    /\ PartitionsPersist
    /\ state[L] = LEADING => state'[L] = LEADING

(* Constraints of the lost-write model (MCZooKeeper_LostWrite). They      *)
(* narrow the search to the shape of the loss: the session uses only the   *)
(* first leader L; follower F2 logs nothing in epoch 1 and never crashes;  *)
(* nothing crashes and F1 loses no acknowledged entry before a write has   *)
(* completed; L, once crashed, stays down. Every trace found under them is *)
(* a trace of ZkSpec.                                                       *)
F1 == CHOOSE f \in Server \ {L} : TRUE
F2 == CHOOSE f \in Server \ {L, F1} : TRUE
LostWriteShape ==
    /\ sessServer[Writer] \in {NoServer, L}
    /\ up[F2]
    /\ acceptedEpoch[F2] = 1 => history[F2] = <<>>
    /\ crashes > 0 => completed /= {}
    /\ durable[F1] < Len(history[F1]) => completed /= {}
LostWriteSteps == ~up[L] => ~up'[L]

(* Constraints of the tree and ephemeral-watch models: the sessions use   *)
(* fixed servers (the writer the leader L, the watcher follower F1); in    *)
(* MCZooKeeper_Tree the leader commits with F1 alone (F2 lags), and in     *)
(* in MCZooKeeper_EphemeralWatch the owner only creates and the watcher    *)
(* only reads with a watch and never disconnects.                          *)
TreeShape == (\A s \in Session : sessServer[s] \in {NoServer, L}) /\ history[F2] = <<>>
EphemeralWatchShape ==
    /\ sessServer[Writer] \in {NoServer, L}
    /\ sessServer[Reader] \in {NoServer, F1}
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op \in {"createSession", "create"}
    /\ \A k \in 1..Len(outstanding[Reader]) :
           \/ outstanding[Reader][k].op = "createSession"
           \/ outstanding[Reader][k].op = "read" /\ outstanding[Reader][k].watch
    /\ disconnects > 0 => sessServer[Writer] = NoServer

\* Follower F2 logs nothing in epoch 1: the first leader commits with F1 alone (models that need
\* a lagging follower; F2 may still sync with a later leader).
FollowerLags == acceptedEpoch[F2] = 1 => history[F2] = <<>>

\* The CI crash model: F2 lags in epoch 1, the session never uses F2, and L, once crashed, stays down.
CrashShape == FollowerLags /\ \A s \in Session : sessServer[s] /= F2

\* The crash model without reads, for mutants.sh's ReplyBeforeCommit: a write answered before
\* it commits is also seen by a later read as a MonotonicReads violation, which BFS finds first.
CrashWritesOnly == CrashShape /\ \A s \in Session : \A k \in 1..Len(outstanding[s]) : outstanding[s][k].op /= "read"

(* The ZOOKEEPER-2355 models (MCZooKeeper_Bug2355 and its twin             *)
(* MCZooKeeper_Fix2355): the session uses the leader L, and the only link  *)
(* that breaks is L-F2, so that F2 misses the closeSession's PROPOSAL and  *)
(* gets it again in a DIFF when it rejoins L. The link breaks only once L *)
(* has proposed the closeSession and F2 has applied the session and its    *)
(* ephemeral (the JIRA's steps 1-4); the session sends no reads and, once  *)
(* disconnected, stays away (so that L expires it).                        *)
Shape2355 ==
    /\ \A s \in Session : sessServer[s] \in {NoServer, L}
    /\ \A s \in Session : \A k \in 1..Len(outstanding[s]) :
           outstanding[s][k].op \in {"createSession", "create"}
    /\ disconnects > 0 => \A s \in Session : sessServer[s] = NoServer
    /\ \A p \in partitioned : p = {L, F2}
    /\ partitions > 0 => \E k \in 1..Len(history[L]) : history[L][k].value.op = "closeSession"
    /\ partitions > 0 => Len(applied[F2]) >= 2


(* The Zab bug switches under the service (MCZooKeeper_Bug<NNNN>): each   *)
(* shape narrows the search to the shape of the loss its Zab model found,   *)
(* with a client write in place of the protocol's value, so that breadth-  *)
(* first search reaches the client-visible violation. Every trace found     *)
(* under a shape is a trace of ZkSpec from EstablishedInit.                 *)

(* ZOOKEEPER-3911 and -4646 (MCZooKeeper_Bug3911, _Bug4646): the session   *)
(* uses L only and sends only writes; L leads epoch 1 only, F2 never leads; *)
(* only links to L break; only F2 crashes. The loss the shape leaves room  *)
(* for: L proposes the session's write t while F1 is cut off, F2 rejoins L *)
(* and acks NEWLEADER with t not on its disk, L commits t on that ack and   *)
(* answers the client, F2 crashes, and F1 and F2 elect a leader without t. *)
\* F2 has not joined epoch 1 (L and F1 established it): it syncs with L later, by a DIFF.
ZkSpecF2Late == EstablishedWith(Server \ {F2}) /\ [][ZkNext]_allVars
LateSyncShape ==
    /\ sessServer[Writer] \in {NoServer, L}
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op \in {"createSession", "setData"}
    /\ state[L] = LEADING => zabState[L] = BROADCAST
    /\ state[F2] /= LEADING
    /\ \A p \in partitioned : p = {L, F1}
    /\ \A i \in Server : ~up[i] => i = F2
    /\ state[F2] /= LOOKING => partitions > 0
    /\ crashes > 0 => completed /= {}

(* ZOOKEEPER-4643 (MCZooKeeper_Bug4643): the session uses L only and sends *)
(* only writes; F2 logs at most the session's createSession in epoch 1;     *)
(* L leads epoch 1 only, F1 epoch 2 only, F2 epoch 3 only; no link breaks;  *)
(* the first crash follows a completed write, F2 crashes only in epoch 2,   *)
(* F1 never. The loss the shape leaves room for: L and F1 commit the write, *)
(* L crashes, F1 leads epoch 2 and syncs F2, which writes currentEpoch 2   *)
(* before its log; F2 crashes, F1 steps down, and F2 (newer epoch, shorter *)
(* log) is elected by F2 and L for epoch 3 and TRUNCs the write from L.    *)
EpochFirstShape ==
    /\ sessServer[Writer] \in {NoServer, L}
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op \in {"createSession", "setData"}
    /\ acceptedEpoch[F2] = 1 => Len(history[F2]) <= 1
    /\ state[L] = LEADING => zabState[L] = BROADCAST
    /\ state[F1] = LEADING => acceptedEpoch[F1] <= 2
    /\ state[F2] = LEADING => acceptedEpoch[F2] >= 2
    /\ crashes > 0 => completed /= {}
    /\ ~up[F2] => currentEpoch[F2] = 2
    /\ up[F1]

(* ZOOKEEPER-4712 (MCZooKeeper_Bug4712), from ZkSpecF2Late: the session    *)
(* uses L only and sends only writes; L leads epoch 1 only and, once       *)
(* crashed, stays down (LostWriteSteps); F2 never leads; no link breaks.   *)
(* The shape leaves room for: F2 joins L late and hands the DIFF's log     *)
(* write to its SyncThread, L crashes with the write still queued, F1      *)
(* leads epoch 2 and re-syncs F2, and the queued write lands on F2's log   *)
(* behind the entries it re-synced.                                         *)
ZombieWriteShape ==
    /\ sessServer[Writer] \in {NoServer, L}
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op \in {"createSession", "setData"}
    /\ state[L] = LEADING => zabState[L] = BROADCAST
    /\ state[F2] /= LEADING

(* Constraints of the connection-keeping models (MCZooKeeper_Keep*,      *)
(* KeepConnections = TRUE): the session uses follower F1 only, so that the  *)
(* leader change happens under its held requests and watch; in              *)
(* MCZooKeeper_Keep the leader L, once crashed, stays down (LostWriteSteps). *)
(* Every read sets a watch, and L crashes only once it has proposed a      *)
(* client write (the write may or may not have reached F1 and F2).         *)
KeepShape ==
    /\ \A s \in Session : sessServer[s] \in {NoServer, F1}
    /\ \A s \in Session : \A k \in 1..Len(outstanding[s]) :
           outstanding[s][k].op = "read" => outstanding[s][k].watch
    /\ crashes > 0 => \E t \in proposed : t.value.op \in WriteOps

(* MCZooKeeper_KeepTrunc: L may restart and lead again, so that F1 can     *)
(* hold a write the new leader lacks and be TRUNCated. Only L crashes, F1  *)
(* never leads, and F2 logs no client write in epoch 1.                    *)
KeepTruncShape ==
    /\ KeepShape
    /\ \A i \in Server : ~up[i] => i = L
    /\ state[F1] /= LEADING
    /\ acceptedEpoch[F2] = 1 => \A k \in 1..Len(history[F2]) : history[F2][k].value.op \notin WriteOps

\* Servers alone are interchangeable (for models that tell sessions apart).
ServerSymmetry == Permutations(Server)
=============================================================================

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

(* An ensemble that has just established epoch 1 with leader L and every  *)
(* other server in BROADCAST, with empty logs: the state Zab.tla reaches   *)
(* after ElectLeader and discovery/synchronization with all servers. The   *)
(* service models start here so that TLC spends its budget on client       *)
(* operations and on the faults and elections that follow; MCZab*.cfg      *)
(* check elections from scratch.                                           *)
L == CHOOSE l \in Server : TRUE
EstablishedInit ==
    /\ state = [i \in Server |-> IF i = L THEN LEADING ELSE FOLLOWING]
    /\ zabState = [i \in Server |-> BROADCAST]
    /\ acceptedEpoch = [i \in Server |-> 1]
    /\ currentEpoch = [i \in Server |-> 1]
    /\ history = [i \in Server |-> <<>>]
    /\ durable = [i \in Server |-> 0]
    /\ lastCommitted = [i \in Server |-> 0]
    /\ up = [i \in Server |-> TRUE]
    /\ leaderOf = [i \in Server |-> L]
    /\ snapInMemory = [i \in Server |-> "none"]
    /\ leaderEpoch = [i \in Server |-> IF i = L THEN 1 ELSE 0]
    /\ infoMaxEpoch = [i \in Server |-> 0]
    /\ learners = [i \in Server |-> IF i = L THEN Server \ {L} ELSE {}]
    /\ ackepochRecv = [i \in Server |-> IF i = L
                                        THEN {[sid |-> j, zxid |-> <<0, 0>>, fresh |-> TRUE] : j \in Server \ {L}}
                                        ELSE {}]
    /\ forwarding = [i \in Server |-> IF i = L THEN Server \ {L} ELSE {}]
    /\ ackldRecv = [i \in Server |-> IF i = L THEN Server \ {L} ELSE {}]
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

\* Servers alone are interchangeable (for models that tell sessions apart).
ServerSymmetry == Permutations(Server)
=============================================================================

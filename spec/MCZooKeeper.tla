---------------------------- MODULE MCZooKeeper ----------------------------
(* Model bounds for ZooKeeper.tla: symmetry of servers and of sessions,   *)
(* and a second initial state. The constants are set in MCZooKeeper*.cfg. *)
EXTENDS ZooKeeper

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

(* Constraints of the ZOOKEEPER-1675 model. They narrow the search to the *)
(* shape of the bug, so that breadth-first search reaches it: one session  *)
(* (Writer) only writes and never uses the first leader L; the other       *)
(* (Reader) only syncs and reads at L; only links to L break and never     *)
(* heal; L does not step down on its own; the writer writes in epoch 2 and *)
(* the reader syncs after that write completed. Every trace found under    *)
(* them is a trace of ZkSpec.                                              *)
Writer == CHOOSE s \in Session : TRUE
Reader == CHOOSE s \in Session : s /= Writer
StaleLeaderShape ==
    /\ \A k \in 1..Len(outstanding[Writer]) : outstanding[Writer][k].op = "setData"
    /\ \A k \in 1..Len(outstanding[Reader]) : outstanding[Reader][k].op = "sync"
    /\ \A k \in 1..Len(inbox[Writer]) : inbox[Writer][k].type /= "read"
    /\ \A k \in 1..Len(inbox[Reader]) : inbox[Reader][k].type /= "read" \/ ~inbox[Reader][k].watch
    /\ sessServer[Reader] \in {NoServer, L}
    /\ sessServer[Writer] /= L
    /\ \A p \in partitioned : L \in p
    \* the writer connects in epoch 2; the reader syncs after the write completed, reads after sync
    /\ sessServer[Writer] /= NoServer => currentEpoch[sessServer[Writer]] = 2
    /\ outstanding[Reader] /= <<>> => completed /= {}
    /\ \A k \in 1..Len(inbox[Reader]) : inbox[Reader][k].type = "read" => syncFloor[Reader] /= {}
StaleLeaderSteps ==
    /\ partitioned \subseteq partitioned'
    /\ state[L] = LEADING => state'[L] = LEADING

\* Servers alone are interchangeable (for models that tell sessions apart).
ServerSymmetry == Permutations(Server)
=============================================================================

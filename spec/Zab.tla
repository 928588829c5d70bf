-------------------------------- MODULE Zab --------------------------------
(***************************************************************************)
(* Zab, the atomic broadcast protocol of ZooKeeper, at the granularity of  *)
(* the Java server: an election oracle, discovery (FOLLOWERINFO,           *)
(* LEADERINFO, ACKEPOCH), synchronization (DIFF, TRUNC, SNAP, NEWLEADER,   *)
(* ACKLD, UPTODATE) and broadcast (PROPOSAL, ACK, COMMIT), with crashes    *)
(* that keep only what a server persisted and links that lose what was in  *)
(* flight when they break.                                                 *)
(*                                                                         *)
(* The constant Variant selects the broadcast phase: classic Zab, or the   *)
(* fast variants of EL-Sanosi and Ezhilchelvan (ZabAc, ZabAa, ZabCt,       *)
(* ZabCT). Bug switches re-enact known ZooKeeper defects; all are FALSE in *)
(* the correct protocol. Model bounds and symmetry live in MC*.tla/.cfg.   *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, TLC

CONSTANTS
    Server,             \* the ensemble (model values)
    Variant,            \* "Zab", "ZabAc", "ZabAa", "ZabCt", "ZabCT" or "ZabAA" (seed 003, sections 2.5, 2.6, 4)
    Switching,          \* seed 003 section 2.7: followers that suspect a follower crash fall back to Zab
    Assumptions,        \* subset of {"A1.1", "A1.2"}: the fault assumptions of seed 003 section 2.1 the model keeps
    Bugs,               \* subset of BugIds: the ZooKeeper defects re-enacted (empty in the correct protocol)
    MaxTxns,            \* bound: transactions proposed in a run
    MaxEpoch,           \* bound: highest epoch a leader may propose
    MaxCrashes,         \* bound: NodeCrash steps in a run
    MaxPartitions       \* bound: PartitionStart steps in a run

Variants == {"Zab", "ZabAc", "ZabAa", "ZabCt", "ZabCT", "ZabAA"}
(* One switch per JIRA issue; spec/README.md says how faithfully each one  *)
(* re-enacts it. The mechanisms are those the JIRA and its pull request   *)
(* describe (cited at the action that changes).                           *)
\* "2355" changes only the service (ZooKeeper.tla: the follower's data tree); it is listed here
\* so that one Bugs constant selects every switch.
BugIds == {"3911", "4643", "4646", "4685", "2354", "4712", "3642", "5094", "2355"}
ASSUME Variant \in Variants
\* The paper defines 2.7 for ZabCt (ZabAA must switch, section 4); the Java server's leader-driven
\* fallback to classic proposals is the same switch in every variant (trace validation, spec/README.md).
ASSUME Switching \in BOOLEAN /\ (Switching => Variant /= "Zab")
ASSUME Assumptions \subseteq {"A1.1", "A1.2"} /\ Bugs \subseteq BugIds
ASSUME {MaxTxns, MaxEpoch, MaxCrashes, MaxPartitions} \subseteq Nat

\* Server states and Zab phases, spelled as in QuorumPeer.
LOOKING == "LOOKING"   FOLLOWING == "FOLLOWING"   LEADING == "LEADING"
ELECTION == "ELECTION"   DISCOVERY == "DISCOVERY"
SYNCHRONIZATION == "SYNCHRONIZATION"   BROADCAST == "BROADCAST"
NoServer == "none"

\* Message kinds, spelled as the packet types of the Java server.
FOLLOWERINFO == "FOLLOWERINFO"  LEADERINFO == "LEADERINFO"  ACKEPOCH == "ACKEPOCH"
DIFF == "DIFF"  TRUNC == "TRUNC"  SNAP == "SNAP"  NEWLEADER == "NEWLEADER"
ACKLD == "ACKLD"  UPTODATE == "UPTODATE"  PROPOSAL == "PROPOSAL"  ACK == "ACK"
COMMIT == "COMMIT"
\* A log write queued on a server's own SyncThread (bug "4712" only): channel msgs[i][i].
LOGWRITE == "LOGWRITE"

N == Cardinality(Server)
\* f = ceil((N-1)/2), the followers a follower must know to have logged m (seed 003 section 2.5, ZabAa).
F == N \div 2
(* Variant table (seed 003): who a follower acks after logging m, and how *)
(* many followers' explicit or implicit acks (its own included) let it    *)
(* commit m to itself. 0 means: it waits for the leader's COMMIT (Zab).    *)
FollowerQuorum ==
    CASE Variant = "Zab" -> 0
      [] Variant = "ZabAc" -> 1          \* 2.5 F3: its own ack
      [] Variant \in {"ZabAa", "ZabCt"} -> F   \* 2.5 ZabAa F3, 2.6 F4
      [] Variant \in {"ZabCT", "ZabAA"} -> F + 1   \* 4 F4
(* The Lemma of seed 003 section 2.2, checked by TLC for the model's N at *)
(* start: for a leader l, a set q of followers that with l forms a quorum  *)
(* meets every quorum without l. It needs majority quorums: with           *)
(* floor((N+1)/2) (section 1) and N even it fails.                         *)
ASSUME \A l \in Server : \A q, Q2 \in SUBSET (Server \ {l}) :
          2 * Cardinality(q \cup {l}) > N /\ 2 * Cardinality(Q2) > N => q \cap Q2 /= {}
\* Variants whose followers toss a coin before acking (2.6 F2); ZabAA is ZabCT with p = 1 (4).
CoinToss == Variant \in {"ZabCt", "ZabCT"}
\* Variants whose acks (on Head) also go to the other followers: 2.5 ZabAa F2, 2.6 F3 (N > 3), 4 F3.
AckToFollowers == Variant \in {"ZabAa", "ZabCT", "ZabAA"} \/ (Variant = "ZabCt" /\ N > 3)
\* Variants that count implicit acks (2.3); the others ack every m, so a high-water mark is exact.
ImplicitAcks == Variant \in {"ZabCt", "ZabCT", "ZabAA"}

----------------------------------------------------------------------------
\* Server variables. acceptedEpoch, currentEpoch and history[1..durable] are on disk.
VARIABLES
    state,          \* LOOKING, FOLLOWING or LEADING
    zabState,       \* ELECTION, DISCOVERY, SYNCHRONIZATION or BROADCAST
    acceptedEpoch,  \* last epoch accepted in a LEADERINFO (persisted)
    currentEpoch,   \* epoch of the last NEWLEADER accepted (persisted)
    history,        \* the transaction log: a sequence of [zxid, value]
    durable,        \* how many entries of history are on disk
    lastCommitted,  \* entries history[1..lastCommitted] are delivered (volatile)
    up,             \* FALSE between NodeCrash and NodeStart
    leaderOf,       \* the leader a FOLLOWING server follows
    snapInMemory    \* bugs "3642" and "5094" only: "sync" while a SNAP of this synchronization is
                    \* in memory (written at its NEWLEADER), "trunc" while the committed
                    \* transactions that followed this synchronization's TRUNC are (5094),
                    \* "kept" once the server left before that NEWLEADER and kept them: no
                    \* later NEWLEADER writes them; else "none"
serverVars == <<state, zabState, acceptedEpoch, currentEpoch, history, durable,
                lastCommitted, up, leaderOf, snapInMemory>>

\* Leader variables (also the ACK bookkeeping of every server in ZabAa/ZabCT).
VARIABLES
    leaderEpoch,    \* epoch proposed in LEADERINFO; 0 while collecting FOLLOWERINFO
    infoMaxEpoch,   \* highest acceptedEpoch seen in a FOLLOWERINFO
    learners,       \* followers whose FOLLOWERINFO arrived
    ackepochRecv,   \* [sid, zxid] of followers whose ACKEPOCH arrived
    forwarding,     \* followers that were synced and now receive proposals
    ackldRecv,      \* followers whose ACKLD (ACK of NEWLEADER) arrived
    ackIndex,       \* ackIndex[i][j]: highest history index j acknowledged to i (explicitly
                    \* or implicitly, 2.3); ackIndex[i][i] is i's ack to itself after logging
    suspects,       \* suspects[i]: followers that follower i suspects to have crashed (2.7, A3)
    zabAckers       \* zabAckers[l]: followers whose last ACK to leader l had zab = 1 (2.7)
leaderVars == <<leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                ackldRecv, ackIndex, suspects, zabAckers>>

\* msgs[i][j]: FIFO channel from i to j; emptied when the link breaks.
VARIABLE msgs

\* Environment variables.
VARIABLES
    partitioned,    \* set of unordered pairs {i, j} that cannot talk
    crashes,        \* NodeCrash steps so far (bounded by MaxCrashes)
    partitions      \* PartitionStart steps so far (bounded by MaxPartitions)
envVars == <<partitioned, crashes, partitions>>

\* Spec-only history variables, used by the invariants and never by the protocol.
VARIABLES
    proposed,       \* every transaction a leader ever proposed, with its epoch's leader
    leaders,        \* pairs <<epoch, server>> of leaders that established an epoch
    committedLog    \* the longest sequence any server ever delivered
ghostVars == <<proposed, leaders, committedLog>>

vars == <<serverVars, leaderVars, msgs, envVars, ghostVars>>

----------------------------------------------------------------------------
\* Helpers.
Max(a, b) == IF a > b THEN a ELSE b
Min(a, b) == IF a < b THEN a ELSE b
MaxOf(S) == CHOOSE x \in S : \A y \in S : x >= y

IsQuorum(S) == 2 * Cardinality(S) > Cardinality(Server)

\* A zxid is <<epoch, counter>>; ZxidLT is its total order.
ZxidLT(a, b) == a[1] < b[1] \/ (a[1] = b[1] /\ a[2] < b[2])
LastZxid(h) == IF h = <<>> THEN <<0, 0>> ELSE h[Len(h)].zxid
IndexOf(h, z) == IF \E k \in 1..Len(h) : h[k].zxid = z
                 THEN CHOOSE k \in 1..Len(h) : h[k].zxid = z ELSE 0
CommonPrefixLen(a, b) ==
    LET n == Min(Len(a), Len(b))
    IN CHOOSE k \in 0..n : /\ \A x \in 1..k : a[x] = b[x]
                           /\ (k = n \/ a[k + 1] /= b[k + 1])
IsPrefix(a, b) == Len(a) <= Len(b) /\ a = SubSeq(b, 1, Len(a))
Range(s) == {s[k] : k \in 1..Len(s)}

\* The vote of Fast Leader Election: (currentEpoch, last logged zxid).
VoteGEQ(i, j) ==
    \/ currentEpoch[i] > currentEpoch[j]
    \/ /\ currentEpoch[i] = currentEpoch[j]
       /\ ~ZxidLT(LastZxid(history[i]), LastZxid(history[j]))

Delivered(i) == SubSeq(history[i], 1, lastCommitted[i])

\* Longest of the committed log and a newly delivered prefix (ghost bookkeeping).
Longest(log, d) == IF Len(d) > Len(log) THEN d ELSE log

\* Channel operations on a msgs value.
Send(ms, i, j, m) == [ms EXCEPT ![i][j] = Append(@, m)]
SendAll(ms, i, S, m) ==
    [a \in Server |-> [b \in Server |->
        IF a = i /\ b \in S THEN Append(ms[a][b], m) ELSE ms[a][b]]]
Receive(ms, j, i) == [ms EXCEPT ![j][i] = Tail(@)]
ClearLink(ms, i, j) ==
    [a \in Server |-> [b \in Server |->
        IF {a, b} = {i, j} THEN <<>> ELSE ms[a][b]]]
ClearAll(ms, i) ==
    [a \in Server |-> [b \in Server |-> IF a = i \/ b = i THEN <<>> ELSE ms[a][b]]]

Msg(i, j) == msgs[j][i][1]   \* next message from j to i
Pending(i, j, type) == msgs[j][i] /= <<>> /\ msgs[j][i][1].mtype = type

\* Followers of leader i, as the servers themselves see it.
FollowersOf(i) == {j \in Server : up[j] /\ state[j] = FOLLOWING /\ leaderOf[j] = i}

----------------------------------------------------------------------------
(* Detach(D): the servers in D stop following or leading and go back to   *)
(* LOOKING; every leader forgets them. Used by link breaks and crashes.    *)
DetachRoles(D) ==
    /\ state' = [k \in Server |-> IF k \in D THEN LOOKING ELSE state[k]]
    /\ zabState' = [k \in Server |-> IF k \in D THEN ELECTION ELSE zabState[k]]
    /\ leaderOf' = [k \in Server |-> IF k \in D THEN NoServer ELSE leaderOf[k]]

(* A server that leaves its role keeps what it logged. Log writes it      *)
(* queued after NEWLEADER are finished first: its SyncRequestProcessor is  *)
(* shut down, which flushes (the fix of ZOOKEEPER-4712, apache/zookeeper   *)
(* PR 2154). What a synchronization left unfinished before NEWLEADER is    *)
(* dropped with the in-memory database (the fix of ZOOKEEPER-3642, PR      *)
(* 1224), so a server never reports a zxid it has not logged.              *)
(* Bug "3642" (before PR 1224): the follower keeps the unfinished sync in  *)
(* memory (a SNAP is deserialized into its database at receipt and only   *)
(* written as a snapshot at NEWLEADER). It votes and reports that zxid;   *)
(* the next leader DIFFs from it, and that NEWLEADER writes only the DIFF, *)
(* so the kept part never reaches the disk (snapInMemory) and a restart loses *)
(* it. ZooKeeper's disk then holds the old log with the DIFF after a gap;  *)
(* the spec's disk is a prefix, so the DIFF is lost with it.               *)
(* Bug "5094" (apache/zookeeper PR 2459, open): after PR 1224              *)
(* Learner.shutdown clears the database only for an unfinished SNAP. A     *)
(* TRUNC sync also sets snapshotNeeded, so the committed transactions that *)
(* follow the TRUNC before NEWLEADER (PROPOSAL then COMMIT) are applied to *)
(* memory only, to be written by the snapshot at NEWLEADER. A follower     *)
(* that leaves before it keeps them in memory (the uncommitted ones die    *)
(* with packetsNotCommitted) and reports their last zxid; the same gap     *)
(* follows. KeptLen is how much of its log a leaving server keeps.         *)
Synced(k) == currentEpoch[k] = acceptedEpoch[k]
KeepsUnfinishedSync(k) == snapInMemory[k] /= "none"
KeptLen(k) ==
    CASE snapInMemory[k] = "trunc" -> Max(durable[k], lastCommitted[k])
      [] KeepsUnfinishedSync(k) \/ Synced(k) -> Len(history[k])
      [] OTHER -> durable[k]
LeaveDurable(D) == [k \in Server |->
    IF k \in D /\ Synced(k) /\ snapInMemory[k] = "none" THEN Len(history[k]) ELSE durable[k]]
LeaveHistory(D) == [k \in Server |->
    IF k \in D THEN SubSeq(history[k], 1, KeptLen(k)) ELSE history[k]]
LeaveCommitted(D) == [k \in Server |->
    IF k \in D /\ ~Synced(k) /\ ~KeepsUnfinishedSync(k) THEN Min(lastCommitted[k], durable[k])
    ELSE lastCommitted[k]]
LeaveSnapInMemory(D) == [k \in Server |->
    IF k \in D /\ KeepsUnfinishedSync(k)
    THEN IF durable[k] < KeptLen(k) THEN "kept" ELSE "none"
    ELSE snapInMemory[k]]

DetachState(D) ==
    /\ DetachRoles(D)
    /\ durable' = LeaveDurable(D)
    /\ history' = LeaveHistory(D)
    /\ lastCommitted' = LeaveCommitted(D)
    /\ snapInMemory' = LeaveSnapInMemory(D)

DetachLeaderVars(D) ==
    /\ leaderEpoch' = [k \in Server |-> IF k \in D THEN 0 ELSE leaderEpoch[k]]
    /\ infoMaxEpoch' = [k \in Server |-> IF k \in D THEN 0 ELSE infoMaxEpoch[k]]
    /\ learners' = [k \in Server |-> IF k \in D THEN {} ELSE learners[k] \ D]
    /\ ackepochRecv' = [k \in Server |-> IF k \in D THEN {}
                                         ELSE {r \in ackepochRecv[k] : r.sid \notin D}]
    /\ forwarding' = [k \in Server |-> IF k \in D THEN {} ELSE forwarding[k] \ D]
    /\ ackldRecv' = [k \in Server |-> IF k \in D THEN {} ELSE ackldRecv[k] \ D]
    /\ ackIndex' = [k \in Server |-> [x \in Server |->
                        IF k \in D \/ x \in D THEN 0 ELSE ackIndex[k][x]]]
    /\ suspects' = [k \in Server |-> IF k \in D THEN {} ELSE suspects[k]]
    /\ zabAckers' = [k \in Server |-> IF k \in D THEN {} ELSE zabAckers[k] \ D]

\* Leader i and everyone following it go back to LOOKING.
LeaderShutdown(i) ==
    LET D == {i} \cup FollowersOf(i)
    IN /\ DetachState(D)
       /\ DetachLeaderVars(D)
       /\ msgs' = ClearAll(msgs, i)

\* Follower i leaves its leader j (error or broken link).
FollowerAbandon(i, j) ==
    /\ DetachState({i})
    /\ DetachLeaderVars({i})
    /\ msgs' = ClearLink(msgs, i, j)

----------------------------------------------------------------------------
Init ==
    /\ state = [i \in Server |-> LOOKING]
    /\ zabState = [i \in Server |-> ELECTION]
    /\ acceptedEpoch = [i \in Server |-> 0]
    /\ currentEpoch = [i \in Server |-> 0]
    /\ history = [i \in Server |-> <<>>]
    /\ durable = [i \in Server |-> 0]
    /\ lastCommitted = [i \in Server |-> 0]
    /\ up = [i \in Server |-> TRUE]
    /\ leaderOf = [i \in Server |-> NoServer]
    /\ snapInMemory = [i \in Server |-> "none"]
    /\ leaderEpoch = [i \in Server |-> 0]
    /\ infoMaxEpoch = [i \in Server |-> 0]
    /\ learners = [i \in Server |-> {}]
    /\ ackepochRecv = [i \in Server |-> {}]
    /\ forwarding = [i \in Server |-> {}]
    /\ ackldRecv = [i \in Server |-> {}]
    /\ ackIndex = [i \in Server |-> [j \in Server |-> 0]]
    /\ suspects = [i \in Server |-> {}]
    /\ zabAckers = [i \in Server |-> {}]
    /\ msgs = [i \in Server |-> [j \in Server |-> <<>>]]
    /\ partitioned = {}
    /\ crashes = 0
    /\ partitions = 0
    /\ proposed = {}
    /\ leaders = {}
    /\ committedLog = <<>>

----------------------------------------------------------------------------
(* A1.1 as seed 003 section 2.1 spells it out: a server that acted as     *)
(* leader of epoch e (it logs that epoch) does not rejoin the system until *)
(* a larger epoch is established: it takes part in no election before.     *)
MayElect(j) ==
    "A1.1" \in Assumptions =>
        \A l \in leaders : l[2] = j => \E l2 \in leaders : l2[1] > l[1]

(* Election. An oracle in place of Fast Leader Election: any quorum Q of   *)
(* LOOKING servers that can reach i may elect i if i's vote is at least    *)
(* theirs. The followers send FOLLOWERINFO at once.                        *)
ElectLeader(i, Q) ==
    /\ i \in Q
    /\ IsQuorum(Q)
    \* A1.1 (seed 003 2.1): an external mechanism keeps at most one leader active
    /\ "A1.1" \in Assumptions => \A k \in Server : ~(up[k] /\ state[k] = LEADING)
    /\ \A j \in Q : /\ up[j] /\ state[j] = LOOKING
                    /\ MayElect(j)
                    /\ VoteGEQ(i, j)
                    /\ {i, j} \notin partitioned
    /\ state' = [k \in Server |-> IF k = i THEN LEADING
                                  ELSE IF k \in Q THEN FOLLOWING ELSE state[k]]
    /\ zabState' = [k \in Server |-> IF k \in Q THEN DISCOVERY ELSE zabState[k]]
    /\ leaderOf' = [k \in Server |-> IF k \in Q THEN i ELSE leaderOf[k]]
    /\ DetachLeaderVars(Q)      \* fresh leader and ACK bookkeeping
    /\ msgs' = [a \in Server |-> [b \in Server |->
                   IF b = i /\ a \in Q \ {i}
                   THEN Append(msgs[a][b], [mtype |-> FOLLOWERINFO, epoch |-> acceptedEpoch[a]])
                   ELSE msgs[a][b]]]
    \* bug "3642": a new leader takes a snapshot of its database (ZooKeeperServer.loadData),
    \* which writes what it held in memory
    /\ durable' = [durable EXCEPT ![i] = IF snapInMemory[i] = "kept" THEN Len(history[i]) ELSE @]
    /\ snapInMemory' = [snapInMemory EXCEPT ![i] = "none"]
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, lastCommitted, up,
                   envVars, ghostVars>>

\* A LOOKING server j learns of the established leader i and follows it.
FollowerJoin(j, i) ==
    /\ j /= i
    /\ "A1.1" \in Assumptions =>
          /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
          /\ \A l \in leaders : l[2] = j => l[1] < currentEpoch[i]
    /\ up[j] /\ state[j] = LOOKING
    /\ up[i] /\ state[i] = LEADING
    /\ {i, j} \notin partitioned
    /\ state' = [state EXCEPT ![j] = FOLLOWING]
    /\ zabState' = [zabState EXCEPT ![j] = DISCOVERY]
    /\ leaderOf' = [leaderOf EXCEPT ![j] = i]
    /\ msgs' = Send(msgs, j, i, [mtype |-> FOLLOWERINFO, epoch |-> acceptedEpoch[j]])
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, durable, snapInMemory, lastCommitted, up,
                   leaderVars, envVars, ghostVars>>

----------------------------------------------------------------------------
(* Discovery.                                                              *)

\* Leader i gathers FOLLOWERINFO; with a quorum it proposes a new epoch.
LeaderProcessFOLLOWERINFO(i, j) ==
    /\ state[i] = LEADING
    /\ Pending(i, j, FOLLOWERINFO)
    /\ LET m == Msg(i, j)
           lrn == learners[i] \cup {j}
           maxE == Max(infoMaxEpoch[i], m.epoch)
           e == Max(maxE, acceptedEpoch[i]) + 1
       IN /\ learners' = [learners EXCEPT ![i] = lrn]
          /\ IF leaderEpoch[i] /= 0
             THEN \* epoch already proposed: answer the late follower at once
                  /\ msgs' = Send(Receive(msgs, j, i), i, j,
                                  [mtype |-> LEADERINFO, epoch |-> leaderEpoch[i]])
                  /\ UNCHANGED <<leaderEpoch, infoMaxEpoch, acceptedEpoch>>
             ELSE IF IsQuorum(lrn \cup {i})
             THEN /\ e <= MaxEpoch
                  /\ leaderEpoch' = [leaderEpoch EXCEPT ![i] = e]
                  /\ infoMaxEpoch' = [infoMaxEpoch EXCEPT ![i] = maxE]
                  /\ acceptedEpoch' = [acceptedEpoch EXCEPT ![i] = e]
                  /\ msgs' = SendAll(Receive(msgs, j, i), i, lrn,
                                     [mtype |-> LEADERINFO, epoch |-> e])
             ELSE /\ infoMaxEpoch' = [infoMaxEpoch EXCEPT ![i] = maxE]
                  /\ msgs' = Receive(msgs, j, i)
                  /\ UNCHANGED <<leaderEpoch, acceptedEpoch>>
    /\ UNCHANGED <<state, zabState, currentEpoch, history, durable, snapInMemory, lastCommitted, up,
                   leaderOf, ackepochRecv, forwarding, ackldRecv, ackIndex, suspects, zabAckers,
                   envVars, ghostVars>>

(* Follower i accepts a new epoch and reports its currentEpoch and last    *)
(* zxid. An epoch equal to the one it already accepted is answered with    *)
(* fresh = FALSE (the Java server sends epoch -1): the follower may sync   *)
(* but its ACKEPOCH must not count toward establishing the epoch, since it *)
(* may already have promised the epoch to another leader.                 *)
FollowerProcessLEADERINFO(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, LEADERINFO)
    /\ LET e == Msg(i, j).epoch
       IN IF e >= acceptedEpoch[i]
          THEN /\ acceptedEpoch' = [acceptedEpoch EXCEPT ![i] = e]
               /\ msgs' = Send(Receive(msgs, j, i), i, j,
                               [mtype |-> ACKEPOCH, epoch |-> currentEpoch[i],
                                zxid |-> LastZxid(history[i]), fresh |-> e > acceptedEpoch[i]])
               /\ UNCHANGED <<state, zabState, leaderOf, leaderVars, durable, snapInMemory, history,
                              lastCommitted>>
          ELSE /\ FollowerAbandon(i, j)     \* the leader is behind: give up on it
               /\ UNCHANGED acceptedEpoch
    /\ UNCHANGED <<currentEpoch, up, envVars, ghostVars>>

\* What leader i sends to synchronize a follower whose last zxid is z.
SyncPacket(i, z) ==
    LET h == history[i]
        k == IndexOf(h, z)
        committed == lastCommitted[i]
    IN IF z = <<0, 0>> \/ k > 0
       THEN [mtype |-> DIFF, txns |-> SubSeq(h, k + 1, Len(h)), committed |-> committed]
       ELSE IF ZxidLT(LastZxid(h), z)
       THEN [mtype |-> TRUNC, zxid |-> LastZxid(h), txns |-> <<>>, committed |-> committed]
       ELSE [mtype |-> SNAP, txns |-> h, committed |-> committed]

(* ZooKeeper's leader applies what it commits in a later step (toBeApplied) *)
(* and TRUNCs a follower ahead of it to maxCommittedLog, its last applied   *)
(* zxid; the committed transactions after it follow the TRUNC as PROPOSAL   *)
(* and COMMIT (LearnerHandler.syncFollower, then startForwarding). The spec *)
(* applies at commit, so its TRUNC carries nothing. A follower ends the     *)
(* sync with the same log either way; only bug "5094" (the follower's       *)
(* handling of the transactions after a TRUNC) can tell them apart, so the  *)
(* split is modelled where LeaderAppliesLate holds: under that switch and   *)
(* in its correct twin (MCZab_Fix5094 overrides it). The applied point a is *)
(* at least the leader's initial history (loaded at startup) and below      *)
(* what it committed, with the follower's zxid beyond it and not in its log. *)
LeaderAppliesLate == "5094" \in Bugs
ZxidAt(h, a) == IF a = 0 THEN <<0, 0>> ELSE h[a].zxid
InitialLen(i) == Cardinality({k \in 1..Len(history[i]) : history[i][k].zxid[1] < currentEpoch[i]})
TruncSplitPackets(i, z) ==
    LET h == history[i]
    IN IF ~LeaderAppliesLate \/ z = <<0, 0>> \/ IndexOf(h, z) > 0 THEN {}
       ELSE {[mtype |-> TRUNC, zxid |-> ZxidAt(h, a), txns |-> SubSeq(h, a + 1, Len(h)),
              committed |-> lastCommitted[i]] :
                a \in {x \in InitialLen(i)..(lastCommitted[i] - 1) : ZxidLT(ZxidAt(h, x), z)}}

\* An ACKEPOCH m shows a follower that knows more than leader i: the leader must not lead.
FollowerAhead(i, m) ==
    /\ m.fresh
    /\ \/ m.epoch > currentEpoch[i]
       \/ m.epoch = currentEpoch[i] /\ ZxidLT(LastZxid(history[i]), m.zxid)

\* Leader i gathers ACKEPOCH; with a quorum it establishes the epoch and syncs.
LeaderProcessACKEPOCH(i, j) ==
    /\ state[i] = LEADING /\ j \in learners[i]
    /\ Pending(i, j, ACKEPOCH)
    /\ LET m == Msg(i, j)
           ahead == FollowerAhead(i, m)
           recv == ackepochRecv[i] \cup {[sid |-> j, zxid |-> m.zxid, fresh |-> m.fresh]}
           sids == {r.sid : r \in recv}
           promised == {r.sid : r \in {x \in recv : x.fresh}}
           e == leaderEpoch[i]
       IN IF ahead
          THEN /\ LeaderShutdown(i)   \* a follower knows more: this leader must not lead
               /\ UNCHANGED <<currentEpoch, leaders>>
          ELSE IF zabState[i] = DISCOVERY
          THEN IF IsQuorum(promised \cup {i})
               THEN /\ currentEpoch' = [currentEpoch EXCEPT ![i] = e]
                    /\ zabState' = [zabState EXCEPT ![i] = SYNCHRONIZATION]
                    /\ leaders' = leaders \cup {<<e, i>>}
                    /\ ackepochRecv' = [ackepochRecv EXCEPT ![i] = recv]
                    /\ forwarding' = [forwarding EXCEPT ![i] = sids]
                    /\ msgs' = LET ms0 == Receive(msgs, j, i)
                               IN [a \in Server |-> [b \in Server |->
                                    IF a = i /\ b \in sids
                                    THEN LET z == (CHOOSE r \in recv : r.sid = b).zxid
                                         IN ms0[a][b] \o <<SyncPacket(i, z),
                                                [mtype |-> NEWLEADER, epoch |-> e]>>
                                    ELSE ms0[a][b]]]
                    /\ UNCHANGED <<state, leaderOf, leaderEpoch, infoMaxEpoch, learners,
                                   ackldRecv, ackIndex, suspects, zabAckers>>
               ELSE /\ ackepochRecv' = [ackepochRecv EXCEPT ![i] = recv]
                    /\ msgs' = Receive(msgs, j, i)
                    /\ UNCHANGED <<state, zabState, leaderOf, currentEpoch, leaders,
                                   leaderEpoch, infoMaxEpoch, learners, forwarding,
                                   ackldRecv, ackIndex, suspects, zabAckers>>
          ELSE \* epoch established: sync this late follower at once
               /\ ackepochRecv' = [ackepochRecv EXCEPT ![i] = recv]
               /\ forwarding' = [forwarding EXCEPT ![i] = @ \cup {j}]
               /\ \E p \in {SyncPacket(i, m.zxid)} \cup TruncSplitPackets(i, m.zxid) :
                     msgs' = Send(Send(Receive(msgs, j, i), i, j, p), i, j,
                                  [mtype |-> NEWLEADER, epoch |-> currentEpoch[i]])
               /\ UNCHANGED <<state, zabState, leaderOf, currentEpoch, leaders,
                              leaderEpoch, infoMaxEpoch, learners, ackldRecv, ackIndex,
                              suspects, zabAckers>>
    /\ LET m == Msg(i, j)
           ahead == FollowerAhead(i, m)
       IN ~ahead => UNCHANGED <<durable, snapInMemory, history, lastCommitted>>
    /\ UNCHANGED <<acceptedEpoch, up, envVars, proposed, committedLog>>

----------------------------------------------------------------------------
(* Synchronization.                                                        *)

\* Follower i replaces its log by newHist and delivers up to committed.
\* A SNAP (replaces) is written whole at this sync's NEWLEADER; under bug "3642" it is only in
\* memory until then. What a TRUNC cuts to the disk's prefix is no longer held in memory; a
\* TRUNC is the sync that cuts without replacing (a DIFF only appends), and under bug "5094"
\* the committed transactions after it are in memory only until NEWLEADER.
FollowerSyncLog(i, newHist, committed, replaces) ==
    LET lc == Min(Len(newHist), Max(lastCommitted[i], committed))
        d == Min(durable[i], CommonPrefixLen(history[i], newHist))
        trunc == ~replaces /\ CommonPrefixLen(history[i], newHist) < Len(history[i])
    IN /\ history' = [history EXCEPT ![i] = newHist]
       \* only the part of the disk log that the new log keeps stays valid
       /\ durable' = [durable EXCEPT ![i] = d]
       /\ snapInMemory' = [snapInMemory EXCEPT ![i] =
              IF replaces THEN (IF "3642" \in Bugs THEN "sync" ELSE "none")
              ELSE IF trunc /\ "5094" \in Bugs THEN "trunc"
              ELSE IF d = Len(newHist) THEN "none" ELSE @]
       /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
       /\ zabState' = [zabState EXCEPT ![i] = SYNCHRONIZATION]
       /\ committedLog' = Longest(committedLog, SubSeq(newHist, 1, lc))

FollowerProcessDIFF(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, DIFF)
    /\ LET m == Msg(i, j)
       IN FollowerSyncLog(i, history[i] \o m.txns, m.committed, FALSE)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, up, leaderOf, leaderVars,
                   envVars, proposed, leaders>>

FollowerProcessTRUNC(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, TRUNC)
    /\ LET m == Msg(i, j)
           keep == CHOOSE k \in 0..Len(history[i]) :
                       /\ \A x \in 1..k : ~ZxidLT(m.zxid, history[i][x].zxid)
                       /\ (k = Len(history[i]) \/ ZxidLT(m.zxid, history[i][k + 1].zxid))
       IN FollowerSyncLog(i, SubSeq(history[i], 1, keep) \o m.txns, m.committed, FALSE)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, up, leaderOf, leaderVars,
                   envVars, proposed, leaders>>

FollowerProcessSNAP(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, SNAP)
    /\ LET m == Msg(i, j)
       IN FollowerSyncLog(i, m.txns, m.committed, TRUE)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, up, leaderOf, leaderVars,
                   envVars, proposed, leaders>>

(* Follower i accepts the new leader. Correct order (the fixes of          *)
(* ZOOKEEPER-4646 and -4643, apache/zookeeper PRs 1993 and 2028): the      *)
(* synced log goes to disk, then currentEpoch, then ACKLD.                 *)
(* Bug "3911" (before PR 1445): currentEpoch and ACKLD at once; the DIFF   *)
(*   proposals are logged only when UPTODATE arrives.                      *)
(* Bug "4646" (PR 1993): currentEpoch and ACKLD at once; the log write was *)
(*   handed to the asynchronous SyncThread and lands at any later time     *)
(*   (FollowerPersistLog).                                                 *)
(* Bug "4643" (PR 2028): currentEpoch is written first; the log write and  *)
(*   ACKLD follow in a later step (FollowerPersistLog).                    *)
(* Bug "4685": the SyncThread's ACK of the logged proposals may reach the  *)
(*   leader before the QuorumPeer thread's ACKLD (PR 1993's description).  *)
(* D21: where followers count each other's acks (AckToFollowers), the     *)
(* synced history, now logged, is acknowledged to the other followers too, *)
(* as F3 acknowledges a logged PROPOSAL. Without it a follower that acked  *)
(* m fast while a peer was cut off, the peer then getting m only by        *)
(* synchronization, waits for that peer's ack of m for ever when no later  *)
(* proposal comes: the leader sends it no COMMIT (CommitTo). Truthful: the *)
(* history is on disk, so the Follower Invariant is kept.                  *)
FollowerProcessNEWLEADER(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, NEWLEADER)
    /\ "4712" \notin Bugs
    /\ LET late == Bugs \cap {"3911", "4646", "4643"} /= {}
           ackld == [mtype |-> ACKLD, len |-> Len(history[i])]
           ack == [mtype |-> ACK, epoch |-> Msg(i, j).epoch, len |-> Len(history[i]), zab |-> 1]
           peers == IF AckToFollowers /\ ~late THEN Server \ {i, j} ELSE {}
           ms == SendAll(Receive(msgs, j, i), i, peers, ack)
       IN /\ currentEpoch' = [currentEpoch EXCEPT ![i] = Msg(i, j).epoch]
          \* bug "3642": the DIFF is written, what a left sync kept in memory is not
          /\ durable' = [durable EXCEPT ![i] =
                IF late \/ snapInMemory[i] = "kept" THEN @ ELSE Len(history[i])]
          /\ snapInMemory' = [snapInMemory EXCEPT ![i] = IF @ \in {"sync", "trunc"} THEN "none" ELSE @]
          /\ LET waits == /\ "4643" \in Bugs /\ "4646" \notin Bugs   \* ACKLD waits for the log write
                          /\ durable[i] < Len(history[i])
                 ackFirst == "4685" \in Bugs /\ durable[i] < Len(history[i])
             IN \/ waits /\ msgs' = ms
                \/ ~waits /\ msgs' = Send(ms, i, j, ackld)
                \/ ackFirst /\ msgs' = Send(Send(ms, i, j, ack), i, j, ackld)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, history, lastCommitted, up, leaderOf,
                   leaderVars, envVars, ghostVars>>

\* Leader i: the highest index a quorum of explicit or implicit acks covers,
\* its own ack (after logging, L2) included (L3).
LeaderCommitIndex(i, ai) ==
    MaxOf({k \in lastCommitted[i]..Len(history[i]) :
              k = lastCommitted[i] \/ IsQuorum({x \in forwarding[i] \cup {i} : ai[x] >= k})})

\* COMMIT messages leader i owes after committing up to k: Zab's to every
\* follower; under switching (2.7) to the followers whose last ack had zab = 1.
CommitTo(i) == IF Variant = "Zab" THEN forwarding[i] ELSE zabAckers[i] \cap forwarding[i]

\* Leader i gathers ACKLD; with a quorum its initial history is committed.
LeaderProcessACKLD(i, j) ==
    /\ state[i] = LEADING /\ j \in forwarding[i]
    /\ Pending(i, j, ACKLD)
    /\ LET recv == ackldRecv[i] \cup {j}
           ai == [ackIndex[i] EXCEPT ![j] = Max(@, Msg(i, j).len)]
       IN /\ ackldRecv' = [ackldRecv EXCEPT ![i] = recv]
          /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ IF zabState[i] = SYNCHRONIZATION /\ IsQuorum(recv \cup {i})
             THEN /\ zabState' = [zabState EXCEPT ![i] = BROADCAST]
                  /\ lastCommitted' = [lastCommitted EXCEPT ![i] = Len(history[i])]
                  /\ committedLog' = Longest(committedLog, history[i])
                  /\ msgs' = SendAll(Receive(msgs, j, i), i, recv,
                                     [mtype |-> UPTODATE, committed |-> Len(history[i])])
             ELSE IF zabState[i] = BROADCAST
             \* A late learner's ACKLD acks its synced history (on its disk). ZooKeeper's leader
             \* does not count it toward commit; the Java server's may, as it counts an ACK
             \* (trace validation, spec/README.md D15): either.
             THEN LET k == LeaderCommitIndex(i, ai)
                      ms1 == Send(Receive(msgs, j, i), i, j,
                                  [mtype |-> UPTODATE, committed |-> lastCommitted[i]])
                  IN /\ UNCHANGED zabState
                     /\ \/ /\ msgs' = ms1
                           /\ UNCHANGED <<lastCommitted, committedLog>>
                        \/ /\ k > lastCommitted[i]
                           /\ lastCommitted' = [lastCommitted EXCEPT ![i] = k]
                           /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, k))
                           /\ msgs' = SendAll(ms1, i, CommitTo(i),
                                              [mtype |-> COMMIT, zxid |-> history[i][k].zxid])
             ELSE /\ msgs' = Receive(msgs, j, i)
                  /\ UNCHANGED <<zabState, lastCommitted, committedLog>>
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, history, durable, snapInMemory, up, leaderOf,
                   leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   suspects, zabAckers, envVars, proposed, leaders>>

\* Follower i starts serving: everything the leader committed is delivered.
\* Under bug "3911" this is where the synced proposals are finally logged.
FollowerProcessUPTODATE(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, UPTODATE)
    /\ LET lc == Max(lastCommitted[i], Min(Msg(i, j).committed, Len(history[i])))
       IN /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, lc))
    /\ zabState' = [zabState EXCEPT ![i] = BROADCAST]
    /\ durable' = [durable EXCEPT ![i] = IF "3911" \in Bugs THEN Len(history[i]) ELSE @]
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, history, up, leaderOf, snapInMemory,
                   leaderVars, envVars, proposed, leaders>>

----------------------------------------------------------------------------
(* Broadcast (seed 003 sections 1.1, 2.4-2.7, 4).                          *)

\* Highest index k <= len such that the servers in S whose acks (in ai) cover k number at least n.
CoveredIndex(i, ai, S, n, len) ==
    MaxOf({k \in lastCommitted[i]..len :
              k = lastCommitted[i] \/ Cardinality({x \in S : ai[x] >= k}) >= n})

(* A follower in Zab mode (2.7): it suspects another follower's crash.     *)
(* It then acks only to the leader with zab = 1 and waits for COMMIT.      *)
ZabMode(i) == Variant = "Zab" \/ (Switching /\ suspects[i] /= {})

(* Follower i commits to itself (2.5 F3, ZabAa F3, 2.6 F4, 4 F4): the     *)
(* highest index that FollowerQuorum followers' acks cover, its own ack    *)
(* included; the leader's ack is never counted. Only while broadcasting    *)
(* and not in Zab mode.                                                    *)
FollowerCommitIndex(i, ai, len) ==
    IF ZabMode(i) \/ zabState[i] /= BROADCAST THEN lastCommitted[i]
    ELSE CoveredIndex(i, ai, Server \ {leaderOf[i]}, FollowerQuorum, len)

(* L1: leader i assigns the next zxid to value v and sends it to every     *)
(* follower it forwards to, and to itself: it is in i's history, but not   *)
(* yet on disk. Logging it is a later step (LeaderPersistLog): the leader  *)
(* logs concurrently with its followers, which is why A1.2 is needed.      *)
LeaderPropose(i, v) ==
    LET h == history[i]
        counter == IF LastZxid(h)[1] = currentEpoch[i] THEN LastZxid(h)[2] ELSE 0
        txn == [zxid |-> <<currentEpoch[i], counter + 1>>, value |-> v]
    IN /\ state[i] = LEADING /\ zabState[i] = BROADCAST
       /\ history' = [history EXCEPT ![i] = Append(h, txn)]
       /\ proposed' = proposed \cup {txn}
       /\ msgs' = SendAll(msgs, i, forwarding[i], [mtype |-> PROPOSAL, txn |-> txn])
       /\ UNCHANGED <<durable, snapInMemory>>

\* A client request reaches leader i (protocol-only spec: values are 1, 2, ...).
LeaderProcessRequest(i) ==
    /\ Cardinality(proposed) < MaxTxns
    /\ LeaderPropose(i, Cardinality(proposed) + 1)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                   leaderOf, leaderVars, envVars, leaders, committedLog>>

(* L2-L4: leader i logs its next proposal and acks it to itself; what a    *)
(* quorum of acks now covers is committed to itself and delivered.         *)
LeaderPersistLog(i) ==
    /\ up[i] /\ state[i] = LEADING /\ zabState[i] = BROADCAST
    /\ durable[i] < Len(history[i])
    /\ LET d == durable[i] + 1
           ai == [ackIndex[i] EXCEPT ![i] = d]
           k == LeaderCommitIndex(i, ai)
       IN /\ durable' = [durable EXCEPT ![i] = d]
          /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = k]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, k))
          /\ msgs' = IF k > lastCommitted[i]
                     THEN SendAll(msgs, i, CommitTo(i),
                                  [mtype |-> COMMIT, zxid |-> history[i][k].zxid])
                     ELSE msgs
    /\ UNCHANGED <<snapInMemory, state, zabState, acceptedEpoch, currentEpoch, history, up, leaderOf,
                   leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   ackldRecv, suspects, zabAckers, envVars, proposed, leaders>>

(* F1-F3: follower i receives m from its leader j, logs it (the disk      *)
(* write and the receipt are one step: nothing another server can see     *)
(* happens between them) and then acks it: to itself always; to the leader *)
(* (and in ZabAa/ZabCT/ZabAA, ZabCt with N > 3, to the other followers)    *)
(* unless the coin shows Tail (2.6 F2-F3; the coin is a nondeterministic   *)
(* choice). In Zab mode (classic Zab, or 2.7) the ack goes to the leader   *)
(* only, with zab = 1. A log write still pending from synchronization      *)
(* (bugs 3911/4643/4646) holds back this one too: the log is a prefix.     *)
FollowerProcessPROPOSAL(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
    /\ Pending(i, j, PROPOSAL)
    /\ LET txn == Msg(i, j).txn
           h == Append(history[i], txn)
           d == IF durable[i] = Len(history[i]) THEN Len(h) ELSE durable[i]
           zab == ZabMode(i) \/ zabState[i] /= BROADCAST
           ack == [mtype |-> ACK, epoch |-> currentEpoch[i], len |-> Len(h),
                   zab |-> IF zab THEN 1 ELSE 0]
           to == IF zab THEN {j}
                 ELSE IF AckToFollowers THEN Server \ {i} ELSE {j}
           ai == [ackIndex[i] EXCEPT ![i] = d]
       IN /\ history' = [history EXCEPT ![i] = h]
          /\ durable' = [durable EXCEPT ![i] = d]
          /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ LET lc == Max(lastCommitted[i], FollowerCommitIndex(i, ai, Len(h)))
             IN /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
                /\ committedLog' = Longest(committedLog, SubSeq(h, 1, lc))
          /\ \E head \in (IF CoinToss /\ ~zab THEN BOOLEAN ELSE {TRUE}) :
                msgs' = IF head THEN SendAll(Receive(msgs, j, i), i, to, ack)
                        ELSE Receive(msgs, j, i)
    /\ UNCHANGED <<snapInMemory, state, zabState, acceptedEpoch, currentEpoch, up, leaderOf,
                   leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   ackldRecv, suspects, zabAckers, envVars, proposed, leaders>>

(* Only under bugs 4646/4643: the follower's SyncThread writes the log     *)
(* that synchronization left in memory. Under 4643 (with 4646 fixed) the   *)
(* ACKLD follows the write.                                                *)
FollowerPersistLog(i) ==
    /\ Bugs \cap {"4646", "4643"} /= {}
    /\ up[i] /\ durable[i] < Len(history[i])
    /\ state[i] = FOLLOWING /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
    /\ currentEpoch[i] = acceptedEpoch[i]     \* NEWLEADER was accepted
    /\ durable' = [durable EXCEPT ![i] = Len(history[i])]
    /\ msgs' = IF "4643" \in Bugs /\ "4646" \notin Bugs /\ zabState[i] = SYNCHRONIZATION
               THEN Send(msgs, i, leaderOf[i], [mtype |-> ACKLD, len |-> Len(history[i])])
               ELSE msgs
    /\ UNCHANGED <<snapInMemory, state, zabState, acceptedEpoch, currentEpoch, history, lastCommitted,
                   up, leaderOf, leaderVars, envVars, ghostVars>>

(* Leader i counts an explicit ack, which implicitly acks every earlier    *)
(* proposal of this leader (2.3), and commits what a quorum covers (L3).   *)
(* Under 2.7 it remembers whether the sender is in Zab mode and sends it   *)
(* COMMIT for what is committed already.                                   *)
LeaderProcessACK(i, j) ==
    /\ state[i] = LEADING /\ zabState[i] = BROADCAST /\ j \in forwarding[i]
    /\ j \in ackldRecv[i]
    /\ Pending(i, j, ACK)
    /\ Msg(i, j).epoch = currentEpoch[i]
    /\ Msg(i, j).len <= Len(history[i])
    /\ LET m == Msg(i, j)
           ai == [ackIndex[i] EXCEPT ![j] = Max(@, m.len)]
           k == LeaderCommitIndex(i, ai)
           zs == IF m.zab = 1 THEN zabAckers[i] \cup {j} ELSE zabAckers[i] \ {j}
           ct == IF Variant = "Zab" THEN forwarding[i] ELSE zs \cap forwarding[i]
           ms0 == Receive(msgs, j, i)
           ms1 == IF k > lastCommitted[i]
                  THEN SendAll(ms0, i, ct, [mtype |-> COMMIT, zxid |-> history[i][k].zxid])
                  ELSE ms0
       IN /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ zabAckers' = [zabAckers EXCEPT ![i] = IF Switching THEN zs ELSE @]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = k]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, k))
          \* 2.7: a zab = 1 ack of something committed already is answered with its COMMIT
          /\ msgs' = IF Switching /\ m.zab = 1 /\ 0 < m.len /\ m.len <= lastCommitted[i]
                     THEN Send(ms1, i, j, [mtype |-> COMMIT, zxid |-> history[i][m.len].zxid])
                     ELSE ms1
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, snapInMemory, up,
                   leaderOf, leaderEpoch, infoMaxEpoch, learners, ackepochRecv,
                   forwarding, ackldRecv, suspects, envVars, proposed, leaders>>

\* Follower i counts a peer follower's explicit (or implicit) ack and commits to itself. The ack
\* is kept whole, also past i's own log (FollowerCommitIndex never passes that log): an ack that
\* arrives before i has logged m still counts once it has, as the Java server counts it (a ZabCT
\* peer may send no later ack; trace validation, spec/README.md D20).
FollowerProcessACK(i, j) ==
    /\ state[i] = FOLLOWING /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
    /\ j /= leaderOf[i]
    /\ Pending(i, j, ACK)
    /\ Msg(i, j).epoch = currentEpoch[i]
    /\ LET ai == [ackIndex[i] EXCEPT ![j] = Max(@, Msg(i, j).len)]
           lc == Max(lastCommitted[i], FollowerCommitIndex(i, ai, Len(history[i])))
       IN /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, lc))
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, snapInMemory, up,
                   leaderOf, leaderEpoch, infoMaxEpoch, learners, ackepochRecv,
                   forwarding, ackldRecv, suspects, zabAckers, envVars, proposed, leaders>>

\* Follower i delivers up to the committed zxid (COMMITs are cumulative here).
FollowerProcessCOMMIT(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, COMMIT)
    /\ IndexOf(history[i], Msg(i, j).zxid) > 0
    /\ LET lc == Max(lastCommitted[i], IndexOf(history[i], Msg(i, j).zxid))
       IN /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, lc))
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, snapInMemory, up,
                   leaderOf, leaderVars, envVars, proposed, leaders>>

(* D21, 2.7's switch on the follower's own timeout (A3): a follower whose *)
(* log holds durable entries it has not delivered re-acknowledges them to  *)
(* its leader with zab = 1, unless its leader counts it as a Zab-mode      *)
(* acker already (its last ACK, delivered or in flight, had zab = 1). The  *)
(* leader answers with the COMMIT of what is committed and sends it the    *)
(* COMMITs of the rest (CommitTo). Without it a fast follower can wait for *)
(* ever for a peer's ack that is never sent (the peer got m by             *)
(* synchronization, or acked it in Zab mode before UPTODATE) or was lost   *)
(* (a partition between the followers), as no later proposal comes.       *)
LastAckZab(i, j) ==
    LET acks == {k \in 1..Len(msgs[i][j]) : msgs[i][j][k].mtype = ACK}
    IN IF acks = {} THEN i \in zabAckers[j] ELSE msgs[i][j][MaxOf(acks)].zab = 1
FollowerReackZabTo(i, n) ==
    LET j == leaderOf[i]
    IN /\ Switching /\ up[i] /\ state[i] = FOLLOWING /\ zabState[i] = BROADCAST
       /\ lastCommitted[i] < n /\ n <= durable[i]
       /\ state[j] = LEADING /\ i \in forwarding[j] /\ ~LastAckZab(i, j)
       /\ msgs' = Send(msgs, i, j, [mtype |-> ACK, epoch |-> currentEpoch[i], len |-> n, zab |-> 1])
       /\ UNCHANGED <<serverVars, leaderVars, envVars, ghostVars>>
FollowerReackZab(i) == \E n \in 1..Len(history[i]) : FollowerReackZabTo(i, n)

(* A3 (2.1, 2.7): follower i starts or stops suspecting follower k of a   *)
(* crash. Suspicions need not be true: k may be up, and a suspicion may be *)
(* reversed. Only with Switching.                                          *)
FollowerSuspect(i, k) ==
    /\ Switching
    /\ up[i] /\ state[i] = FOLLOWING /\ k /= i /\ k /= leaderOf[i]
    /\ k \notin suspects[i]
    /\ suspects' = [suspects EXCEPT ![i] = @ \cup {k}]
    /\ UNCHANGED <<serverVars, leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   ackldRecv, ackIndex, zabAckers, msgs, envVars, ghostVars>>

FollowerUnsuspect(i, k) ==
    /\ Switching
    /\ up[i] /\ k \in suspects[i]
    /\ suspects' = [suspects EXCEPT ![i] = @ \ {k}]
    /\ UNCHANGED <<serverVars, leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   ackldRecv, ackIndex, zabAckers, msgs, envVars, ghostVars>>

(* A message at the head of a channel that the receiver, in its present    *)
(* relation with the sender, cannot have been sent in a correct run.       *)
(* Apache's zookeeper-specifications found its bugs by flagging such       *)
(* messages instead of discarding them; NoUnexpectedMessage does the same. *)
Unexpected(i, j, m) ==
    \/ \* an ACK from a follower whose ACKLD the leader has not seen (ZOOKEEPER-4685)
       /\ m.mtype = ACK /\ state[i] = LEADING /\ j \in forwarding[i] /\ j \notin ackldRecv[i]
    \/ \* an ACK of a proposal this leader never made
       /\ m.mtype = ACK /\ state[i] = LEADING /\ j \in forwarding[i]
       /\ m.epoch = currentEpoch[i] /\ m.len > Len(history[i])
    \/ \* a PROPOSAL or COMMIT from the own leader before synchronization began
       /\ m.mtype \in {PROPOSAL, COMMIT} /\ state[i] = FOLLOWING /\ leaderOf[i] = j
       /\ zabState[i] = DISCOVERY
    \/ \* a COMMIT of a transaction the follower does not have
       /\ m.mtype = COMMIT /\ state[i] = FOLLOWING /\ leaderOf[i] = j
       /\ IndexOf(history[i], m.zxid) = 0
    \/ \* UPTODATE before NEWLEADER
       /\ m.mtype = UPTODATE /\ state[i] = FOLLOWING /\ leaderOf[i] = j
       /\ zabState[i] \in {DISCOVERY, SYNCHRONIZATION} /\ currentEpoch[i] /= acceptedEpoch[i]

\* Server i drops a message that a change of role or epoch left behind (a stale one).
DiscardStale(i, j) ==
    /\ msgs[j][i] /= <<>>
    /\ LET m == Msg(i, j)
           usable ==
             \/ m.mtype = FOLLOWERINFO /\ state[i] = LEADING
             \/ m.mtype = ACKEPOCH /\ state[i] = LEADING /\ j \in learners[i]
             \/ m.mtype = ACKLD /\ state[i] = LEADING /\ j \in forwarding[i]
             \/ m.mtype = ACK /\ state[i] = LEADING /\ zabState[i] = BROADCAST
                /\ j \in forwarding[i] /\ m.epoch = currentEpoch[i]
             \/ m.mtype = ACK /\ state[i] = FOLLOWING /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
                /\ j /= leaderOf[i] /\ m.epoch = currentEpoch[i]
             \/ m.mtype = PROPOSAL /\ state[i] = FOLLOWING /\ leaderOf[i] = j
                /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
             \/ /\ m.mtype \in {LEADERINFO, DIFF, TRUNC, SNAP, NEWLEADER, UPTODATE, COMMIT}
                /\ state[i] = FOLLOWING /\ leaderOf[i] = j
             \/ m.mtype = LOGWRITE     \* a queued log write is the SyncThread's, never dropped
       IN ~usable /\ ~Unexpected(i, j, m)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<serverVars, leaderVars, envVars, ghostVars>>

(* Bug "4712": ZOOKEEPER-4712 (apache/zookeeper PR 2154; first attempt PR *)
(* 2032): Follower.shutdown() does not shut down the follower's            *)
(* SyncRequestProcessor, so log writes queued in it outlive a role change  *)
(* and land in the log later, after the server has reloaded its database   *)
(* from the log (fastForwardDataBase), voted and synchronized with another *)
(* leader; FileTxnLog appends them even behind newer zxids (it only warns). *)
(* The queue it needs is that of ZooKeeper 3.9.2's syncWithLeader          *)
(* (ZOOKEEPER-4785, PR 2111): on NEWLEADER the synced proposals go to the  *)
(* SyncThread (logRequest), and the QuorumPeer thread waits for that write *)
(* before it writes currentEpoch and sends ACKLD. The queue is the channel *)
(* msgs[i][i]: a crash empties it (the thread dies with the process), a    *)
(* role change does not. While it waits, the QuorumPeer thread reads no    *)
(* further packet: NEWLEADER stays at the head of the leader's channel. The correct spec writes the log in the NEWLEADER  *)
(* step itself (both fixes: written before the ACK, nothing outlives the   *)
(* role). A zombie write lands on the disk log, before what the server     *)
(* holds only in memory; the log is what the server reloads at its next   *)
(* role change or restart, so it is part of history at once.               *)
FollowerHandNEWLEADERToSyncThread(i, j) ==
    /\ "4712" \in Bugs
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, NEWLEADER)
    /\ ~\E k \in 1..Len(msgs[i][i]) : msgs[i][i][k].leader = j /\ msgs[i][i][k].epoch = Msg(i, j).epoch
    /\ msgs' = Send(msgs, i, i,
                    [mtype |-> LOGWRITE, epoch |-> Msg(i, j).epoch, leader |-> j,
                     txns |-> SubSeq(history[i], durable[i] + 1, Len(history[i]))])
    /\ UNCHANGED <<serverVars, leaderVars, envVars, ghostVars>>

(* The SyncThread of i writes its next queued batch. In the role that     *)
(* queued it, it writes the whole log and the waiting QuorumPeer thread    *)
(* writes currentEpoch, takes NEWLEADER and sends ACKLD. After a role change (4712) the     *)
(* batch is appended to the disk log as it is now.                         *)
SyncThreadWrite(i) ==
    /\ up[i] /\ msgs[i][i] /= <<>> /\ Msg(i, i).mtype = LOGWRITE
    /\ LET m == Msg(i, i)
           ms == Receive(msgs, i, i)
           inRole == /\ state[i] = FOLLOWING /\ leaderOf[i] = m.leader
                     /\ Pending(i, m.leader, NEWLEADER) /\ Msg(i, m.leader).epoch = m.epoch
           disk == SubSeq(history[i], 1, durable[i])
           mem == SubSeq(history[i], durable[i] + 1, Len(history[i]))
       IN IF inRole
          THEN /\ durable' = [durable EXCEPT ![i] = Len(history[i])]
               /\ currentEpoch' = [currentEpoch EXCEPT ![i] = m.epoch]
               /\ msgs' = Send(Receive(ms, m.leader, i), i, m.leader,
                               [mtype |-> ACKLD, len |-> Len(history[i])])
               /\ UNCHANGED history
          ELSE /\ lastCommitted[i] <= durable[i]   \* what i delivered keeps its place
               /\ history' = [history EXCEPT ![i] = disk \o m.txns \o mem]
               /\ durable' = [durable EXCEPT ![i] = durable[i] + Len(m.txns)]
               /\ msgs' = ms
               /\ UNCHANGED currentEpoch
    /\ UNCHANGED <<snapInMemory, state, zabState, acceptedEpoch, lastCommitted, up, leaderOf, leaderVars,
                   envVars, ghostVars>>

----------------------------------------------------------------------------
(* Environment: crashes, restarts and partitions.                          *)

(* Server i crashes: it keeps acceptedEpoch, currentEpoch and the durable  *)
(* part of its log; its links break. Under A1.2 (seed 003 section 2.1) no  *)
(* server fails while exactly ceil((N+1)/2) servers are up, i.e. a crash  *)
(* needs more than that many up. Bug "2354" (ZOOKEEPER-2354, PR 1110): a   *)
(* follower can be terminated while processing NEWLEADER after its synced  *)
(* log is on disk but before currentEpoch is written.                      *)
NodeCrash(i) ==
    /\ up[i] /\ crashes < MaxCrashes
    /\ "A1.2" \in Assumptions => Cardinality({k \in Server : up[k]}) > (N + 2) \div 2
    /\ LET D == {i} \cup (IF state[i] = LEADING THEN FollowersOf(i) ELSE {})
       IN /\ DetachRoles(D)
          /\ DetachLeaderVars(D)
          /\ \E midNewLeader \in
                IF "2354" \in Bugs /\ state[i] = FOLLOWING /\ Pending(i, leaderOf[i], NEWLEADER)
                THEN BOOLEAN ELSE {FALSE} :
              LET d == IF midNewLeader THEN Len(history[i]) ELSE durable[i]
              IN /\ history' = [LeaveHistory(D \ {i}) EXCEPT ![i] = SubSeq(history[i], 1, d)]
                 /\ durable' = [LeaveDurable(D \ {i}) EXCEPT ![i] = d]
                 /\ lastCommitted' = [LeaveCommitted(D \ {i}) EXCEPT ![i] = 0]
                 /\ snapInMemory' = [LeaveSnapInMemory(D \ {i}) EXCEPT ![i] = "none"]
    /\ up' = [up EXCEPT ![i] = FALSE]
    /\ msgs' = ClearAll(msgs, i)
    /\ crashes' = crashes + 1
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, partitioned, partitions, ghostVars>>

NodeStart(i) ==
    /\ ~up[i]
    /\ up' = [up EXCEPT ![i] = TRUE]
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, snapInMemory,
                   lastCommitted, leaderOf, leaderVars, msgs, envVars, ghostVars>>

\* The link between i and j breaks: in-flight messages are lost, a follower of the other side leaves.
PartitionStart(i, j) ==
    /\ i /= j /\ {i, j} \notin partitioned
    /\ partitions < MaxPartitions
    /\ LET D == {x \in {i, j} : state[x] = FOLLOWING /\ leaderOf[x] \in {i, j}}
       IN /\ DetachState(D)
          /\ DetachLeaderVars(D)
    /\ msgs' = ClearLink(msgs, i, j)
    /\ partitioned' = partitioned \cup {{i, j}}
    /\ partitions' = partitions + 1
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, up, crashes, ghostVars>>

PartitionRecover(i, j) ==
    /\ {i, j} \in partitioned
    /\ partitioned' = partitioned \ {{i, j}}
    /\ UNCHANGED <<serverVars, leaderVars, msgs, crashes, partitions, ghostVars>>

\* A leader that no longer has a quorum of followers steps down.
LeaderLoseQuorum(i) ==
    /\ up[i] /\ state[i] = LEADING
    /\ ~IsQuorum(FollowersOf(i) \cup {i})
    /\ LeaderShutdown(i)
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, up, envVars, ghostVars>>

----------------------------------------------------------------------------
\* Every step of the protocol and its environment except client requests and suspicions.
CoreNext ==
    \/ \E i \in Server, Q \in SUBSET Server : ElectLeader(i, Q)
    \/ \E i, j \in Server : FollowerJoin(j, i)
    \/ \E i, j \in Server : LeaderProcessFOLLOWERINFO(i, j)
    \/ \E i, j \in Server : FollowerProcessLEADERINFO(i, j)
    \/ \E i, j \in Server : LeaderProcessACKEPOCH(i, j)
    \/ \E i, j \in Server : FollowerProcessDIFF(i, j)
    \/ \E i, j \in Server : FollowerProcessTRUNC(i, j)
    \/ \E i, j \in Server : FollowerProcessSNAP(i, j)
    \/ \E i, j \in Server : FollowerProcessNEWLEADER(i, j)
    \/ \E i, j \in Server : LeaderProcessACKLD(i, j)
    \/ \E i, j \in Server : FollowerProcessUPTODATE(i, j)
    \/ \E i, j \in Server : FollowerProcessPROPOSAL(i, j)
    \/ \E i, j \in Server : LeaderProcessACK(i, j)
    \/ \E i, j \in Server : FollowerProcessACK(i, j)
    \/ \E i, j \in Server : FollowerProcessCOMMIT(i, j)
    \/ \E i, j \in Server : DiscardStale(i, j)
    \/ \E i \in Server : LeaderPersistLog(i)
    \/ \E i \in Server : FollowerPersistLog(i)
    \/ \E i \in Server : FollowerReackZab(i)
    \/ \E i \in Server : LeaderLoseQuorum(i)
    \/ \E i \in Server : NodeCrash(i)
    \/ \E i \in Server : NodeStart(i)
    \/ \E i, j \in Server : PartitionStart(i, j)
    \/ \E i, j \in Server : PartitionRecover(i, j)
    \/ \E i, j \in Server : FollowerHandNEWLEADERToSyncThread(i, j)
    \/ \E i \in Server : SyncThreadWrite(i)

\* A3's suspicions (2.7) may come and go for ever (they may be wrong): no fairness is asked of them.
SuspectNext ==
    \/ \E i, k \in Server : FollowerSuspect(i, k)
    \/ \E i, k \in Server : FollowerUnsuspect(i, k)

ProtocolNext == CoreNext \/ SuspectNext

Next == ProtocolNext \/ \E i \in Server : LeaderProcessRequest(i)

Spec == Init /\ [][Next]_vars

----------------------------------------------------------------------------
(* Invariants. Delivered(i) is what server i has delivered;                *)
(* committedLog is the longest sequence any server ever delivered.         *)

TypeOK ==
    /\ state \in [Server -> {LOOKING, FOLLOWING, LEADING}]
    /\ zabState \in [Server -> {ELECTION, DISCOVERY, SYNCHRONIZATION, BROADCAST}]
    /\ acceptedEpoch \in [Server -> 0..MaxEpoch]
    /\ currentEpoch \in [Server -> 0..MaxEpoch]
    /\ \A i \in Server : currentEpoch[i] <= acceptedEpoch[i]
    /\ \A i \in Server : \A k \in 1..Len(history[i]) : history[i][k].zxid \in Nat \X Nat
    /\ \A i \in Server : durable[i] \in 0..Len(history[i])
    /\ \A i \in Server : lastCommitted[i] \in 0..Len(history[i])
    /\ up \in [Server -> BOOLEAN]
    /\ leaderOf \in [Server -> Server \cup {NoServer}]
    /\ snapInMemory \in [Server -> {"none", "sync", "trunc", "kept"}]
    /\ \A i \in Server : snapInMemory[i] /= "none" => Bugs \cap {"3642", "5094"} /= {}
    /\ \A i \in Server : snapInMemory[i] = "kept" => durable[i] < Len(history[i]) /\ state[i] /= LEADING
    /\ \A i \in Server : state[i] = FOLLOWING => leaderOf[i] \in Server \ {i}
    /\ \A i \in Server : ~up[i] => state[i] = LOOKING
    /\ crashes \in 0..MaxCrashes /\ partitions \in 0..MaxPartitions

\* Leadership (Zab paper): at most one leader establishes any epoch.
Leadership ==
    \A a, b \in leaders : a[1] = b[1] => a[2] = b[2]

\* PrefixConsistency: the delivered prefixes of any two servers agree where both are defined.
PrefixConsistency ==
    \A i, j \in Server :
        LET n == Min(lastCommitted[i], lastCommitted[j])
        IN SubSeq(history[i], 1, n) = SubSeq(history[j], 1, n)

\* Integrity (Zab paper): a server delivers only transactions some leader broadcast.
Integrity ==
    \A i \in Server : \A k \in 1..lastCommitted[i] : history[i][k] \in proposed

\* Agreement (Zab paper): if i delivers a and j delivers b, then i delivers b or j delivers a.
Agreement ==
    \A i, j \in Server :
        \A a \in Range(Delivered(i)), b \in Range(Delivered(j)) :
            a \in Range(Delivered(j)) \/ b \in Range(Delivered(i))

\* Position of txn t in sequence s (0 when absent).
Pos(s, t) == IF t \in Range(s) THEN CHOOSE k \in 1..Len(s) : s[k] = t ELSE 0

\* TotalOrder (Zab paper): if i delivers a before b, any server that delivers b delivers a before b.
TotalOrder ==
    \A i, j \in Server :
        \A a, b \in Range(Delivered(i)) :
            Pos(Delivered(i), a) < Pos(Delivered(i), b) /\ b \in Range(Delivered(j))
                => 0 < Pos(Delivered(j), a) /\ Pos(Delivered(j), a) < Pos(Delivered(j), b)

\* LocalPrimaryOrder (Zab paper): if a leader broadcasts a before b, a server delivering b delivers a first.
LocalPrimaryOrder ==
    \A i \in Server : \A a, b \in proposed :
        /\ a.zxid[1] = b.zxid[1] /\ a.zxid[2] < b.zxid[2]
        /\ b \in Range(Delivered(i))
        => 0 < Pos(Delivered(i), a) /\ Pos(Delivered(i), a) < Pos(Delivered(i), b)

\* GlobalPrimaryOrder (Zab paper): transactions of an earlier epoch are delivered before those of a later one.
GlobalPrimaryOrder ==
    \A i \in Server : \A a, b \in Range(Delivered(i)) :
        a.zxid[1] < b.zxid[1] => Pos(Delivered(i), a) < Pos(Delivered(i), b)

(* PrimaryIntegrity (Zab paper): an established leader of epoch e holds     *)
(* every transaction of an earlier epoch that any server delivered, before *)
(* anything it broadcasts itself.                                          *)
PrimaryIntegrity ==
    \A l \in Server :
        (up[l] /\ state[l] = LEADING /\ zabState[l] = BROADCAST)
        => \A j \in Server : \A a \in Range(Delivered(j)) :
               a.zxid[1] < currentEpoch[l]
               => /\ a \in Range(history[l])
                  /\ \A b \in Range(history[l]) :
                        b.zxid[1] = currentEpoch[l] => Pos(history[l], a) < Pos(history[l], b)

(* CommittedLogDurability: a committed transaction is never lost: it stays *)
(* in the log of a quorum, and no server's delivered prefix departs from   *)
(* the committed log.                                                      *)
\* Servers whose log on disk holds committedLog[k] at position k.
LoggedBy(k) == {i \in Server : durable[i] >= k /\ history[i][k] = committedLog[k]}

(* The Zab invariant on abdeliver (seed 003 section 1.1): every delivered *)
(* transaction is logged (on disk) by a quorum.                            *)
ZabInvariantOnDeliver ==
    \A k \in 1..Len(committedLog) : IsQuorum(LoggedBy(k))

\* No server's delivered prefix departs from what was ever delivered.
DeliveredNeverRevoked ==
    \A i \in Server : IsPrefix(Delivered(i), committedLog)

(* The Follower Invariant (seed 003 section 2.3): a delivered transaction  *)
(* broadcast by leader l is logged by at least f = ceil((N-1)/2) servers   *)
(* other than l (a set in q_l), or by a quorum. The fast variants of       *)
(* section 2 keep this, not the Zab invariant, until l has logged it.      *)
EpochLeader(e) == {l \in Server : <<e, l>> \in leaders}
FollowerInvariant ==
    \A k \in 1..Len(committedLog) :
        \/ IsQuorum(LoggedBy(k))
        \/ Cardinality(LoggedBy(k) \ EpochLeader(committedLog[k].zxid[1])) >= F

CommittedLogDurability == ZabInvariantOnDeliver /\ DeliveredNeverRevoked

(* NoUnexpectedMessage: no channel holds, at its head, a message that its *)
(* receiver cannot have been sent in a correct run (see Unexpected).       *)
NoUnexpectedMessage ==
    \A i, j \in Server : msgs[j][i] /= <<>> => ~Unexpected(i, j, Msg(i, j))

(* EpochNotBehindLog: no server's currentEpoch on disk is older than the  *)
(* epoch of the last transaction on its disk; QuorumPeer.loadDataBase      *)
(* refuses to start such a server (ZOOKEEPER-2354).                        *)
EpochNotBehindLog ==
    \A i \in Server : LastZxid(SubSeq(history[i], 1, durable[i]))[1] <= currentEpoch[i]

ZabInvariants ==
    /\ Leadership /\ PrefixConsistency /\ Integrity /\ Agreement /\ TotalOrder
    /\ LocalPrimaryOrder /\ GlobalPrimaryOrder /\ PrimaryIntegrity
    /\ CommittedLogDurability /\ NoUnexpectedMessage /\ EpochNotBehindLog

----------------------------------------------------------------------------
(* Liveness. Under weak fairness of every protocol step and of client     *)
(* requests, in a model whose faults are bounded (so they stop), a quorum  *)
(* that stays up and connected elects a leader and commits a write.        *)
FairSpec ==
    /\ Spec
    /\ WF_vars(CoreNext)
    /\ WF_vars(\E i \in Server : LeaderProcessRequest(i))

EventuallyLeader == <>(\E i \in Server : state[i] = LEADING /\ zabState[i] = BROADCAST)
EventuallyCommitted == <>(\E i \in Server : lastCommitted[i] >= 1 /\ history[i][1].value = 1)

(* Every follower broadcasting with a leader comes to deliver what that   *)
(* leader committed: a client whose write was acknowledged by the leader's *)
(* quorum, connected to that follower, is answered (the simulator's        *)
(* Liveness). The fast variants' followers that get no COMMIT (CommitTo)  *)
(* must learn it from their peers' acks (D21).                             *)
FollowersCatchUp ==
    <>[](\A i \in Server :
            (up[i] /\ state[i] = FOLLOWING /\ zabState[i] = BROADCAST
             /\ state[leaderOf[i]] = LEADING /\ zabState[leaderOf[i]] = BROADCAST)
            => lastCommitted[i] >= lastCommitted[leaderOf[i]])
=============================================================================

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
    Variant,            \* "Zab", "ZabAc", "ZabAa", "ZabCt" or "ZabCT"
    QuorumNeverCrashes, \* fault assumption of the fast variants (see NodeCrash)
    Bug3911,            \* ZOOKEEPER-3911: DIFF marks uncommitted proposals as committed
    Bug4643,            \* ZOOKEEPER-4643/4646: NEWLEADER updates currentEpoch and ACKs before the synced log is on disk
    MaxTxns,            \* bound: transactions proposed in a run
    MaxEpoch,           \* bound: highest epoch a leader may propose
    MaxCrashes,         \* bound: NodeCrash steps in a run
    MaxPartitions       \* bound: PartitionStart steps in a run

Variants == {"Zab", "ZabAc", "ZabAa", "ZabCt", "ZabCT"}
ASSUME Variant \in Variants
ASSUME QuorumNeverCrashes \in BOOLEAN /\ Bug3911 \in BOOLEAN /\ Bug4643 \in BOOLEAN
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

\* Variants in which followers acknowledge from memory and write the log later.
AckFromMemory == Variant /= "Zab"
\* Variants in which every server counts ACKs and no COMMIT is sent.
AckToAll == Variant \in {"ZabAa", "ZabCT"}
\* Variants in which a follower may skip an ACK (coin toss); ACKs are cumulative.
CoinToss == Variant \in {"ZabCt", "ZabCT"}
\* Variants in which the leader sends COMMIT.
SendsCommit == Variant \in {"Zab", "ZabCt"}

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
    leaderOf        \* the leader a FOLLOWING server follows
serverVars == <<state, zabState, acceptedEpoch, currentEpoch, history, durable,
                lastCommitted, up, leaderOf>>

\* Leader variables (also the ACK bookkeeping of every server in ZabAa/ZabCT).
VARIABLES
    leaderEpoch,    \* epoch proposed in LEADERINFO; 0 while collecting FOLLOWERINFO
    infoMaxEpoch,   \* highest acceptedEpoch seen in a FOLLOWERINFO
    learners,       \* followers whose FOLLOWERINFO arrived
    ackepochRecv,   \* [sid, zxid] of followers whose ACKEPOCH arrived
    forwarding,     \* followers that were synced and now receive proposals
    ackldRecv,      \* followers whose ACKLD (ACK of NEWLEADER) arrived
    ackIndex,       \* ackIndex[i][j]: highest history index j acknowledged to i
    lastAcked       \* highest index a follower acknowledged (coin toss bookkeeping)
leaderVars == <<leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                ackldRecv, ackIndex, lastAcked>>

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
DetachState(D) ==
    /\ state' = [k \in Server |-> IF k \in D THEN LOOKING ELSE state[k]]
    /\ zabState' = [k \in Server |-> IF k \in D THEN ELECTION ELSE zabState[k]]
    /\ leaderOf' = [k \in Server |-> IF k \in D THEN NoServer ELSE leaderOf[k]]

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
    /\ lastAcked' = [k \in Server |-> IF k \in D THEN 0 ELSE lastAcked[k]]

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
    /\ leaderEpoch = [i \in Server |-> 0]
    /\ infoMaxEpoch = [i \in Server |-> 0]
    /\ learners = [i \in Server |-> {}]
    /\ ackepochRecv = [i \in Server |-> {}]
    /\ forwarding = [i \in Server |-> {}]
    /\ ackldRecv = [i \in Server |-> {}]
    /\ ackIndex = [i \in Server |-> [j \in Server |-> 0]]
    /\ lastAcked = [i \in Server |-> 0]
    /\ msgs = [i \in Server |-> [j \in Server |-> <<>>]]
    /\ partitioned = {}
    /\ crashes = 0
    /\ partitions = 0
    /\ proposed = {}
    /\ leaders = {}
    /\ committedLog = <<>>

----------------------------------------------------------------------------
(* Election. An oracle in place of Fast Leader Election: any quorum Q of   *)
(* LOOKING servers that can reach i may elect i if i's vote is at least    *)
(* theirs. The followers send FOLLOWERINFO at once.                        *)
ElectLeader(i, Q) ==
    /\ i \in Q
    /\ IsQuorum(Q)
    /\ \A j \in Q : /\ up[j] /\ state[j] = LOOKING
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
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, durable, lastCommitted, up,
                   envVars, ghostVars>>

\* A LOOKING server j learns of the established leader i and follows it.
FollowerJoin(j, i) ==
    /\ j /= i
    /\ up[j] /\ state[j] = LOOKING
    /\ up[i] /\ state[i] = LEADING
    /\ {i, j} \notin partitioned
    /\ state' = [state EXCEPT ![j] = FOLLOWING]
    /\ zabState' = [zabState EXCEPT ![j] = DISCOVERY]
    /\ leaderOf' = [leaderOf EXCEPT ![j] = i]
    /\ msgs' = Send(msgs, j, i, [mtype |-> FOLLOWERINFO, epoch |-> acceptedEpoch[j]])
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, durable, lastCommitted, up,
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
    /\ UNCHANGED <<state, zabState, currentEpoch, history, durable, lastCommitted, up,
                   leaderOf, ackepochRecv, forwarding, ackldRecv, ackIndex, lastAcked,
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
               /\ UNCHANGED <<state, zabState, leaderOf, leaderVars>>
          ELSE /\ FollowerAbandon(i, j)     \* the leader is behind: give up on it
               /\ UNCHANGED acceptedEpoch
    /\ UNCHANGED <<currentEpoch, history, durable, lastCommitted, up, envVars, ghostVars>>

\* What leader i sends to synchronize a follower whose last zxid is z.
SyncPacket(i, z) ==
    LET h == history[i]
        k == IndexOf(h, z)
        committed == IF Bug3911 THEN Len(h) ELSE lastCommitted[i]
    IN IF z = <<0, 0>> \/ k > 0
       THEN [mtype |-> DIFF, txns |-> SubSeq(h, k + 1, Len(h)), committed |-> committed]
       ELSE IF ZxidLT(LastZxid(h), z)
       THEN [mtype |-> TRUNC, zxid |-> LastZxid(h), committed |-> committed]
       ELSE [mtype |-> SNAP, txns |-> h, committed |-> committed]

\* The sync packet, then NEWLEADER, on the channel from i to j.
SendSync(ms, i, j, z, e) ==
    Send(Send(ms, i, j, SyncPacket(i, z)), i, j, [mtype |-> NEWLEADER, epoch |-> e])

\* Leader i gathers ACKEPOCH; with a quorum it establishes the epoch and syncs.
LeaderProcessACKEPOCH(i, j) ==
    /\ state[i] = LEADING /\ j \in learners[i]
    /\ Pending(i, j, ACKEPOCH)
    /\ LET m == Msg(i, j)
           ahead == /\ m.fresh
                    /\ \/ m.epoch > currentEpoch[i]
                       \/ m.epoch = currentEpoch[i] /\ ZxidLT(LastZxid(history[i]), m.zxid)
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
                                   ackldRecv, ackIndex, lastAcked>>
               ELSE /\ ackepochRecv' = [ackepochRecv EXCEPT ![i] = recv]
                    /\ msgs' = Receive(msgs, j, i)
                    /\ UNCHANGED <<state, zabState, leaderOf, currentEpoch, leaders,
                                   leaderEpoch, infoMaxEpoch, learners, forwarding,
                                   ackldRecv, ackIndex, lastAcked>>
          ELSE \* epoch established: sync this late follower at once
               /\ ackepochRecv' = [ackepochRecv EXCEPT ![i] = recv]
               /\ forwarding' = [forwarding EXCEPT ![i] = @ \cup {j}]
               /\ msgs' = SendSync(Receive(msgs, j, i), i, j, m.zxid, currentEpoch[i])
               /\ UNCHANGED <<state, zabState, leaderOf, currentEpoch, leaders,
                              leaderEpoch, infoMaxEpoch, learners, ackldRecv, ackIndex,
                              lastAcked>>
    /\ UNCHANGED <<acceptedEpoch, history, durable, lastCommitted, up, envVars,
                   proposed, committedLog>>

----------------------------------------------------------------------------
(* Synchronization.                                                        *)

\* Follower i replaces its log by newHist and delivers up to committed.
FollowerSyncLog(i, newHist, committed) ==
    LET lc == Min(Len(newHist), Max(lastCommitted[i], committed))
    IN /\ history' = [history EXCEPT ![i] = newHist]
       \* only the part of the disk log that the new log keeps stays valid
       /\ durable' = [durable EXCEPT ![i] = Min(@, CommonPrefixLen(history[i], newHist))]
       /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
       /\ zabState' = [zabState EXCEPT ![i] = SYNCHRONIZATION]
       /\ committedLog' = Longest(committedLog, SubSeq(newHist, 1, lc))

FollowerProcessDIFF(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, DIFF)
    /\ LET m == Msg(i, j)
       IN FollowerSyncLog(i, history[i] \o m.txns, m.committed)
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
       IN FollowerSyncLog(i, SubSeq(history[i], 1, keep), m.committed)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, up, leaderOf, leaderVars,
                   envVars, proposed, leaders>>

FollowerProcessSNAP(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, SNAP)
    /\ LET m == Msg(i, j)
       IN FollowerSyncLog(i, m.txns, m.committed)
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, up, leaderOf, leaderVars,
                   envVars, proposed, leaders>>

(* Follower i accepts the new leader: the synced log goes to disk, then    *)
(* currentEpoch, then ACKLD. Bug4643 updates currentEpoch and ACKs first;  *)
(* the log is written later (FollowerPersistLog).                          *)
FollowerProcessNEWLEADER(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, NEWLEADER)
    /\ currentEpoch' = [currentEpoch EXCEPT ![i] = Msg(i, j).epoch]
    /\ durable' = [durable EXCEPT ![i] = IF Bug4643 THEN @ ELSE Len(history[i])]
    /\ msgs' = Send(Receive(msgs, j, i), i, j, [mtype |-> ACKLD, len |-> Len(history[i])])
    /\ UNCHANGED <<state, zabState, acceptedEpoch, history, lastCommitted, up, leaderOf,
                   leaderVars, envVars, ghostVars>>

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
             THEN /\ msgs' = Send(Receive(msgs, j, i), i, j,
                                  [mtype |-> UPTODATE, committed |-> lastCommitted[i]])
                  /\ UNCHANGED <<zabState, lastCommitted, committedLog>>
             ELSE /\ msgs' = Receive(msgs, j, i)
                  /\ UNCHANGED <<zabState, lastCommitted, committedLog>>
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, history, durable, up, leaderOf,
                   leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   lastAcked, envVars, proposed, leaders>>

\* Follower i starts serving: everything the leader committed is delivered.
FollowerProcessUPTODATE(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, UPTODATE)
    /\ LET lc == Max(lastCommitted[i], Min(Msg(i, j).committed, Len(history[i])))
       IN /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, lc))
    /\ zabState' = [zabState EXCEPT ![i] = BROADCAST]
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, acceptedEpoch, currentEpoch, history, durable, up, leaderOf,
                   leaderVars, envVars, proposed, leaders>>

----------------------------------------------------------------------------
(* Broadcast.                                                              *)

\* Highest index that a quorum of i's ACK bookkeeping ai covers (i counts itself).
QuorumIndex(i, ai, peers) ==
    MaxOf({k \in lastCommitted[i]..Len(history[i]) :
              k = lastCommitted[i] \/ IsQuorum({i} \cup {x \in peers : ai[x] >= k})})

\* Leader i logs a new transaction with value v and sends PROPOSAL to its forwarding set.
LeaderPropose(i, v) ==
    LET h == history[i]
        counter == IF LastZxid(h)[1] = currentEpoch[i] THEN LastZxid(h)[2] ELSE 0
        txn == [zxid |-> <<currentEpoch[i], counter + 1>>, value |-> v]
    IN /\ state[i] = LEADING /\ zabState[i] = BROADCAST
       /\ history' = [history EXCEPT ![i] = Append(h, txn)]
       /\ durable' = [durable EXCEPT ![i] = Len(h) + 1]
       /\ proposed' = proposed \cup {txn}
       /\ msgs' = SendAll(msgs, i, forwarding[i], [mtype |-> PROPOSAL, txn |-> txn])

\* A client request reaches leader i (protocol-only spec: values are 1, 2, ...).
LeaderProcessRequest(i) ==
    /\ Cardinality(proposed) < MaxTxns
    /\ LeaderPropose(i, Cardinality(proposed) + 1)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                   leaderOf, leaderVars, envVars, leaders, committedLog>>

(* Follower i logs a PROPOSAL and ACKs it: classic Zab after the disk      *)
(* write, the fast variants from memory. Coin toss may skip the ACK; ACK   *)
(* goes to every server in ZabAa/ZabCT. ZabAc delivers at once (its own    *)
(* ACK plus the leader's make two).                                        *)
FollowerProcessPROPOSAL(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
    /\ Pending(i, j, PROPOSAL)
    /\ LET txn == Msg(i, j).txn
           h == Append(history[i], txn)
           ack == [mtype |-> ACK, epoch |-> currentEpoch[i], len |-> Len(h)]
           to == IF AckToAll THEN Server \ {i} ELSE {j}
           lc == IF Variant = "ZabAc" /\ zabState[i] = BROADCAST
                 THEN Len(h) ELSE lastCommitted[i]
       IN /\ history' = [history EXCEPT ![i] = h]
          /\ durable' = [durable EXCEPT ![i] = IF AckFromMemory THEN @ ELSE Len(h)]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(h, 1, lc))
          /\ \E sendAck \in (IF CoinToss THEN BOOLEAN ELSE {TRUE}) :
                IF sendAck
                THEN /\ msgs' = SendAll(Receive(msgs, j, i), i, to, ack)
                     /\ lastAcked' = [lastAcked EXCEPT ![i] = Len(h)]
                ELSE /\ msgs' = Receive(msgs, j, i)
                     /\ UNCHANGED lastAcked
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, up, leaderOf,
                   leaderEpoch, infoMaxEpoch, learners, ackepochRecv, forwarding,
                   ackldRecv, ackIndex, envVars, proposed, leaders>>

\* Coin-toss fallback: a follower whose ACKs stalled sends a cumulative ACK.
FollowerSendACK(i) ==
    /\ CoinToss
    /\ up[i] /\ state[i] = FOLLOWING /\ zabState[i] = BROADCAST
    /\ lastAcked[i] < Len(history[i])
    /\ LET ack == [mtype |-> ACK, epoch |-> currentEpoch[i], len |-> Len(history[i])]
           to == IF AckToAll THEN Server \ {i} ELSE {leaderOf[i]}
       IN msgs' = SendAll(msgs, i, to, ack)
    /\ lastAcked' = [lastAcked EXCEPT ![i] = Len(history[i])]
    /\ UNCHANGED <<serverVars, leaderEpoch, infoMaxEpoch, learners, ackepochRecv,
                   forwarding, ackldRecv, ackIndex, envVars, ghostVars>>

\* A server that logged from memory (or under Bug4643) writes its log to disk.
FollowerPersistLog(i) ==
    /\ AckFromMemory \/ Bug4643
    /\ up[i] /\ durable[i] < Len(history[i])
    /\ state[i] = FOLLOWING /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
    /\ currentEpoch[i] = acceptedEpoch[i]     \* NEWLEADER was accepted
    /\ durable' = [durable EXCEPT ![i] = Len(history[i])]
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, lastCommitted,
                   up, leaderOf, leaderVars, msgs, envVars, ghostVars>>

\* Leader i counts an ACK and commits what a quorum has acknowledged.
LeaderProcessACK(i, j) ==
    /\ state[i] = LEADING /\ zabState[i] = BROADCAST /\ j \in forwarding[i]
    /\ Pending(i, j, ACK)
    /\ Msg(i, j).epoch = currentEpoch[i]
    /\ LET ai == [ackIndex[i] EXCEPT ![j] = Max(@, Msg(i, j).len)]
           k == QuorumIndex(i, ai, forwarding[i])
       IN /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = k]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, k))
          /\ msgs' = IF SendsCommit /\ k > lastCommitted[i]
                     THEN SendAll(Receive(msgs, j, i), i, forwarding[i],
                                  [mtype |-> COMMIT, zxid |-> history[i][k].zxid])
                     ELSE Receive(msgs, j, i)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, up,
                   leaderOf, leaderEpoch, infoMaxEpoch, learners, ackepochRecv,
                   forwarding, ackldRecv, lastAcked, envVars, proposed, leaders>>

\* ZabAa/ZabCT: follower i counts a peer's ACK; the leader's PROPOSAL is its ACK.
FollowerProcessACK(i, j) ==
    /\ AckToAll
    /\ state[i] = FOLLOWING /\ zabState[i] = BROADCAST /\ j /= leaderOf[i]
    /\ Pending(i, j, ACK)
    /\ Msg(i, j).epoch = currentEpoch[i]
    /\ LET ai == [ackIndex[i] EXCEPT ![j] = Max(@, Msg(i, j).len)]
           ai2 == [ai EXCEPT ![leaderOf[i]] = Len(history[i])]
           k2 == QuorumIndex(i, ai2, Server \ {i})
       IN /\ ackIndex' = [ackIndex EXCEPT ![i] = ai]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = k2]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, k2))
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, up,
                   leaderOf, leaderEpoch, infoMaxEpoch, learners, ackepochRecv,
                   forwarding, ackldRecv, lastAcked, envVars, proposed, leaders>>

\* Follower i delivers up to the committed zxid (COMMITs are cumulative here).
FollowerProcessCOMMIT(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ Pending(i, j, COMMIT)
    /\ LET lc == Max(lastCommitted[i], IndexOf(history[i], Msg(i, j).zxid))
       IN /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
          /\ committedLog' = Longest(committedLog, SubSeq(history[i], 1, lc))
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable, up,
                   leaderOf, leaderVars, envVars, proposed, leaders>>

\* Server i drops a message it cannot use in its present state (a stale one).
DiscardStale(i, j) ==
    /\ msgs[j][i] /= <<>>
    /\ LET m == Msg(i, j)
           forLeader == m.mtype \in {FOLLOWERINFO, ACKEPOCH, ACKLD}
           usable ==
             \/ m.mtype = FOLLOWERINFO /\ state[i] = LEADING
             \/ m.mtype = ACKEPOCH /\ state[i] = LEADING /\ j \in learners[i]
             \/ m.mtype = ACKLD /\ state[i] = LEADING /\ j \in forwarding[i]
             \/ m.mtype = ACK /\ state[i] = LEADING /\ zabState[i] = BROADCAST
                /\ j \in forwarding[i] /\ m.epoch = currentEpoch[i]
             \/ m.mtype = ACK /\ AckToAll /\ state[i] = FOLLOWING
                /\ zabState[i] = BROADCAST /\ j /= leaderOf[i] /\ m.epoch = currentEpoch[i]
             \/ m.mtype = PROPOSAL /\ state[i] = FOLLOWING /\ leaderOf[i] = j
                /\ zabState[i] \in {SYNCHRONIZATION, BROADCAST}
             \/ /\ m.mtype \in {LEADERINFO, DIFF, TRUNC, SNAP, NEWLEADER, UPTODATE, COMMIT}
                /\ state[i] = FOLLOWING /\ leaderOf[i] = j
       IN ~usable
    /\ msgs' = Receive(msgs, j, i)
    /\ UNCHANGED <<serverVars, leaderVars, envVars, ghostVars>>

----------------------------------------------------------------------------
(* Environment: crashes, restarts and partitions.                          *)

(* Server i crashes: it keeps acceptedEpoch, currentEpoch and the durable   *)
(* part of its log; its links break. The fast variants assume a quorum     *)
(* never crashes; at the granularity of this spec that is: no server       *)
(* crashes while it holds acknowledged entries that are not on disk.       *)
NodeCrash(i) ==
    /\ up[i] /\ crashes < MaxCrashes
    /\ QuorumNeverCrashes => durable[i] = Len(history[i])
    /\ LET D == {i} \cup (IF state[i] = LEADING THEN FollowersOf(i) ELSE {})
       IN /\ DetachState(D)
          /\ DetachLeaderVars(D)
    /\ up' = [up EXCEPT ![i] = FALSE]
    /\ history' = [history EXCEPT ![i] = SubSeq(@, 1, durable[i])]
    /\ lastCommitted' = [lastCommitted EXCEPT ![i] = 0]
    /\ msgs' = ClearAll(msgs, i)
    /\ crashes' = crashes + 1
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, durable, partitioned, partitions, ghostVars>>

NodeStart(i) ==
    /\ ~up[i]
    /\ up' = [up EXCEPT ![i] = TRUE]
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, durable,
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
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, durable, lastCommitted, up,
                   crashes, ghostVars>>

PartitionRecover(i, j) ==
    /\ {i, j} \in partitioned
    /\ partitioned' = partitioned \ {{i, j}}
    /\ UNCHANGED <<serverVars, leaderVars, msgs, crashes, partitions, ghostVars>>

\* A leader that no longer has a quorum of followers steps down.
LeaderLoseQuorum(i) ==
    /\ up[i] /\ state[i] = LEADING
    /\ ~IsQuorum(FollowersOf(i) \cup {i})
    /\ LeaderShutdown(i)
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, history, durable, lastCommitted, up,
                   envVars, ghostVars>>

----------------------------------------------------------------------------
\* Every step of the protocol and its environment except client requests.
ProtocolNext ==
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
    \/ \E i \in Server : FollowerSendACK(i)
    \/ \E i \in Server : FollowerPersistLog(i)
    \/ \E i \in Server : LeaderLoseQuorum(i)
    \/ \E i \in Server : NodeCrash(i)
    \/ \E i \in Server : NodeStart(i)
    \/ \E i, j \in Server : PartitionStart(i, j)
    \/ \E i, j \in Server : PartitionRecover(i, j)

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
CommittedLogDurability ==
    /\ \A k \in 1..Len(committedLog) :
           IsQuorum({i \in Server : Len(history[i]) >= k /\ history[i][k] = committedLog[k]})
    /\ \A i \in Server : IsPrefix(Delivered(i), committedLog)

ZabInvariants ==
    /\ Leadership /\ PrefixConsistency /\ Integrity /\ Agreement /\ TotalOrder
    /\ LocalPrimaryOrder /\ GlobalPrimaryOrder /\ PrimaryIntegrity
    /\ CommittedLogDurability
=============================================================================

------------------------------ MODULE TraceZab ------------------------------
(***************************************************************************)
(* Trace validation of the Java Zab core against Zab.tla. TraceLogs (a     *)
(* generated module, spec/trace.py) holds a batch of traces of one shape,  *)
(* each checked on its own (Init picks the trace t), so that one TLC run   *)
(* validates many traces. A trace holds one record per protocol step the   *)
(* server took, named after the Zab.tla action it implements, with the     *)
(* acting server's variables after the step. A behaviour of TraceSpec is a *)
(* behaviour of Zab.tla whose steps explain the trace lines in order; the  *)
(* trace is accepted when some behaviour explains its last line.           *)
(*                                                                         *)
(* Partial observation: only the acting server's variables are compared,  *)
(* and of those only what the code exposes (spec/README.md, mapping):      *)
(* state, acceptedEpoch, currentEpoch, the history's zxids, zabState of a  *)
(* leader; durable and lastCommitted as bounds (the spec's durable prefix  *)
(* must be on the code's disk, what the code delivered must be committed   *)
(* in the spec). Messages are not observed: they are the spec's channels,  *)
(* so an action is possible only when its message is at the channel head.  *)
(*                                                                         *)
(* Silent steps: the code acknowledges and commits cumulatively, so one    *)
(* code step may be several spec steps of one action (an ACK through zxid  *)
(* z is an ACK per proposal up to z). And the code splits the spec's       *)
(* FollowerProcessPROPOSAL (receive, log, ACK in one step) in two: it      *)
(* appends at receipt and ACKs once the disk has it, handling a COMMIT     *)
(* that arrives in between; the spec takes that PROPOSAL step before the   *)
(* COMMIT step, silently, and the code's ACK line then finds it done. What *)
(* makes the step honest is checked where the code ACKs: its disk holds   *)
(* what it acknowledged (durableCheck "ack"). Before explaining line l     *)
(* the spec may take such steps of the line's server without consuming a  *)
(* line.                                                                   *)
(***************************************************************************)
EXTENDS Zab, TraceZabLog

VARIABLE t          \* the trace of the batch this behaviour explains (fixed)
VARIABLE l          \* the next line of trace t to explain
traceVars == <<vars, t, l>>

Line == TraceLogs[t][l]
Zxids(h) == [k \in 1..Len(h) |-> h[k].zxid]

(* What the code delivered the spec has committed, except what a restarted *)
(* server re-applied from its snapshot: the spec's lastCommitted restarts  *)
(* from 0 (the NodeStart line checks that the snapshot holds only what was *)
(* committed).                                                             *)
DeliveredOK(i) == lastCommitted'[i] >= Line.delivered \/ Line.delivered <= Line.recovered

\* A crash: the epochs survive, and the log the server recovers at its next NodeStart.
ObservedCrash(i) ==
    /\ ~up'[i]
    /\ acceptedEpoch'[i] = Line.acceptedEpoch
    /\ currentEpoch'[i] = Line.currentEpoch
    /\ Line.exact => Zxids(history'[i]) = Line.history

\* A restart: the recovered snapshot was committed.
RecoveredCommitted ==
    /\ Line.delivered <= Len(committedLog)
    /\ Zxids(SubSeq(committedLog, 1, Line.delivered)) = SubSeq(Line.history, 1, Line.delivered)

\* The acting server's variables after the step agree with the line.
Observed(i) ==
  IF Line.action = "NodeCrash" THEN ObservedCrash(i) ELSE
    /\ up'[i]
    \* D18: a SNAP installs the leader's applied state, which may include what the leader
    \* re-applied from its own snapshot after a restart (its spec lastCommitted restarted from 0)
    /\ Line.action \in {"NodeStart", "FollowerProcessSNAP"} => RecoveredCommitted
    /\ state'[i] = Line.state
    /\ acceptedEpoch'[i] = Line.acceptedEpoch
    /\ \/ currentEpoch'[i] = Line.currentEpoch
       \* D14: a COMMIT the code takes before it has finished NEWLEADER, which the spec took first
       \/ Line.action = "FollowerProcessCOMMIT" /\ Line.zabState = SYNCHRONIZATION
          /\ currentEpoch'[i] = Line.acceptedEpoch
    /\ Line.state = LEADING => zabState'[i] = Line.zabState
    /\ IF Line.exact THEN Zxids(history'[i]) = Line.history
                     ELSE IsPrefix(Zxids(history'[i]), Line.history)
    /\ Line.durableCheck = "exact" => durable'[i] = Line.durable
    \* an ACK through the mark: the spec logged it in that step, so the code's disk must hold it
    /\ Line.durableCheck = "ack" => Line.durable >= Line.mark /\ durable'[i] >= Line.mark
    /\ Len(history'[i]) >= Line.minLen
    /\ DeliveredOK(i)

\* A COMMIT or UPTODATE the code took while the spec still has a PROPOSAL ahead of it.
Deferred(i, j, type) == ~Pending(i, j, type) /\ UNCHANGED vars

(* D7: the spec elected i when a follower settled on it (FollowerJoin);  *)
(* the code's i settles later, and has taken no step as leader since.      *)
ElectedEarlier(i) ==
    /\ state[i] = LEADING /\ zabState[i] = DISCOVERY /\ leaderEpoch[i] = 0 /\ learners[i] = {}
    /\ UNCHANGED vars

(* D14: the code takes NEWLEADER in two steps, as it does a PROPOSAL      *)
(* (D3): it receives it, then stores currentEpoch and ACKs once the synced *)
(* history is durable, and may take the COMMITs behind it in between. The  *)
(* spec then takes FollowerProcessNEWLEADER before such a COMMIT (Silent),  *)
(* and the code's NEWLEADER line finds it done; the line still checks that *)
(* the code's disk holds the synced history.                               *)
NewLeaderEarlier(i, j) ==
    /\ state[i] = FOLLOWING /\ leaderOf[i] = j /\ ~Pending(i, j, NEWLEADER)
    /\ currentEpoch[i] = acceptedEpoch[i]
    /\ UNCHANGED vars

(* D19: the code's leader in BROADCAST steps down when the learners it    *)
(* has synced (forwarding), with itself, are no quorum (Leading's          *)
(* leaderCheckQuorum); the spec's LeaderLoseQuorum counts every server     *)
(* that follows it, also one whose FOLLOWERINFO is still in flight. The    *)
(* code's rule gives up earlier; giving up is always allowed to a leader   *)
(* (LeaderShutdown), so the spec takes the same shutdown under the code's  *)
(* condition.                                                              *)
LeaderLoseSyncedQuorum(i) ==
    /\ up[i] /\ state[i] = LEADING /\ zabState[i] = BROADCAST
    /\ ~IsQuorum((forwarding[i] \cap FollowersOf(i)) \cup {i})
    /\ LeaderShutdown(i)
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, up, envVars, ghostVars>>

(* D23: the code's leader that has not established its epoch within       *)
(* initLimit gives up (Leading.tick; ZooKeeper's waitForEpochAck and       *)
(* waitForNewLeaderAck time out), also with a quorum of followers, e.g.    *)
(* while its own history is slow to reach its disk. Zab.tla has no clock;  *)
(* giving up is LeaderShutdown, which changes no epoch, log or disk.       *)
LeaderGiveUpEstablishing(i) ==
    /\ up[i] /\ state[i] = LEADING /\ zabState[i] /= BROADCAST
    /\ LeaderShutdown(i)
    /\ UNCHANGED <<acceptedEpoch, currentEpoch, up, envVars, ghostVars>>

(* A peer's ACK through the line's mark: the code's mark counts the       *)
(* receiver's own entries up to the acknowledged zxid, so it is the ACK's   *)
(* length, or the receiver's whole log when it lacks the acknowledged tail. *)
PeerAckMatches(i, j) ==
    \/ Msg(i, j).len = Line.mark
    \/ Msg(i, j).len > Line.mark /\ Line.mark = Len(Line.history)

(* The fast variants' Zab mode (seed 003 2.7): the code's follower takes   *)
(* it from the leader, who proposes classic while a server is missing; the *)
(* spec's follower from a suspicion (FollowerSuspect, which may be wrong).  *)
(* Before a step of i the spec may enter or leave that mode; one suspicion  *)
(* at a time suffices (any k but i and its leader), and only where the mode *)
(* matters, which keeps TLC's search small. Requires Switching (trace.py    *)
(* sets it for every variant).                                              *)
SwitchMode(i) ==
    /\ Variant /= "Zab" /\ state[i] = FOLLOWING
    \* only where the mode matters: before a PROPOSAL step, or a peer's ACK the line counts
    /\ Pending(i, leaderOf[i], PROPOSAL) \/ Line.action = "FollowerProcessACK"
    /\ IF suspects[i] = {}
       THEN FollowerSuspect(i, CHOOSE k \in Server \ {i, leaderOf[i]} : TRUE)
       ELSE \E k \in suspects[i] : FollowerUnsuspect(i, k)

(* The coin (seed 003 2.6): the code's follower sends one cumulative ACK   *)
(* per ACK line, through the last proposal whose coin showed Head; the     *)
(* proposals before it that it does not acknowledge showed Tail. So the    *)
(* spec's PROPOSAL step that a line explains sends its ACK, and the silent *)
(* ones of a fast follower send none (in Zab mode every step acks).        *)
AckSent(i, j) ==
    /\ Len(msgs'[i][j]) > Len(msgs[i][j])
    \* in the mode the line's zab bit says (2.7)
    /\ Line.zab < 2 => ((ZabMode(i) \/ zabState[i] /= BROADCAST) <=> Line.zab = 1)
SilentProposal(i, j) ==
    /\ FollowerProcessPROPOSAL(i, j)
    \* taken early for a COMMIT or a peer's ACK that the code counts once m is on its disk, before its
    \* own ACK line (D3: the fsync and the ACK are two code steps), the step may send the ACK that line
    \* sends (ZabCT seeds 1 and 4-6, 40 ticks: a COMMIT to a Zab-mode acker, D21; a peer's ACK)
    /\ CoinToss /\ ~ZabMode(i) /\ zabState[i] = BROADCAST
       /\ Line.action \notin {"FollowerProcessCOMMIT", "FollowerProcessACK"}
       => ~AckSent(i, j)

\* The spec step(s) that the line of server i with peer j names.
Explain(i, j) ==
    LET a == Line.action IN
    CASE a = "ElectLeader" -> (\E Q \in SUBSET Server : ElectLeader(i, Q)) \/ ElectedEarlier(i)
      \* D7: or the election this follower settled on, before its leader settles
      [] a = "FollowerJoin" -> FollowerJoin(i, j) \/ \E Q \in SUBSET Server : i \in Q /\ ElectLeader(j, Q)
      [] a = "LeaderProcessFOLLOWERINFO" -> LeaderProcessFOLLOWERINFO(i, j)
      [] a = "FollowerProcessLEADERINFO" -> FollowerProcessLEADERINFO(i, j)
      [] a = "LeaderProcessACKEPOCH" -> LeaderProcessACKEPOCH(i, j)
      [] a = "FollowerProcessDIFF" -> FollowerProcessDIFF(i, j)
      [] a = "FollowerProcessTRUNC" -> FollowerProcessTRUNC(i, j)
      \* D12: a SNAP where the spec's leader sends a DIFF (the code's log starts at its snapshot)
      [] a = "FollowerProcessSNAP" -> FollowerProcessSNAP(i, j) \/ FollowerProcessDIFF(i, j)
      [] a = "FollowerProcessNEWLEADER" -> FollowerProcessNEWLEADER(i, j) \/ NewLeaderEarlier(i, j)
      [] a = "LeaderProcessACKLD" -> LeaderProcessACKLD(i, j)
      [] a = "FollowerProcessUPTODATE" -> FollowerProcessUPTODATE(i, j) \/ Deferred(i, j, UPTODATE)
      [] a = "LeaderProcessRequest" -> LeaderProcessRequest(i)
      [] a = "LeaderPersistLog" -> LeaderPersistLog(i)
      \* the step the line explains sends the ACK (Head, in the coin-toss variants)
      [] a = "FollowerProcessPROPOSAL" -> (FollowerProcessPROPOSAL(i, j) /\ AckSent(i, j)) \/ UNCHANGED vars
      \* the zab bit of a fast variant's ACK (seed 003 2.7): Zab mode (1) or fast (0); 2 unobserved
      [] a = "LeaderProcessACK" -> LeaderProcessACK(i, j) /\ Msg(i, j).len = Line.mark
                                   /\ (Line.zab < 2 => Msg(i, j).zab = Line.zab)
      \* a peer's ACK (fast variants); the code's receiver may lack the acknowledged tail (mark is its own index)
      [] a = "FollowerProcessACK" -> FollowerProcessACK(i, j) /\ PeerAckMatches(i, j)
      \* D21: a fast follower re-acknowledges its log up to the mark in Zab mode
      [] a = "FollowerReackZab" -> FollowerReackZabTo(i, Line.mark)
      [] a = "FollowerProcessCOMMIT" -> FollowerProcessCOMMIT(i, j) \/ Deferred(i, j, COMMIT)
      \* a follower that closed its link to the leader; the leader may have dropped it first
      \* (a leader drops a learner the same way: PartitionStart detaches the follower side only)
      [] a = "PartitionStart" -> PartitionStart(i, j) \/ (state[i] = LOOKING /\ UNCHANGED vars)
      \* or a phantom leader (PhantomLeader) gives up
      [] a = "LeaderLoseQuorum" -> LeaderLoseQuorum(i) \/ LeaderLoseSyncedQuorum(i) \/ LeaderGiveUpEstablishing(i)
                                    \/ (state[i] = LOOKING /\ UNCHANGED vars)
      [] a = "NodeCrash" -> NodeCrash(i)
      \* the first start of every server is Init's
      [] a = "NodeStart" -> NodeStart(i) \/ (up[i] /\ UNCHANGED vars)

(* A follower that settled on a leader the spec has not elected yet: its   *)
(* FOLLOWERINFO is sent by the ElectLeader step that includes it (and a    *)
(* later line of it fails if none does); one the spec already counted in   *)
(* ElectLeader's quorum has nothing left to do. D26: a follower may also   *)
(* settle on a server that follows: a vote its sender no longer holds      *)
(* reached it late (a silent partition held it, or ZooKeeper's transport   *)
(* re-sent it on a new link). The code's follower then fails to connect    *)
(* and looks again; the spec's stays LOOKING, and any later step of it as  *)
(* that server's follower still needs the spec's election.                 *)
JoinLater(i, j) ==
    /\ Line.action = "FollowerJoin"
    /\ \/ state[i] = LOOKING /\ state[j] \in {LOOKING, FOLLOWING}
       \/ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ UNCHANGED vars

(* D11: the spec's follower logs and ACKs a PROPOSAL in the step that     *)
(* receives it; the code appends at receipt and ACKs once its disk has it, *)
(* and may take the COMMIT behind it in between, which makes the spec take *)
(* the PROPOSAL step early (D3). A crash then loses, in the code, entries  *)
(* the spec calls durable. Just before a NodeCrash line the spec may drop  *)
(* such a tail, down to the log the server recovered, provided no server   *)
(* counted an ACK of i for the dropped entries: their ACKs are still in i's *)
(* channels, which the crash empties, so nobody can ever count them. An    *)
(* entry i acknowledged to anyone must survive.                            *)
ForgetUnacked(i) ==
    /\ Line.action = "NodeCrash" /\ Line.node = i /\ Line.exact /\ up[i]
    /\ LET n == Len(Line.history)
       IN /\ n < durable[i]
          /\ Zxids(SubSeq(history[i], 1, n)) = Line.history
          /\ \A s \in Server \ {i} : ackIndex[s][i] <= n
          /\ history' = [history EXCEPT ![i] = SubSeq(@, 1, n)]
          /\ durable' = [durable EXCEPT ![i] = n]
          /\ lastCommitted' = [lastCommitted EXCEPT ![i] = Min(@, n)]
          /\ ackIndex' = [ackIndex EXCEPT ![i][i] = Min(@, n)]
    /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, up, leaderOf, snapInMemory, leaderEpoch,
                   infoMaxEpoch, learners, ackepochRecv, forwarding, ackldRecv, suspects,
                   zabAckers, msgs, envVars, ghostVars>>

\* Steps of server i that no line names (see the header).
Silent(i) ==
    \/ ForgetUnacked(i)
    \/ \E j \in Server :
        \/ FollowerProcessCOMMIT(i, j)
        \/ FollowerProcessUPTODATE(i, j)
        \/ SilentProposal(i, j)
        \/ Line.action = "FollowerProcessCOMMIT" /\ FollowerProcessNEWLEADER(i, j)
        \/ Line.action = "LeaderProcessACK" /\ j = Line.peer /\ LeaderProcessACK(i, j)
        \/ Line.action = "FollowerProcessACK" /\ j = Line.peer /\ FollowerProcessACK(i, j)
        \* fast variants: an ACK of another follower that this server's role or epoch left behind
        \/ Variant /= "Zab" /\ msgs[j][i] /= <<>> /\ Msg(i, j).mtype = ACK /\ DiscardStale(i, j)
        \/ Line.action \in {"LeaderPersistLog", "NodeCrash"} /\ j = i /\ LeaderPersistLog(i)
    \/ SwitchMode(i)

(* D13: the spec's crash of a leader, or a broken link, detaches its      *)
(* followers at once; a code follower hears of it a moment later, and may  *)
(* finish first what it received before: a log write and its ACK, or the   *)
(* durable history and currentEpoch of NEWLEADER. The spec takes such a    *)
(* step just before the line that cuts the link (CutSilent); the code's    *)
(* line, once the spec's follower is LOOKING, then changes nothing         *)
(* (Orphan), and its epochs and log must agree with the spec's.            *)
(* D16: the code's election settles per server on the votes it has seen: *)
(* a server may settle as leader while the servers whose votes it counted  *)
(* have since moved on, crashed or settled on another. The spec's oracle   *)
(* election moves a quorum at once, so there is no such step: the spec's   *)
(* server stays LOOKING. It becomes the spec's leader only when a follower *)
(* settles on it (D7's early election, at that FollowerJoin line), else it *)
(* gives up (its LeaderLoseQuorum line changes nothing). Its epochs and log *)
(* must agree, and any step it takes as leader needs the spec's election.  *)
PhantomLeader(i) ==
    /\ Line.action = "ElectLeader" /\ state[i] = LOOKING /\ up[i]
    /\ acceptedEpoch[i] = Line.acceptedEpoch /\ currentEpoch[i] = Line.currentEpoch
    /\ Zxids(history[i]) = Line.history
    /\ UNCHANGED vars

(* D16, continued: a phantom leader counts the FOLLOWERINFOs of servers   *)
(* that settled on it (JoinLater left them LOOKING in the spec) and may     *)
(* lose its links, all before it has a quorum of them. Until then it has    *)
(* stored nothing and sent nothing (Leading proposes an epoch only with a   *)
(* quorum), so the spec takes no step; its epochs and log must agree. With  *)
(* a quorum it proposes an epoch (its acceptedEpoch moves), which only the  *)
(* spec's election explains.                                                *)
PhantomStep(i) ==
    /\ Line.action \in {"LeaderProcessFOLLOWERINFO", "PartitionStart"}
    /\ Line.state = LEADING /\ Line.zabState = DISCOVERY /\ state[i] = LOOKING /\ up[i]
    /\ Line.action = "LeaderProcessFOLLOWERINFO" => state[Line.peer] = LOOKING
    /\ acceptedEpoch[i] = Line.acceptedEpoch /\ currentEpoch[i] = Line.currentEpoch
    /\ Zxids(history[i]) = Line.history
    /\ UNCHANGED vars

CutSilent ==
    /\ Line.action \in {"NodeCrash", "PartitionStart", "LeaderLoseQuorum"}
    /\ \E k \in Server \ {Line.node} :
        /\ state[k] = FOLLOWING /\ leaderOf[k] \in {Line.node, Line.peer}
        /\ \/ FollowerProcessPROPOSAL(k, leaderOf[k])
           \/ FollowerProcessNEWLEADER(k, leaderOf[k])

Orphan(i) ==
    /\ Line.action \in {"FollowerProcessPROPOSAL", "FollowerProcessNEWLEADER"}
    /\ Line.state = FOLLOWING /\ state[i] = LOOKING
    /\ acceptedEpoch[i] = Line.acceptedEpoch /\ currentEpoch[i] = Line.currentEpoch
    /\ IsPrefix(Zxids(history[i]), Line.history)
    /\ UNCHANGED vars

TraceInit == Init /\ t \in 1..Len(TraceLogs) /\ l = 1 /\ \A k \in 1..Len(TraceLogs) : TLCSet(k, 1)

(* D9: the code reconnects a broken link at once, so the spec restores it  *)
(* (PartitionRecover) before the next line. A partition kept longer would  *)
(* only disable ElectLeader and FollowerJoin, so restoring it at once      *)
(* explains every trace a later restore does, and TLC does not search the  *)
(* moments a restore could happen at (2^k states for k open partitions):   *)
(* no other step is taken while a link is down.                            *)
Restore == \E a, b \in Server : PartitionRecover(a, b)

TraceNext ==
    /\ l <= Len(TraceLogs[t])
    /\ UNCHANGED t
    /\ \/ /\ partitioned = {}
          /\ \/ /\ \/ Explain(Line.node, Line.peer) /\ Observed(Line.node)
                   \/ JoinLater(Line.node, Line.peer)
                   \/ Orphan(Line.node)
                   \/ PhantomLeader(Line.node)
                   \/ PhantomStep(Line.node)
                /\ l' = l + 1
             \/ Silent(Line.node) /\ UNCHANGED l
             \/ CutSilent /\ UNCHANGED l
       \/ Restore /\ UNCHANGED l

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* What a rejected trace shows: the spec's state at the furthest line reached.
SpecState == [s \in Server |-> [state |-> state[s], zabState |-> zabState[s],
                 acceptedEpoch |-> acceptedEpoch[s], currentEpoch |-> currentEpoch[s],
                 history |-> Zxids(history[s]), durable |-> durable[s],
                 lastCommitted |-> lastCommitted[s], leaderOf |-> leaderOf[s]]]
\* Channels that hold messages, as <<from, to, length, head>>.
ChannelHeads == {<<a, b, Len(msgs[a][b]), IF msgs[a][b] = <<>> THEN "" ELSE msgs[a][b][1].mtype>> :
                    a, b \in Server} \ {<<a, b, 0, "">> : a, b \in Server}

(* Invariant with a side effect: reports every line of a trace reached for *)
(* the first time (register t holds trace t's furthest line); a trace is   *)
(* accepted when the line after its last is reached. TraceReportLine       *)
(* (spec/trace.py's second run of a rejected trace, alone in its batch)    *)
(* names the line whose spec state is printed.                             *)
Progress ==
    l > TLCGet(t) =>
        /\ TLCSet(t, l)
        /\ PrintT(<<"TRACE-REACHED", t, l>>)
        /\ l = TraceReportLine => PrintT(<<"TRACE-STATE", l, SpecState, ChannelHeads>>)
=============================================================================

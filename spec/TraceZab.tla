------------------------------ MODULE TraceZab ------------------------------
(***************************************************************************)
(* Trace validation of the Java Zab core against Zab.tla. TraceLog (a      *)
(* generated module, spec/trace.py) holds one record per protocol step the *)
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

VARIABLE l          \* the next trace line to explain
traceVars == <<vars, l>>

Line == TraceLog[l]
Zxids(h) == [k \in 1..Len(h) |-> h[k].zxid]

\* The acting server's variables after the step agree with the line.
Observed(i) ==
    /\ state'[i] = Line.state
    /\ acceptedEpoch'[i] = Line.acceptedEpoch
    /\ currentEpoch'[i] = Line.currentEpoch
    /\ Line.state = LEADING => zabState'[i] = Line.zabState
    /\ IF Line.exact THEN Zxids(history'[i]) = Line.history
                     ELSE IsPrefix(Zxids(history'[i]), Line.history)
    /\ Line.durableCheck = "exact" => durable'[i] = Line.durable
    \* an ACK through the mark: the spec logged it in that step, so the code's disk must hold it
    /\ Line.durableCheck = "ack" => Line.durable >= Line.mark /\ durable'[i] >= Line.mark
    /\ Len(history'[i]) >= Line.minLen
    /\ lastCommitted'[i] >= Line.delivered

\* A COMMIT or UPTODATE the code took while the spec still has a PROPOSAL ahead of it.
Deferred(i, j, type) == ~Pending(i, j, type) /\ UNCHANGED vars

\* The spec step(s) that the line of server i with peer j names.
Explain(i, j) ==
    LET a == Line.action IN
    CASE a = "ElectLeader" -> \E Q \in SUBSET Server : ElectLeader(i, Q)
      [] a = "FollowerJoin" -> FollowerJoin(i, j)
      [] a = "LeaderProcessFOLLOWERINFO" -> LeaderProcessFOLLOWERINFO(i, j)
      [] a = "FollowerProcessLEADERINFO" -> FollowerProcessLEADERINFO(i, j)
      [] a = "LeaderProcessACKEPOCH" -> LeaderProcessACKEPOCH(i, j)
      [] a = "FollowerProcessDIFF" -> FollowerProcessDIFF(i, j)
      [] a = "FollowerProcessTRUNC" -> FollowerProcessTRUNC(i, j)
      [] a = "FollowerProcessSNAP" -> FollowerProcessSNAP(i, j)
      [] a = "FollowerProcessNEWLEADER" -> FollowerProcessNEWLEADER(i, j)
      [] a = "LeaderProcessACKLD" -> LeaderProcessACKLD(i, j)
      [] a = "FollowerProcessUPTODATE" -> FollowerProcessUPTODATE(i, j) \/ Deferred(i, j, UPTODATE)
      [] a = "LeaderProcessRequest" -> LeaderProcessRequest(i)
      [] a = "LeaderPersistLog" -> LeaderPersistLog(i)
      [] a = "FollowerProcessPROPOSAL" -> FollowerProcessPROPOSAL(i, j) \/ UNCHANGED vars
      [] a = "LeaderProcessACK" -> LeaderProcessACK(i, j) /\ Msg(i, j).len = Line.mark
      [] a = "FollowerProcessCOMMIT" -> FollowerProcessCOMMIT(i, j) \/ Deferred(i, j, COMMIT)
      \* a follower that closed its link to the leader; the leader may have dropped it first
      \* (a leader drops a learner the same way: PartitionStart detaches the follower side only)
      [] a = "PartitionStart" -> PartitionStart(i, j) \/ (state[i] = LOOKING /\ UNCHANGED vars)
      [] a = "LeaderLoseQuorum" -> LeaderLoseQuorum(i)

(* A follower that settled on a leader the spec has not elected yet: its   *)
(* FOLLOWERINFO is sent by the ElectLeader step that includes it (and a    *)
(* later line of it fails if none does); one the spec already counted in   *)
(* ElectLeader's quorum has nothing left to do.                            *)
JoinLater(i, j) ==
    /\ Line.action = "FollowerJoin"
    /\ \/ state[i] = LOOKING /\ state[j] = LOOKING
       \/ state[i] = FOLLOWING /\ leaderOf[i] = j
    /\ UNCHANGED vars

\* Steps of server i that no line names (see the header).
Silent(i) ==
    \E j \in Server :
        \/ FollowerProcessCOMMIT(i, j)
        \/ FollowerProcessUPTODATE(i, j)
        \/ FollowerProcessPROPOSAL(i, j)
        \/ Line.action = "LeaderProcessACK" /\ j = Line.peer /\ LeaderProcessACK(i, j)
        \/ Line.action = "LeaderPersistLog" /\ j = i /\ LeaderPersistLog(i)
        \* a broken link (PartitionStart line) is restored: the code reconnects at once
        \/ PartitionRecover(i, j)

TraceInit == Init /\ l = 1 /\ TLCSet(1, 1)

TraceNext ==
    /\ l <= Len(TraceLog)
    /\ \/ /\ \/ Explain(Line.node, Line.peer) /\ Observed(Line.node)
             \/ JoinLater(Line.node, Line.peer)
          /\ l' = l + 1
       \/ Silent(Line.node) /\ UNCHANGED l

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* What a rejected trace shows: the spec's state at the furthest line reached.
SpecState == [s \in Server |-> [state |-> state[s], zabState |-> zabState[s],
                 acceptedEpoch |-> acceptedEpoch[s], currentEpoch |-> currentEpoch[s],
                 history |-> Zxids(history[s]), durable |-> durable[s],
                 lastCommitted |-> lastCommitted[s], leaderOf |-> leaderOf[s]]]
\* Channels that hold messages, as <<from, to, length, head>>.
ChannelHeads == {<<a, b, Len(msgs[a][b]), IF msgs[a][b] = <<>> THEN "" ELSE msgs[a][b][1].mtype>> :
                    a, b \in Server} \ {<<a, b, 0, "">> : a, b \in Server}

(* Invariant with a side effect: reports every line reached for the first  *)
(* time; the trace is accepted when the line after the last is reached.    *)
(* TraceReportLine (spec/trace.py's second run of a rejected trace) names  *)
(* the line whose spec state is printed.                                   *)
Progress ==
    l > TLCGet(1) =>
        /\ TLCSet(1, l)
        /\ PrintT(<<"TRACE-REACHED", l>>)
        /\ l = TraceReportLine => PrintT(<<"TRACE-STATE", l, SpecState, ChannelHeads>>)
=============================================================================

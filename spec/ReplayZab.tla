------------------------------ MODULE ReplayZab ------------------------------
(***************************************************************************)
(* Behaviours of Zab.tla for model-based replay (issue 11 item 4; Remix,   *)
(* EuroSys'25): TLC's simulation mode (-simulate file=...) writes random   *)
(* behaviours of ReplaySpec, and sim's io.zabkit.sim.replay drives the     *)
(* Java Zab cores through the same steps, comparing the abstract state     *)
(* after each one (spec/README.md, "Model-based replay").                  *)
(*                                                                         *)
(* TLC 2.18's trace files hold states only, no action names: the variable  *)
(* act records the step that led to each state (its action and            *)
(* arguments, in the order Zab.tla declares them). Every step of          *)
(* ReplayNext is a step of Zab.tla's Next; two restrictions keep the       *)
(* behaviours to those the code's runtime can take (spec/README.md, R1-R3),  *)
(* and none adds a step Zab.tla lacks.                                     *)
(***************************************************************************)
EXTENDS Zab

CONSTANT FaultsMidProtocol  \* TRUE: crashes and partitions only while some server follows or leads

VARIABLE act        \* [name, args]: the step that led to this state
replayVars == <<vars, act>>

Did(name, args) == act' = [name |-> name, args |-> args]

(* R1: the code's leader steps down in the very step that leaves it        *)
(* without a quorum in broadcast (Leading.leaderCheckQuorum); the spec's   *)
(* LeaderLoseQuorum is a later step, which ReplayNext takes at once.       *)
MustStepDown(i) ==
    /\ up[i] /\ state[i] = LEADING /\ zabState[i] = BROADCAST
    /\ ~IsQuorum(FollowersOf(i) \cup {i})

(* R3: the code's leader counts a late learner's ACKLD toward commit (D15): *)
(* of LeaderProcessACKLD's two choices in broadcast the replay takes the   *)
(* one that commits whenever it commits anything.                          *)
CountsLateAckld(i, j) ==
    LET ai == [ackIndex[i] EXCEPT ![j] = Max(@, Msg(i, j).len)]
    IN (zabState[i] = BROADCAST /\ LeaderCommitIndex(i, ai) > lastCommitted[i])
           => lastCommitted'[i] > lastCommitted[i]

(* Generator policy, not a mapping: TLC's simulation picks a successor    *)
(* state uniformly, so with many fault successors at hand the faults of a  *)
(* behaviour all come before or right after the first election. With      *)
(* FaultsMidProtocol they come while some server follows or leads, and     *)
(* they are paced by progress (one more per epoch established and per      *)
(* transaction proposed): in discovery, synchronization and broadcast,    *)
(* where the bugs of ZooKeeper's tracker live.                             *)
FaultAllowed ==
    FaultsMidProtocol =>
        /\ \E i \in Server : up[i] /\ state[i] /= LOOKING
        /\ crashes + partitions < 1 + Cardinality(leaders) + Cardinality(proposed)

ProtocolStep ==
    \/ \E i \in Server, Q \in SUBSET Server : ElectLeader(i, Q) /\ Did("ElectLeader", <<i, Q>>)
    \/ \E i, j \in Server : FollowerJoin(j, i) /\ Did("FollowerJoin", <<j, i>>)
    \/ \E i, j \in Server : LeaderProcessFOLLOWERINFO(i, j) /\ Did("LeaderProcessFOLLOWERINFO", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessLEADERINFO(i, j) /\ Did("FollowerProcessLEADERINFO", <<i, j>>)
    \/ \E i, j \in Server : LeaderProcessACKEPOCH(i, j) /\ Did("LeaderProcessACKEPOCH", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessDIFF(i, j) /\ Did("FollowerProcessDIFF", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessTRUNC(i, j) /\ Did("FollowerProcessTRUNC", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessSNAP(i, j) /\ Did("FollowerProcessSNAP", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessNEWLEADER(i, j) /\ Did("FollowerProcessNEWLEADER", <<i, j>>)
    \/ \E i, j \in Server : LeaderProcessACKLD(i, j) /\ CountsLateAckld(i, j) /\ Did("LeaderProcessACKLD", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessUPTODATE(i, j) /\ Did("FollowerProcessUPTODATE", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessPROPOSAL(i, j) /\ Did("FollowerProcessPROPOSAL", <<i, j>>)
    \/ \E i, j \in Server : LeaderProcessACK(i, j) /\ Did("LeaderProcessACK", <<i, j>>)
    \/ \E i, j \in Server : FollowerProcessCOMMIT(i, j) /\ Did("FollowerProcessCOMMIT", <<i, j>>)
    \/ \E i, j \in Server : DiscardStale(i, j) /\ Did("DiscardStale", <<i, j>>)
    \/ \E i \in Server : LeaderPersistLog(i) /\ Did("LeaderPersistLog", <<i>>)
    \/ \E i \in Server : LeaderLoseQuorum(i) /\ Did("LeaderLoseQuorum", <<i>>)
    \/ \E i \in Server : FaultAllowed /\ NodeCrash(i) /\ Did("NodeCrash", <<i>>)
    \/ \E i \in Server : NodeStart(i) /\ Did("NodeStart", <<i>>)
    \/ \E i, j \in Server : FaultAllowed /\ PartitionStart(i, j) /\ Did("PartitionStart", <<i, j>>)
    \/ \E i, j \in Server : PartitionRecover(i, j) /\ Did("PartitionRecover", <<i, j>>)
    \/ \E i \in Server : LeaderProcessRequest(i) /\ Did("LeaderProcessRequest", <<i>>)

(* R2 (on every state): the code's leader in broadcast counts only its *)
(* synced followers toward its quorum (Leading.leaderCheckQuorum), the     *)
(* spec's every follower (FollowersOf, in LeaderLoseQuorum); behaviours    *)
(* where the two differ are not generated.                                 *)
SyncedQuorumAgrees ==
    \A i \in Server :
        (up[i] /\ state[i] = LEADING /\ zabState[i] = BROADCAST)
            => (IsQuorum(FollowersOf(i) \cup {i}) = IsQuorum((forwarding[i] \cap FollowersOf(i)) \cup {i}))

ReplayNext ==
    /\ IF \E i \in Server : MustStepDown(i)
       THEN \E i \in Server : MustStepDown(i) /\ LeaderLoseQuorum(i) /\ Did("LeaderLoseQuorum", <<i>>)
       ELSE ProtocolStep
    /\ SyncedQuorumAgrees'

ReplayInit == Init /\ act = [name |-> "Init", args |-> <<>>]

ReplaySpec == ReplayInit /\ [][ReplayNext]_replayVars

=============================================================================

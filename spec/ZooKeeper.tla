----------------------------- MODULE ZooKeeper -----------------------------
(***************************************************************************)
(* The service a ZooKeeper client sees, built on Zab.tla: the transactions *)
(* Zab orders are client requests, every server applies its committed      *)
(* prefix to its own data tree, and sessions connected to servers read     *)
(* locally, write through the leader, sync, set watches and expire.        *)
(*                                                                         *)
(* A data tree is the sequence of transactions applied to it (applied[i]); *)
(* TreeOf computes the znodes from it. Client-level properties are checked *)
(* on the responses in flight to each session and on the session's view.   *)
(***************************************************************************)
EXTENDS Zab

CONSTANTS
    Session,        \* client sessions (model values)
    Path,           \* znode paths the clients use (strings)
    MaxOps,         \* bound: client requests (writes, syncs, reads) in a run
    MaxDisconnects, \* bound: client connection losses in a run
    RequestKinds,   \* request kinds a model uses: "create", "createEphemeral", "createSequential", "delete", "setData", "sync"
    Bug2845,        \* ZOOKEEPER-2845: a server keeps its data tree across an election
    Bug1675         \* ZOOKEEPER-1675: the leader answers sync without a quorum round

ASSUME Bug2845 \in BOOLEAN /\ Bug1675 \in BOOLEAN

\* Server-side service variables.
VARIABLES
    applied,        \* applied[i]: transactions applied to i's data tree, in order
    lastProcessed,  \* history index of the last transaction i applied
    watches         \* watches[i]: [sess, path] watches registered at server i

\* Session variables (client side and its connection).
VARIABLES
    sessServer,     \* server the session is connected to, or NoServer
    outstanding,    \* writes and syncs sent and not yet answered, in cxid order
    forwarded,      \* how many of outstanding reached the leader on this connection
    inbox,          \* FIFO of responses and watch events from the server to the client
    lastZxidSeen,   \* highest zxid the client has seen in a response
    clientWatches,  \* [path, zxid] watches the client believes are set
    syncFloor,      \* writes completed before the client's last answered sync
    nextCxid        \* next client request number of each session

\* Spec-only history variables.
VARIABLES
    completed,      \* write transactions whose response a client received
    ops,            \* client requests issued so far (bounded by MaxOps)
    disconnects     \* client connection losses so far

zkServerVars == <<applied, lastProcessed, watches>>
sessionVars == <<sessServer, outstanding, forwarded, inbox, lastZxidSeen, clientWatches,
                 syncFloor, nextCxid>>
zkGhostVars == <<completed, ops, disconnects>>
zkVars == <<zkServerVars, sessionVars, zkGhostVars>>
allVars == <<vars, zkVars>>

NoOwner == "none"
WriteOps == {"create", "delete", "setData"}

----------------------------------------------------------------------------
(* The data tree: a set of znodes [name, owner, mzxid]. A name is          *)
(* <<path, n>>, n > 0 for a sequential node. Applying a transaction never  *)
(* fails the replica: errors (NODEEXISTS, NONODE) leave the tree as is.    *)
ApplyTxn(T, t) ==
    LET v == t.value
        exists == \E n \in T : n.name = v.name
    IN CASE v.op = "create" ->
              IF exists THEN T
              ELSE T \cup {[name |-> v.name, owner |-> IF v.eph THEN v.sess ELSE NoOwner,
                            mzxid |-> t.zxid]}
         [] v.op = "delete" -> {n \in T : n.name /= v.name}
         [] v.op = "setData" ->
              {IF n.name = v.name THEN [n EXCEPT !.mzxid = t.zxid] ELSE n : n \in T}
         [] v.op = "closeSession" -> {n \in T : n.owner /= v.sess}
         [] OTHER -> T

RECURSIVE TreeOf(_)
TreeOf(s) == IF s = <<>> THEN {} ELSE ApplyTxn(TreeOf(SubSeq(s, 1, Len(s) - 1)), s[Len(s)])

\* Does transaction t change znode path p (the watch trigger)?
\* (A closeSession that removes ephemerals is not a watch trigger in this model.)
Changes(t, p) == t.value.op \in WriteOps /\ t.value.name[1] = p

RECURSIVE SetToSeq(_)
SetToSeq(S) == IF S = {} THEN <<>>
               ELSE LET x == CHOOSE y \in S : TRUE IN <<x>> \o SetToSeq(S \ {x})

LastApplied(i) == LastZxid(applied[i])
ZxidMax(a, b) == IF ZxidLT(a, b) THEN b ELSE a
Serving(i) == up[i] /\ state[i] \in {FOLLOWING, LEADING} /\ zabState[i] = BROADCAST
LeaderFor(i) == IF state[i] = LEADING THEN i ELSE leaderOf[i]
SessionClosedIn(s, h) == \E k \in 1..Len(h) : h[k].value.op = "closeSession" /\ h[k].value.sess = s
\* Highest zxid a session has been sent: what it saw plus the responses in flight.
SentZxid(s) == LET zs == {inbox[s][k].zxid : k \in 1..Len(inbox[s])} \cup {lastZxidSeen[s]}
               IN CHOOSE z \in zs : \A y \in zs : ~ZxidLT(z, y)

----------------------------------------------------------------------------
ZkInit ==
    /\ Init
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

----------------------------------------------------------------------------
(* What a Zab step does to the data trees and connections. Every  *)
(* server applies what it delivered in the same step (lastProcessed then   *)
(* equals lastCommitted) and fires the watches the new transactions        *)
(* trigger, before any later response. A server that starts synchronizing  *)
(* reloads its tree from the synced log's committed prefix; under Bug2845  *)
(* it keeps its old tree and takes its whole old log as processed. A       *)
(* crashed server loses its tree; a server that stops serving drops its    *)
(* client connections and watches.                                         *)
Resyncs(i) == zabState'[i] = SYNCHRONIZATION /\ zabState[i] /= SYNCHRONIZATION
Lost(i) == ~up'[i]
ServingAfter(i) == up'[i] /\ state'[i] \in {FOLLOWING, LEADING} /\ zabState'[i] = BROADCAST
StopsServing(i) == Lost(i) \/ (Serving(i) /\ ~ServingAfter(i))
Cut(s) == \E j \in Server : sessServer[s] = j /\ StopsServing(j)

\* The tree and processed index of server i after a Zab step, before applying new commits.
BaseTree(i, resync, lost) ==
    IF i \in lost THEN <<>>
    ELSE IF i \in resync /\ ~Bug2845 THEN SubSeq(history'[i], 1, lastCommitted'[i])
    ELSE applied[i]
BaseProcessed(i, resync, lost) ==
    IF i \in lost THEN 0
    ELSE IF i \in resync
    THEN IF Bug2845 THEN Min(Len(history[i]), Len(history'[i])) ELSE lastCommitted'[i]
    ELSE Min(lastProcessed[i], Len(history'[i]))
\* Newly committed transactions server i applies in this step.
NewlyApplied(i, resync, lost) ==
    LET lp == BaseProcessed(i, resync, lost)
    IN IF lp < lastCommitted'[i] THEN SubSeq(history'[i], lp + 1, lastCommitted'[i]) ELSE <<>>
Fired(i, resync, lost) ==
    {w \in watches[i] : \E k \in 1..Len(NewlyApplied(i, resync, lost)) :
                          Changes(NewlyApplied(i, resync, lost)[k], w.path)}

ServiceFollows ==
    /\ \E cut \in {{s \in Session : Cut(s)}}, stop \in {{i \in Server : StopsServing(i)}},
          lost \in {{i \in Server : Lost(i)}}, resync \in {{i \in Server : Resyncs(i)}} :
        /\ applied' = [i \in Server |->
              BaseTree(i, resync, lost) \o NewlyApplied(i, resync, lost)]
        /\ lastProcessed' = [i \in Server |->
              Max(BaseProcessed(i, resync, lost), lastCommitted'[i])]
        /\ watches' = [i \in Server |->
              IF i \in stop THEN {} ELSE watches[i] \ Fired(i, resync, lost)]
        /\ sessServer' = [s \in Session |-> IF s \in cut THEN NoServer ELSE sessServer[s]]
        /\ outstanding' = [s \in Session |-> IF s \in cut THEN <<>> ELSE outstanding[s]]
        /\ forwarded' = [s \in Session |-> IF s \in cut THEN 0 ELSE forwarded[s]]
        /\ inbox' = [s \in Session |->
              IF s \in cut THEN <<>>
              ELSE IF sessServer[s] = NoServer THEN inbox[s]
              ELSE LET i == sessServer[s]
                       paths == {w.path : w \in {x \in Fired(i, resync, lost) : x.sess = s}}
                   IN inbox[s] \o [k \in 1..Cardinality(paths) |->
                          [type |-> "event", path |-> SetToSeq(paths)[k],
                           zxid |-> LastZxid(NewlyApplied(i, resync, lost))]]]
    /\ UNCHANGED <<lastZxidSeen, clientWatches, syncFloor, nextCxid, zkGhostVars>>

----------------------------------------------------------------------------
(* Sessions.                                                               *)

(* Session s connects to server j, which refuses a client that has seen a  *)
(* newer zxid than it has applied. The client re-sends its watches with    *)
(* its last zxid (SetWatches): a watched path changed since then fires at  *)
(* once, the others are registered at j.                                   *)
ClientConnect(s, j) ==
    /\ sessServer[s] = NoServer
    /\ Serving(j)
    /\ ~ZxidLT(LastApplied(j), lastZxidSeen[s])
    /\ ~SessionClosedIn(s, applied[j])
    /\ LET changed(w) == \E k \in 1..Len(applied[j]) :
                           Changes(applied[j][k], w.path)
                           /\ ZxidLT(lastZxidSeen[s], applied[j][k].zxid)
           fire == {w \in clientWatches[s] : changed(w)}
       IN /\ watches' = [watches EXCEPT ![j] =
                            @ \cup {[sess |-> s, path |-> w.path] : w \in clientWatches[s] \ fire}]
          /\ inbox' = [inbox EXCEPT ![s] =
                 [k \in 1..Cardinality({w.path : w \in fire}) |->
                    [type |-> "event", path |-> SetToSeq({w.path : w \in fire})[k],
                     zxid |-> LastApplied(j)]]]
    /\ sessServer' = [sessServer EXCEPT ![s] = j]
    /\ UNCHANGED <<vars, applied, lastProcessed, outstanding, forwarded, lastZxidSeen,
                   clientWatches, syncFloor, nextCxid, zkGhostVars>>

\* The connection of session s breaks: responses in flight and pending requests are lost.
ClientDisconnect(s) ==
    /\ sessServer[s] /= NoServer
    /\ disconnects < MaxDisconnects
    /\ watches' = [i \in Server |-> {w \in watches[i] : w.sess /= s}]
    /\ sessServer' = [sessServer EXCEPT ![s] = NoServer]
    /\ outstanding' = [outstanding EXCEPT ![s] = <<>>]
    /\ forwarded' = [forwarded EXCEPT ![s] = 0]
    /\ inbox' = [inbox EXCEPT ![s] = <<>>]
    /\ disconnects' = disconnects + 1
    /\ UNCHANGED <<vars, applied, lastProcessed, lastZxidSeen, clientWatches, syncFloor,
                   nextCxid, completed, ops>>

\* Session s sends a write or a sync. A write records the last write completed before it (floor).
ClientWrite(s, req) ==
    /\ sessServer[s] /= NoServer
    /\ ops < MaxOps
    /\ Len(outstanding[s]) < 2
    /\ LET floor == IF completed = {} THEN <<0, 0>>
                    ELSE (CHOOSE c \in completed : \A d \in completed : ~ZxidLT(c.zxid, d.zxid)).zxid
       IN outstanding' = [outstanding EXCEPT ![s] =
                Append(@, [req EXCEPT !.cxid = nextCxid[s],
                                      !.floor = IF req.op = "sync" THEN <<0, 0>> ELSE floor,
                                      !.syncFloor = IF req.op = "sync" THEN completed ELSE {}])]
    /\ nextCxid' = [nextCxid EXCEPT ![s] = @ + 1]
    /\ ops' = ops + 1
    /\ UNCHANGED <<vars, zkServerVars, sessServer, forwarded, inbox, lastZxidSeen,
                   clientWatches, syncFloor, completed, disconnects>>

\* The requests a session may send; RequestKinds restricts a model to some of them.
Requests ==
    {r \in {[op |-> "create", path |-> p, eph |-> e, seq |-> q, cxid |-> 0, floor |-> <<0, 0>>,
            syncFloor |-> {}] : p \in Path, e \in BOOLEAN, q \in BOOLEAN}
          \cup {[op |-> o, path |-> p, eph |-> FALSE, seq |-> FALSE, cxid |-> 0,
                 floor |-> <<0, 0>>, syncFloor |-> {}] : o \in {"delete", "setData", "sync"},
                                                        p \in Path} :
        \/ r.op \in RequestKinds
        \/ r.op = "create" /\ r.eph /\ "createEphemeral" \in RequestKinds
        \/ r.op = "create" /\ r.seq /\ "createSequential" \in RequestKinds}

(* The leader l receives the next request of session s through the        *)
(* session's server, checks it (PrepRequestProcessor) and proposes it: a  *)
(* sequential create gets the next number of its path in l's log; a       *)
(* closed session's request is dropped. Under Bug1675 a sync is not        *)
(* proposed (see ServerReplySync).                                         *)
LeaderProcessClientRequest(s) ==
    LET j == sessServer[s]
        l == LeaderFor(j)
        req == outstanding[s][forwarded[s] + 1]
        seqNo == 1 + Cardinality({k \in 1..Len(history[l]) :
                                     /\ history[l][k].value.op = "create"
                                     /\ history[l][k].value.name[1] = req.path
                                     /\ history[l][k].value.name[2] > 0})
        v == [op |-> req.op, sess |-> s, cxid |-> req.cxid, eph |-> req.eph,
              name |-> <<req.path, IF req.seq THEN seqNo ELSE 0>>, floor |-> req.floor]
    IN /\ j /= NoServer /\ Serving(j)
       /\ forwarded[s] < Len(outstanding[s])
       /\ l \in Server /\ Serving(l)
       /\ {j, l} \notin partitioned
       /\ ~(Bug1675 /\ req.op = "sync")
       /\ ~SessionClosedIn(s, history[l])
       /\ LeaderPropose(l, v)
       /\ forwarded' = [forwarded EXCEPT ![s] = @ + 1]
       /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                      leaderOf, leaderVars, envVars, leaders, committedLog, zkServerVars,
                      sessServer, outstanding, inbox, lastZxidSeen, clientWatches, syncFloor,
                      nextCxid, zkGhostVars>>

\* Server j answers the oldest request of session s once it has applied its transaction.
ServerReply(s) ==
    LET j == sessServer[s]
        req == outstanding[s][1]
        isReq(t) == t.value.sess = s /\ t.value.cxid = req.cxid /\ t.value.op = req.op
    IN /\ j /= NoServer /\ Serving(j)
       /\ outstanding[s] /= <<>> /\ forwarded[s] >= 1
       /\ \E k \in 1..Len(applied[j]) :
            /\ isReq(applied[j][k])
            /\ inbox' = [inbox EXCEPT ![s] = Append(@,
                   [type |-> req.op, cxid |-> req.cxid, zxid |-> applied[j][k].zxid,
                    txn |-> applied[j][k], syncFloor |-> req.syncFloor])]
       /\ outstanding' = [outstanding EXCEPT ![s] = Tail(@)]
       /\ forwarded' = [forwarded EXCEPT ![s] = @ - 1]
       /\ UNCHANGED <<vars, zkServerVars, sessServer, lastZxidSeen, clientWatches,
                      syncFloor, nextCxid, zkGhostVars>>

(* Bug1675: the sync goes to j's leader l, which answers at once when it  *)
(* has nothing outstanding; j answers once it applied l's committed log.  *)
(* No quorum confirms that l is still the leader.                          *)
ServerReplySync(s) ==
    LET j == sessServer[s]
        l == LeaderFor(j)
        req == outstanding[s][1]
    IN /\ Bug1675
       /\ j /= NoServer /\ Serving(j)
       /\ outstanding[s] /= <<>> /\ req.op = "sync" /\ forwarded[s] = 0
       /\ l \in Server /\ Serving(l) /\ {j, l} \notin partitioned
       /\ lastCommitted[l] = Len(history[l])
       /\ lastProcessed[j] >= lastCommitted[l]
       /\ inbox' = [inbox EXCEPT ![s] = Append(@,
              [type |-> "sync", cxid |-> req.cxid, zxid |-> LastApplied(j),
               txn |-> [zxid |-> LastApplied(j), value |-> "sync"], syncFloor |-> req.syncFloor])]
       /\ outstanding' = [outstanding EXCEPT ![s] = Tail(@)]
       /\ UNCHANGED <<vars, zkServerVars, sessServer, forwarded, lastZxidSeen, clientWatches,
                      syncFloor, nextCxid, zkGhostVars>>

(* Session s reads path p at its server (getData/exists), optionally      *)
(* setting a watch. Reads wait for the session's earlier writes (FIFO) and *)
(* are answered from the local tree, tagged with the server's last zxid.   *)
ClientRead(s, p, watch) ==
    LET j == sessServer[s]
    IN /\ j /= NoServer /\ Serving(j)
       /\ ops < MaxOps
       /\ outstanding[s] = <<>>
       /\ inbox' = [inbox EXCEPT ![s] = Append(@,
              [type |-> "read", path |-> p, watch |-> watch, zxid |-> LastApplied(j),
               seen |-> SentZxid(s), missed |-> syncFloor[s] \ Range(applied[j])])]
       /\ watches' = IF watch THEN [watches EXCEPT ![j] = @ \cup {[sess |-> s, path |-> p]}]
                     ELSE watches
       /\ ops' = ops + 1
       /\ UNCHANGED <<vars, applied, lastProcessed, sessServer, outstanding, forwarded,
                      lastZxidSeen, clientWatches, syncFloor, nextCxid, completed, disconnects>>

\* Session s takes the next response or watch event from its connection.
ClientReceive(s) ==
    /\ inbox[s] /= <<>>
    /\ LET m == inbox[s][1]
       IN /\ lastZxidSeen' = [lastZxidSeen EXCEPT ![s] =
                 IF m.type = "event" THEN @ ELSE ZxidMax(@, m.zxid)]
          /\ clientWatches' = [clientWatches EXCEPT ![s] =
                 IF m.type = "event" THEN {w \in @ : w.path /= m.path}
                 ELSE IF m.type = "read" /\ m.watch
                 THEN {w \in @ : w.path /= m.path} \cup {[path |-> m.path, zxid |-> m.zxid]}
                 ELSE @]
          /\ syncFloor' = [syncFloor EXCEPT ![s] = IF m.type = "sync" THEN m.syncFloor ELSE @]
          /\ completed' = IF m.type \in WriteOps THEN completed \cup {m.txn} ELSE completed
    /\ inbox' = [inbox EXCEPT ![s] = Tail(@)]
    /\ UNCHANGED <<vars, zkServerVars, sessServer, outstanding, forwarded, nextCxid,
                   ops, disconnects>>

(* The leader expires a session that lost its connection: closeSession is *)
(* a transaction, and applying it removes the session's ephemerals.        *)
SessionExpire(s) ==
    \E l \in Server :
        /\ sessServer[s] = NoServer
        /\ Serving(l) /\ state[l] = LEADING
        /\ ~SessionClosedIn(s, history[l])
        /\ ops < MaxOps
        /\ LeaderPropose(l, [op |-> "closeSession", sess |-> s, cxid |-> 0, eph |-> FALSE,
                             name |-> <<"", 0>>, floor |-> <<0, 0>>])
        /\ ops' = ops + 1
        /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                       leaderOf, leaderVars, envVars, leaders, committedLog, zkServerVars,
                       sessionVars, completed, disconnects>>

(* Each Zab action, with the service following it; one name per action so
   that counterexample traces say which protocol step happened. *)
ZkElectLeader == \E i \in Server, Q \in SUBSET Server : ElectLeader(i, Q) /\ ServiceFollows
ZkFollowerJoin == \E i, j \in Server : FollowerJoin(j, i) /\ ServiceFollows
ZkLeaderProcessFOLLOWERINFO == \E i, j \in Server : LeaderProcessFOLLOWERINFO(i, j) /\ ServiceFollows
ZkFollowerProcessLEADERINFO == \E i, j \in Server : FollowerProcessLEADERINFO(i, j) /\ ServiceFollows
ZkLeaderProcessACKEPOCH == \E i, j \in Server : LeaderProcessACKEPOCH(i, j) /\ ServiceFollows
ZkFollowerProcessDIFF == \E i, j \in Server : FollowerProcessDIFF(i, j) /\ ServiceFollows
ZkFollowerProcessTRUNC == \E i, j \in Server : FollowerProcessTRUNC(i, j) /\ ServiceFollows
ZkFollowerProcessSNAP == \E i, j \in Server : FollowerProcessSNAP(i, j) /\ ServiceFollows
ZkFollowerProcessNEWLEADER == \E i, j \in Server : FollowerProcessNEWLEADER(i, j) /\ ServiceFollows
ZkLeaderProcessACKLD == \E i, j \in Server : LeaderProcessACKLD(i, j) /\ ServiceFollows
ZkFollowerProcessUPTODATE == \E i, j \in Server : FollowerProcessUPTODATE(i, j) /\ ServiceFollows
ZkFollowerProcessPROPOSAL == \E i, j \in Server : FollowerProcessPROPOSAL(i, j) /\ ServiceFollows
ZkLeaderProcessACK == \E i, j \in Server : LeaderProcessACK(i, j) /\ ServiceFollows
ZkFollowerProcessACK == \E i, j \in Server : FollowerProcessACK(i, j) /\ ServiceFollows
ZkFollowerProcessCOMMIT == \E i, j \in Server : FollowerProcessCOMMIT(i, j) /\ ServiceFollows
ZkDiscardStale == \E i, j \in Server : DiscardStale(i, j) /\ ServiceFollows
ZkLeaderPersistLog == \E i \in Server : LeaderPersistLog(i) /\ ServiceFollows
ZkFollowerPersistLog == \E i \in Server : FollowerPersistLog(i) /\ ServiceFollows
ZkLeaderLoseQuorum == \E i \in Server : LeaderLoseQuorum(i) /\ ServiceFollows
ZkNodeCrash == \E i \in Server : NodeCrash(i) /\ ServiceFollows
ZkNodeStart == \E i \in Server : NodeStart(i) /\ ServiceFollows
ZkPartitionStart == \E i, j \in Server : PartitionStart(i, j) /\ ServiceFollows
ZkPartitionRecover == \E i, j \in Server : PartitionRecover(i, j) /\ ServiceFollows

ZkNext ==
    \/ ZkElectLeader
    \/ ZkFollowerJoin
    \/ ZkLeaderProcessFOLLOWERINFO
    \/ ZkFollowerProcessLEADERINFO
    \/ ZkLeaderProcessACKEPOCH
    \/ ZkFollowerProcessDIFF
    \/ ZkFollowerProcessTRUNC
    \/ ZkFollowerProcessSNAP
    \/ ZkFollowerProcessNEWLEADER
    \/ ZkLeaderProcessACKLD
    \/ ZkFollowerProcessUPTODATE
    \/ ZkFollowerProcessPROPOSAL
    \/ ZkLeaderProcessACK
    \/ ZkFollowerProcessACK
    \/ ZkFollowerProcessCOMMIT
    \/ ZkDiscardStale
    \/ ZkLeaderPersistLog
    \/ ZkFollowerPersistLog
    \/ ZkLeaderLoseQuorum
    \/ ZkNodeCrash
    \/ ZkNodeStart
    \/ ZkPartitionStart
    \/ ZkPartitionRecover
    \/ \E s \in Session, j \in Server : ClientConnect(s, j)
    \/ \E s \in Session : ClientDisconnect(s)
    \/ \E s \in Session, r \in Requests : ClientWrite(s, r)
    \/ \E s \in Session : LeaderProcessClientRequest(s)
    \/ \E s \in Session : ServerReply(s)
    \/ \E s \in Session : ServerReplySync(s)
    \/ \E s \in Session, p \in Path, w \in BOOLEAN : ClientRead(s, p, w)
    \/ \E s \in Session : ClientReceive(s)
    \/ \E s \in Session : SessionExpire(s)

ZkSpec == ZkInit /\ [][ZkNext]_allVars

----------------------------------------------------------------------------
(* Client-level properties.                                                *)

\* Type invariant of the service variables (with Zab's TypeOK).
ZkTypeOK ==
    /\ TypeOK
    /\ \A i \in Server : lastProcessed[i] \in 0..Len(history[i])
    /\ sessServer \in [Session -> Server \cup {NoServer}]
    /\ \A s \in Session : Len(outstanding[s]) <= 2 /\ forwarded[s] \in 0..Len(outstanding[s])
    /\ \A s \in Session : nextCxid[s] \in 1..(MaxOps + 1)
    /\ \A s \in Session : sessServer[s] = NoServer => inbox[s] = <<>>
    /\ ops \in 0..MaxOps /\ disconnects \in 0..MaxDisconnects

ClientTxns(seq, s) == {k \in 1..Len(seq) : seq[k].value.sess = s /\ seq[k].value.cxid > 0}

\* FifoClientOrder: a session's requests take effect, and are answered, in the order it sent them.
FifoClientOrder ==
    /\ \A i \in Server, s \in Session : \A a, b \in ClientTxns(applied[i], s) :
           a < b => applied[i][a].value.cxid < applied[i][b].value.cxid
    /\ \A s \in Session : \A a, b \in 1..Len(inbox[s]) :
           /\ a < b /\ inbox[s][a].type \in WriteOps \cup {"sync"}
           /\ inbox[s][b].type \in WriteOps \cup {"sync"}
           => inbox[s][a].cxid < inbox[s][b].cxid

(* LinearizableWrites (A-linearizability): a write whose response a client *)
(* received is in every serving tree that has passed its zxid, and a write *)
(* follows every write that completed before it was sent.                  *)
LinearizableWrites ==
    /\ \A c \in completed, i \in Server :
           Serving(i) /\ ~ZxidLT(LastApplied(i), c.zxid) => c \in Range(applied[i])
    /\ \A i \in Server : \A k \in 1..Len(applied[i]) :
           LET f == applied[i][k].value.floor
           IN f /= <<0, 0>> => \E x \in 1..(k - 1) : applied[i][x].zxid = f

\* MonotonicReads: a read never returns a state older than one the session has already seen.
MonotonicReads ==
    \A s \in Session : \A k \in 1..Len(inbox[s]) :
        inbox[s][k].type = "read" => ~ZxidLT(inbox[s][k].zxid, inbox[s][k].seen)

\* SyncReads: after sync returns, a read sees every write completed before the sync was sent.
SyncReads ==
    \A s \in Session : \A k \in 1..Len(inbox[s]) :
        inbox[s][k].type = "read" => inbox[s][k].missed = {}

(* WatchOrdering: a client sees the notification of a change to a watched *)
(* path before it sees any state that contains the change, and each watch  *)
(* fires at most once.                                                     *)
WatchOrdering ==
    /\ \A s \in Session : \A w \in clientWatches[s] : \A k \in 1..Len(committedLog) :
           LET t == committedLog[k]
           IN Changes(t, w.path) /\ ZxidLT(w.zxid, t.zxid) => ZxidLT(lastZxidSeen[s], t.zxid)
    /\ \A s \in Session : \A a, b \in 1..Len(inbox[s]) :
           /\ a < b /\ inbox[s][a].type = "event" /\ inbox[s][b].type = "event"
           /\ inbox[s][a].path = inbox[s][b].path
           => \E c \in (a + 1)..(b - 1) : inbox[s][c].type = "read" /\ inbox[s][c].watch
                                          /\ inbox[s][c].path = inbox[s][a].path

\* SequentialNames: no sequential name is ever given to two different creates.
SequentialNames ==
    \A i \in Server : \A a, b \in 1..Len(applied[i]) :
        LET x == applied[i][a].value  y == applied[i][b].value
        IN x.op = "create" /\ y.op = "create" /\ x.name[2] > 0 /\ x.name = y.name => a = b

\* EphemeralsGone: once a server applied a session's closeSession, it holds no ephemeral of it.
EphemeralsGone ==
    \A i \in Server, s \in Session :
        SessionClosedIn(s, applied[i]) => \A n \in TreeOf(applied[i]) : n.owner /= s

\* ReplicaConsistency: every data tree is a prefix of the committed order (a replicated state machine).
ReplicaConsistency ==
    \A i \in Server : IsPrefix(applied[i], committedLog)
=============================================================================

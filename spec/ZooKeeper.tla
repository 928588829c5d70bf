----------------------------- MODULE ZooKeeper -----------------------------
(***************************************************************************)
(* The service a ZooKeeper client sees, built on Zab.tla: the transactions *)
(* Zab orders are client requests, every server applies its committed      *)
(* prefix to its own data tree, and sessions connected to servers create   *)
(* themselves, read locally, write through the leader, sync, set data and  *)
(* child watches, and expire.                                              *)
(*                                                                         *)
(* A data tree is the sequence of transactions applied to it (applied[i]); *)
(* TreeOf computes the znodes from it. Client-level properties are checked *)
(* on the responses in flight to each session and on the session's view.   *)
(***************************************************************************)
EXTENDS Zab, Integers

CONSTANTS
    Session,        \* client sessions (model values)
    Path,           \* znode paths the clients use (strings); "/" is the root and always exists
    ParentOf(_),    \* the parent path of a path in Path ("/" for a top-level path)
    ExpectedVersions, \* versions a conditional setData/delete may name; -1 means any version
    MaxOps,         \* bound: client requests (writes, syncs, reads) and expiries in a run
    MaxDisconnects, \* bound: client connection losses in a run
    RequestKinds,   \* request kinds a model uses: "create", "createEphemeral", "createSequential",
                    \* "delete", "setData", "sync", "getChildren"
    SyncMode,       \* "leader": the leader orders a sync after its pending writes and does not
                    \*   broadcast it (the ZooKeeper paper, section 4.4, and the Java server);
                    \* "nullTxn": the leader commits a null transaction before the sync is answered
    LeaderLeaseTiming, \* the timing assumption of "leader" sync: a leader that lost its quorum
                    \*   steps down before its followers abandon it and elect another leader
    KeepConnections, \* issue 20 item 7: a server that loses its leader keeps its clients'
                    \*   connections, holds their requests until it is synchronized again,
                    \*   resolves their forwarded writes and fires their watches (K1-K5, below);
                    \*   FALSE: it closes them, as ZooKeeper does
    Bug2845,        \* ZOOKEEPER-2845: a server keeps its data tree across an election
    BugUnsyncedAck  \* a follower's acknowledged log entries were not on disk (ack before fsync in
                    \*   broadcast, as with forceSync=no): a crash then loses a committed write

ASSUME Bug2845 \in BOOLEAN /\ BugUnsyncedAck \in BOOLEAN /\ LeaderLeaseTiming \in BOOLEAN
ASSUME KeepConnections \in BOOLEAN
ASSUME SyncMode \in {"leader", "nullTxn"}
ASSUME ExpectedVersions /= {} /\ ExpectedVersions \subseteq -1..3
ASSUME \A p \in Path : ParentOf(p) \in Path \cup {"/"} /\ ParentOf(p) /= p

\* Server-side service variables.
VARIABLES
    applied,        \* applied[i]: transactions applied to i's data tree, in order
    lastProcessed,  \* history index of the last transaction i applied
    watches,        \* watches[i]: [sess, path, kind] watches registered at server i
    unresolvedEpoch \* KeepConnections (K2): the epoch whose leader received session s's
                    \*   forwarded writes before s's server lost that leader, while they await
                    \*   ResolveForwardedWrites; 0 when there is nothing to resolve

\* Session variables (client side and its connection).
VARIABLES
    sessionState,   \* "none" (not created), "creating" (createSession sent), "live"
    sessServer,     \* server the session is connected to, or NoServer
    outstanding,    \* requests (reads included) sent and not yet answered, in cxid order
    forwarded,      \* the prefix of outstanding that the leader has received (reads and
                    \*   leader-ordered syncs never go to the leader; they count as passed)
    inbox,          \* FIFO of responses and watch events from the server to the client
    lastZxidSeen,   \* highest zxid the client has seen in a response
    clientWatches,  \* [path, kind, zxid] watches the client believes are set
    syncFloor,      \* writes completed before the client's last answered sync
    nextCxid        \* next client request number of each session

\* Spec-only history variables.
VARIABLES
    completed,      \* write transactions whose response a client received
    ops,            \* client requests issued so far (bounded by MaxOps)
    disconnects     \* client connection losses so far

zkServerVars == <<applied, lastProcessed, watches, unresolvedEpoch>>
sessionVars == <<sessionState, sessServer, outstanding, forwarded, inbox, lastZxidSeen,
                 clientWatches, syncFloor, nextCxid>>
zkGhostVars == <<completed, ops, disconnects>>
zkVars == <<zkServerVars, sessionVars, zkGhostVars>>
allVars == <<vars, zkVars>>

NoOwner == "none"
Root == "/"
WriteOps == {"create", "delete", "setData"}

----------------------------------------------------------------------------
(* The data tree: a set of znodes [name, owner, mzxid, version]. A name is *)
(* <<path, n>>, n > 0 for a sequential node (path n, a sibling of path).   *)
(* Applying a transaction never fails the replica: a transaction whose     *)
(* check fails (NODEEXISTS, NONODE, BADVERSION, NOTEMPTY,                  *)
(* NOCHILDRENFOREPHEMERALS) leaves the tree as is, and every replica       *)
(* reaches the same verdict at the same place in the order. (The Java      *)
(* leader makes that verdict in PrepRequestProcessor and logs an error     *)
(* transaction; the outcome a client sees is the same.)                    *)
NodeAt(T, p) == {n \in T : n.name = <<p, 0>>}
HasPath(T, p) == p = Root \/ NodeAt(T, p) /= {}
IsChildOf(n, p) == ParentOf(n.name[1]) = p
VersionOk(n, v) == v = -1 \/ n.version = v

TxnOk(T, v) ==
    CASE v.op = "create" ->
            /\ ~\E n \in T : n.name = v.name
            /\ HasPath(T, ParentOf(v.name[1]))
            /\ \A n \in NodeAt(T, ParentOf(v.name[1])) : n.owner = NoOwner
      [] v.op = "delete" ->
            \E n \in T : n.name = v.name /\ VersionOk(n, v.version)
                         /\ ~\E c \in T : v.name[2] = 0 /\ IsChildOf(c, v.name[1])
      [] v.op = "setData" -> \E n \in T : n.name = v.name /\ VersionOk(n, v.version)
      [] OTHER -> TRUE

ApplyTxn(T, t) ==
    LET v == t.value
    IN IF ~TxnOk(T, v) THEN T
       ELSE CASE v.op = "create" ->
                   T \cup {[name |-> v.name, owner |-> IF v.eph THEN v.sess ELSE NoOwner,
                            mzxid |-> t.zxid, version |-> 0]}
              [] v.op = "delete" -> {n \in T : n.name /= v.name}
              [] v.op = "setData" ->
                   {IF n.name = v.name THEN [n EXCEPT !.mzxid = t.zxid, !.version = @ + 1]
                    ELSE n : n \in T}
              [] v.op = "closeSession" -> {n \in T : n.owner /= v.sess}
              [] OTHER -> T

RECURSIVE TreeOf(_)
TreeOf(s) == IF s = <<>> THEN {} ELSE ApplyTxn(TreeOf(SubSeq(s, 1, Len(s) - 1)), s[Len(s)])

(* The watch triggers of transaction t applied to tree T, as ZooKeeper's   *)
(* DataTree fires them: a data watch (getData/exists) on a created,        *)
(* changed or deleted node; a child watch (getChildren) on the parent of a *)
(* created or deleted node, and on a deleted node itself. A closeSession   *)
(* deletes the session's ephemerals, and fires exactly what deleting each  *)
(* of them would (NodeDeleted, NodeChildrenChanged on the parent).         *)
DeleteTriggers(p) ==
    {[path |-> p, kind |-> "data", ev |-> "NodeDeleted"],
     [path |-> p, kind |-> "child", ev |-> "NodeDeleted"],
     [path |-> ParentOf(p), kind |-> "child", ev |-> "NodeChildrenChanged"]}
Triggers(T, t) ==
    LET v == t.value
    IN IF ~TxnOk(T, v) THEN {}
       ELSE CASE v.op = "create" ->
                   {[path |-> v.name[1], kind |-> "data", ev |-> "NodeCreated"],
                    [path |-> ParentOf(v.name[1]), kind |-> "child", ev |-> "NodeChildrenChanged"]}
              [] v.op = "delete" -> DeleteTriggers(v.name[1])
              [] v.op = "setData" -> {[path |-> v.name[1], kind |-> "data", ev |-> "NodeDataChanged"]}
              [] v.op = "closeSession" ->
                   UNION {DeleteTriggers(n.name[1]) : n \in {m \in T : m.owner = v.sess}}
              [] OTHER -> {}
\* The triggers of the k-th transaction of sequence h.
TriggersAt(h, k) == Triggers(TreeOf(SubSeq(h, 1, k - 1)), h[k])
Hits(trig, w) == \E x \in trig : x.path = w.path /\ x.kind = w.kind

RECURSIVE SetToSeq(_)
SetToSeq(S) == IF S = {} THEN <<>>
               ELSE LET x == CHOOSE y \in S : TRUE IN <<x>> \o SetToSeq(S \ {x})

LastApplied(i) == LastZxid(applied[i])
ZxidMax(a, b) == IF ZxidLT(a, b) THEN b ELSE a
Serving(i) == up[i] /\ state[i] \in {FOLLOWING, LEADING} /\ zabState[i] = BROADCAST
LeaderFor(i) == IF state[i] = LEADING THEN i ELSE leaderOf[i]
SessionClosedIn(s, h) == \E k \in 1..Len(h) : h[k].value.op = "closeSession" /\ h[k].value.sess = s
SessionCreatedIn(s, h) == \E k \in 1..Len(h) : h[k].value.op = "createSession" /\ h[k].value.sess = s
\* Highest zxid a session has been sent: what it saw plus the responses in flight.
SentZxid(s) == LET zs == {inbox[s][k].zxid : k \in 1..Len(inbox[s])} \cup {lastZxidSeen[s]}
               IN CHOOSE z \in zs : \A y \in zs : ~ZxidLT(z, y)
\* The writes a read must see: those completed before the session's answered syncs,
\* including syncs whose answer is still on its way to the client (a pipelined sync + read).
ReadFloor(s) == syncFloor[s] \cup UNION {inbox[s][k].syncFloor :
                                          k \in {x \in 1..Len(inbox[s]) : inbox[s][x].type = "sync"}}
RemoveAt(q, k) == SubSeq(q, 1, k - 1) \o SubSeq(q, k + 1, Len(q))
\* Requests the session's server answers itself, without the leader's log.
LocalOps == IF SyncMode = "leader" THEN {"read", "sync"} ELSE {"read"}

----------------------------------------------------------------------------
ZkInit ==
    /\ Init
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

----------------------------------------------------------------------------
(* What a Zab step does to the data trees and connections. Every server    *)
(* applies what it delivered in the same step (lastProcessed then equals   *)
(* lastCommitted) and fires the watches the new transactions trigger,      *)
(* before any later response. A server that starts synchronizing reloads   *)
(* its tree from the synced log's committed prefix; under Bug2845 it keeps *)
(* its old tree and takes its whole old log as processed. A crashed server *)
(* loses its tree; a server that stops serving drops its client            *)
(* connections and watches, unless KeepConnections (K1): then only a crash *)
(* drops them, and a server that loses its leader keeps its sessions, their *)
(* watches and their requests (held: ServerReply and                       *)
(* LeaderProcessClientRequest wait for Serving).                           *)
Resyncs(i) == zabState'[i] = SYNCHRONIZATION /\ zabState[i] /= SYNCHRONIZATION
Lost(i) == ~up'[i]
ServingAfter(i) == up'[i] /\ state'[i] \in {FOLLOWING, LEADING} /\ zabState'[i] = BROADCAST
StopsServing(i) == Lost(i) \/ (Serving(i) /\ ~ServingAfter(i))
\* Server i closes its client connections in this step.
Drops(i) == IF KeepConnections THEN Lost(i) ELSE StopsServing(i)
Cut(s) == \E j \in Server : sessServer[s] = j /\ Drops(j)
\* K1: server i loses its leader (a follower, or a leader stepping down) and keeps its clients.
LosesLeader(i) == KeepConnections /\ Serving(i) /\ ~ServingAfter(i) /\ ~Lost(i)
\* K2: the writes (and null-transaction syncs) of session s that its server forwarded to the
\* leader and has not answered.
HeldWrites(s) == {k \in 1..forwarded[s] : outstanding[s][k].op \notin LocalOps}

(* Bug "2355" (ZOOKEEPER-2355, fixed in 3.4.11/3.5.4): the in-memory      *)
(* database outlives a learner's role (ZooKeeperServer.shutdown no longer  *)
(* clears it, ZOOKEEPER-2678), and a DIFF applies the leader's             *)
(* transactions on top of it; SNAP and TRUNC reload it. Learner's          *)
(* syncWithLeader set the database's lastProcessedZxid to the sync         *)
(* packet's zxid for every kind of sync, so a DIFF's header marked its     *)
(* transactions processed before the PROPOSAL and COMMIT packets that      *)
(* carry them were read (ZkFollowerFailsInDIFF); the current code sets it  *)
(* for a SNAP only.                                                        *)
Bug2355 == "2355" \in Bugs
KeepsTree(i) == Bug2845 \/ (Bug2355 /\ IsPrefix(history[i], history'[i]))
\* The tree and processed index of server i after a Zab step, before applying new commits.
BaseTree(i, resync, lost) ==
    IF i \in lost THEN <<>>
    ELSE IF i \in resync /\ ~KeepsTree(i) THEN SubSeq(history'[i], 1, lastCommitted'[i])
    ELSE applied[i]
BaseProcessed(i, resync, lost) ==
    IF i \in lost THEN 0
    ELSE IF i \in resync
    THEN IF Bug2845 THEN Min(Len(history[i]), Len(history'[i]))
         ELSE IF KeepsTree(i) THEN Min(lastProcessed[i], Len(history'[i]))
         ELSE lastCommitted'[i]
    ELSE Min(lastProcessed[i], Len(history'[i]))
\* Newly committed transactions server i applies in this step.
NewlyApplied(i, resync, lost) ==
    LET lp == BaseProcessed(i, resync, lost)
    IN IF lp < lastCommitted'[i] THEN SubSeq(history'[i], lp + 1, lastCommitted'[i]) ELSE <<>>
\* The triggers of the transactions server i applies in this step, on its tree as it goes.
NewTriggers(i, resync, lost) ==
    LET base == BaseTree(i, resync, lost)
        new == NewlyApplied(i, resync, lost)
    IN UNION {TriggersAt(base \o new, Len(base) + k) : k \in 1..Len(new)}
Fired(i, resync, lost) == {w \in watches[i] : Hits(NewTriggers(i, resync, lost), w)}
EventOf(w, trig, z) ==
    [type |-> "event", path |-> w.path, kind |-> w.kind, zxid |-> z,
     ev |-> (CHOOSE x \in trig : x.path = w.path /\ x.kind = w.kind).ev]

(* K3: a server that kept its connections and reloads its tree from a     *)
(* sync (DIFF, TRUNC or SNAP all reload it here: the spec applies a sync's *)
(* committed prefix in one step) fires every kept watch whose znode        *)
(* changed between its tree before and after, as SetWatches would with the *)
(* zxid it had served: a transaction of the new tree that the old one did  *)
(* not have and that triggers the watch (mzxid or pzxid grew), or a znode  *)
(* (or child list) that differs because a TRUNC or SNAP removed something. *)
(* The events enter the connection in the reload step, before any held     *)
(* reply, which waits for Serving.                                         *)
ChildNames(T, p) == {n.name : n \in {m \in T : IsChildOf(m, p)}}
ChangedAcross(old, new, w) ==
    LET T == TreeOf(old)
        U == TreeOf(new)
    IN \/ \E k \in 1..Len(new) : new[k] \notin Range(old) /\ Hits(TriggersAt(new, k), w)
       \/ w.kind = "data" /\ NodeAt(T, w.path) /= NodeAt(U, w.path)
       \/ w.kind = "child" /\ (HasPath(T, w.path) /= HasPath(U, w.path)
                              \/ ChildNames(T, w.path) /= ChildNames(U, w.path))
SyncReload(i, resync, lost) == KeepConnections /\ i \in resync /\ i \notin lost
NewTree(i, resync, lost) == BaseTree(i, resync, lost) \o NewlyApplied(i, resync, lost)
SyncFired(i, resync, lost) ==
    {w \in watches[i] : ChangedAcross(applied[i], NewTree(i, resync, lost), w)}
SyncEventOf(w, old, new) ==
    LET T == TreeOf(old)
        U == TreeOf(new)
    IN [type |-> "event", path |-> w.path, kind |-> w.kind, zxid |-> LastZxid(new),
        ev |-> IF ~HasPath(U, w.path) THEN "NodeDeleted"
               ELSE IF w.kind = "child" THEN "NodeChildrenChanged"
               ELSE IF ~HasPath(T, w.path) THEN "NodeCreated" ELSE "NodeDataChanged"]
\* The watches server i fires in this step, and the event each sends.
AllFired(i, resync, lost) ==
    IF SyncReload(i, resync, lost) THEN SyncFired(i, resync, lost) ELSE Fired(i, resync, lost)
FiredEvent(i, resync, lost, w) ==
    IF SyncReload(i, resync, lost)
    THEN SyncEventOf(w, applied[i], NewTree(i, resync, lost))
    ELSE EventOf(w, NewTriggers(i, resync, lost), LastZxid(NewlyApplied(i, resync, lost)))

ServiceFollows ==
    /\ \E cut \in {{s \in Session : Cut(s)}}, stop \in {{i \in Server : Drops(i)}},
          lost \in {{i \in Server : Lost(i)}}, resync \in {{i \in Server : Resyncs(i)}} :
        /\ applied' = [i \in Server |->
              BaseTree(i, resync, lost) \o NewlyApplied(i, resync, lost)]
        /\ lastProcessed' = [i \in Server |->
              Max(BaseProcessed(i, resync, lost), lastCommitted'[i])]
        /\ watches' = [i \in Server |->
              IF i \in stop THEN {} ELSE watches[i] \ AllFired(i, resync, lost)]
        \* K2: a kept session with forwarded writes must resolve them once its server serves again.
        /\ unresolvedEpoch' = [s \in Session |->
              IF s \in cut THEN 0
              ELSE IF /\ unresolvedEpoch[s] = 0 /\ HeldWrites(s) /= {}
                      /\ sessServer[s] \in Server /\ LosesLeader(sessServer[s])
              THEN currentEpoch[sessServer[s]]
              ELSE unresolvedEpoch[s]]
        /\ sessionState' = [s \in Session |->
              IF s \in cut /\ sessionState[s] = "creating" THEN "none" ELSE sessionState[s]]
        /\ sessServer' = [s \in Session |-> IF s \in cut THEN NoServer ELSE sessServer[s]]
        /\ outstanding' = [s \in Session |-> IF s \in cut THEN <<>> ELSE outstanding[s]]
        /\ forwarded' = [s \in Session |-> IF s \in cut THEN 0 ELSE forwarded[s]]
        /\ inbox' = [s \in Session |->
              IF s \in cut THEN <<>>
              ELSE IF sessServer[s] = NoServer THEN inbox[s]
              ELSE LET i == sessServer[s]
                       fired == SetToSeq({w \in AllFired(i, resync, lost) : w.sess = s})
                   IN inbox[s] \o [k \in 1..Len(fired) |-> FiredEvent(i, resync, lost, fired[k])]]
    /\ UNCHANGED <<lastZxidSeen, clientWatches, syncFloor, nextCxid, zkGhostVars>>

----------------------------------------------------------------------------
(* Sessions.                                                               *)

(* Session s, not yet created, connects to server j and sends              *)
(* createSession. The session exists once the leader has committed that    *)
(* transaction; its server then answers the connect.                       *)
ClientCreateSession(s, j) ==
    /\ sessionState[s] = "none" /\ sessServer[s] = NoServer
    /\ Serving(j)
    /\ sessionState' = [sessionState EXCEPT ![s] = "creating"]
    /\ sessServer' = [sessServer EXCEPT ![s] = j]
    /\ outstanding' = [outstanding EXCEPT ![s] =
           <<[op |-> "createSession", path |-> Root, kind |-> "", eph |-> FALSE, seq |-> FALSE,
              version |-> -1, watch |-> FALSE, cxid |-> nextCxid[s], floor |-> <<0, 0>>,
              syncFloor |-> {}]>>]
    /\ nextCxid' = [nextCxid EXCEPT ![s] = @ + 1]
    /\ UNCHANGED <<vars, zkServerVars, forwarded, inbox, lastZxidSeen, clientWatches,
                   syncFloor, zkGhostVars>>

(* A live session s reconnects to server j, which refuses a client that   *)
(* has seen a newer zxid than it has applied, or whose session it has seen *)
(* closed. The client re-sends its watches with its last zxid (SetWatches): *)
(* a watch whose trigger j applied since then fires at once, the others    *)
(* are registered at j.                                                    *)
ClientConnect(s, j) ==
    /\ sessionState[s] = "live" /\ sessServer[s] = NoServer
    /\ Serving(j)
    /\ ~ZxidLT(LastApplied(j), lastZxidSeen[s])
    /\ ~SessionClosedIn(s, applied[j])
    /\ LET changed(w) == \E k \in 1..Len(applied[j]) :
                           Hits(TriggersAt(applied[j], k), w)
                           /\ ZxidLT(lastZxidSeen[s], applied[j][k].zxid)
           fire == {w \in clientWatches[s] : changed(w)}
           fireSeq == SetToSeq({[path |-> w.path, kind |-> w.kind] : w \in fire})
       IN /\ watches' = [watches EXCEPT ![j] =
                @ \cup {[sess |-> s, path |-> w.path, kind |-> w.kind] : w \in clientWatches[s] \ fire}]
          /\ inbox' = [inbox EXCEPT ![s] =
                 [k \in 1..Len(fireSeq) |->
                    [type |-> "event", path |-> fireSeq[k].path, kind |-> fireSeq[k].kind,
                     zxid |-> LastApplied(j), ev |-> "SetWatches"]]]
    /\ sessServer' = [sessServer EXCEPT ![s] = j]
    /\ UNCHANGED <<vars, applied, lastProcessed, unresolvedEpoch, sessionState, outstanding,
                   forwarded, lastZxidSeen, clientWatches, syncFloor, nextCxid, zkGhostVars>>

(* The connection of session s breaks: responses in flight and pending    *)
(* requests are lost. Under KeepConnections this is also K5: a server that *)
(* cannot synchronize within the session timeout closes its held           *)
(* connections as it does today (enabled whatever the server's state).    *)
ClientDisconnect(s) ==
    /\ sessServer[s] /= NoServer
    /\ disconnects < MaxDisconnects
    /\ watches' = [i \in Server |-> {w \in watches[i] : w.sess /= s}]
    /\ unresolvedEpoch' = [unresolvedEpoch EXCEPT ![s] = 0]
    /\ sessionState' = [sessionState EXCEPT ![s] = IF @ = "creating" THEN "none" ELSE @]
    /\ sessServer' = [sessServer EXCEPT ![s] = NoServer]
    /\ outstanding' = [outstanding EXCEPT ![s] = <<>>]
    /\ forwarded' = [forwarded EXCEPT ![s] = 0]
    /\ inbox' = [inbox EXCEPT ![s] = <<>>]
    /\ disconnects' = disconnects + 1
    /\ UNCHANGED <<vars, applied, lastProcessed, lastZxidSeen, clientWatches, syncFloor,
                   nextCxid, completed, ops>>

(* Session s sends a request: a write, a sync or a read. Requests are      *)
(* pipelined (at most two outstanding): a read may sit behind a write of   *)
(* the same session. A write records the last write completed before it    *)
(* (floor), a sync the writes completed before it (syncFloor).             *)
ClientRequest(s, req) ==
    /\ sessionState[s] = "live" /\ sessServer[s] /= NoServer
    /\ ops < MaxOps
    /\ Len(outstanding[s]) < 2
    /\ LET floor == IF completed = {} THEN <<0, 0>>
                    ELSE (CHOOSE c \in completed : \A d \in completed : ~ZxidLT(c.zxid, d.zxid)).zxid
       IN outstanding' = [outstanding EXCEPT ![s] =
                Append(@, [req EXCEPT !.cxid = nextCxid[s],
                                      !.floor = IF req.op \in WriteOps THEN floor ELSE <<0, 0>>,
                                      !.syncFloor = IF req.op = "sync" THEN completed ELSE {}])]
    /\ nextCxid' = [nextCxid EXCEPT ![s] = @ + 1]
    /\ ops' = ops + 1
    /\ UNCHANGED <<vars, zkServerVars, sessionState, sessServer, forwarded, inbox, lastZxidSeen,
                   clientWatches, syncFloor, completed, disconnects>>

\* The requests a session may send; RequestKinds restricts a model to some of them.
Req(o, p, e, q, v, k, w) ==
    [op |-> o, path |-> p, eph |-> e, seq |-> q, version |-> v, kind |-> k, watch |-> w,
     cxid |-> 0, floor |-> <<0, 0>>, syncFloor |-> {}]
Requests ==
    {r \in {Req("create", p, e, q, -1, "", FALSE) : p \in Path, e \in BOOLEAN, q \in BOOLEAN} :
        \/ "create" \in RequestKinds /\ ~r.eph /\ ~r.seq
        \/ "createEphemeral" \in RequestKinds /\ r.eph /\ (r.seq => "createSequential" \in RequestKinds)
        \/ "createSequential" \in RequestKinds /\ r.seq /\ (r.eph => "createEphemeral" \in RequestKinds)}
    \cup {Req(o, p, FALSE, FALSE, v, "", FALSE) :
            o \in {"delete", "setData"} \cap RequestKinds, p \in Path, v \in ExpectedVersions}
    \cup (IF "sync" \in RequestKinds THEN {Req("sync", Root, FALSE, FALSE, -1, "", FALSE)} ELSE {})
    \cup {Req("read", p, FALSE, FALSE, -1, "data", w) : p \in Path, w \in BOOLEAN}
    \cup (IF "getChildren" \in RequestKinds
          THEN {Req("read", ParentOf(p), FALSE, FALSE, -1, "child", w) : p \in Path, w \in BOOLEAN}
          ELSE {})

\* The next request of session s that goes to the leader, if any.
ToLeader(s) == {k \in (forwarded[s] + 1)..Len(outstanding[s]) : outstanding[s][k].op \notin LocalOps}

(* The leader l receives the next leader-bound request of session s       *)
(* through the session's server, checks it (PrepRequestProcessor) and     *)
(* proposes it: a sequential create gets the next number of its path in   *)
(* l's log; a request of a closed session, or of one not yet created, is   *)
(* not proposed. Reads and leader-ordered syncs queued before it are      *)
(* passed over (they stay in the server's queue).                         *)
LeaderProcessClientRequest(s) ==
    LET j == sessServer[s]
        l == LeaderFor(j)
        k == CHOOSE x \in ToLeader(s) : \A y \in ToLeader(s) : x <= y
        req == outstanding[s][k]
        seqNo == 1 + Cardinality({x \in 1..Len(history[l]) :
                                     /\ history[l][x].value.op = "create"
                                     /\ history[l][x].value.name[1] = req.path
                                     /\ history[l][x].value.name[2] > 0})
        v == [op |-> req.op, sess |-> s, cxid |-> req.cxid, eph |-> req.eph,
              name |-> <<req.path, IF req.seq THEN seqNo ELSE 0>>, version |-> req.version,
              floor |-> req.floor]
    IN /\ j /= NoServer /\ Serving(j)
       /\ unresolvedEpoch[s] = 0     \* K2: nothing new reaches the leader before the resolve
       /\ ToLeader(s) /= {}
       /\ l \in Server /\ Serving(l)
       /\ {j, l} \notin partitioned
       /\ ~SessionClosedIn(s, history[l])
       /\ req.op = "createSession" \/ SessionCreatedIn(s, history[l])
       /\ LeaderPropose(l, v)
       /\ forwarded' = [forwarded EXCEPT ![s] = k]
       /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                      leaderOf, leaderVars, envVars, leaders, committedLog, zkServerVars,
                      sessionState, sessServer, outstanding, inbox, lastZxidSeen, clientWatches,
                      syncFloor, nextCxid, zkGhostVars>>

(* Server j answers a request of session s. ZooKeeper's CommitProcessor   *)
(* answers a session's requests in the order it sent them: a read waits   *)
(* behind the session's earlier writes and syncs (ReplyReady).            *)
ReplyReady(s, k) == k = 1

(* A write, createSession or null-transaction sync: answered once j has   *)
(* applied its transaction.                                               *)
ReplyTxn(s, k) ==
    LET j == sessServer[s]
        req == outstanding[s][k]
        done == applied[j]
        isReq(t) == t.value.sess = s /\ t.value.op = req.op
                    /\ (req.op = "createSession" \/ t.value.cxid = req.cxid)
    IN /\ req.op \notin LocalOps
       /\ k <= forwarded[s]
       /\ \E x \in 1..Len(done) :
            /\ isReq(done[x])
            /\ inbox' = [inbox EXCEPT ![s] = Append(@,
                   [type |-> req.op, cxid |-> req.cxid, zxid |-> done[x].zxid,
                    txn |-> done[x], syncFloor |-> req.syncFloor,
                    ok |-> TxnOk(TreeOf(SubSeq(done, 1, x - 1)), done[x].value)])]
       /\ UNCHANGED watches

(* A read: answered from j's tree, tagged with j's last zxid; getData and *)
(* exists may set a data watch, getChildren a child watch.                 *)
ReplyRead(s, k) ==
    LET j == sessServer[s]
        req == outstanding[s][k]
    IN /\ req.op = "read"
       /\ inbox' = [inbox EXCEPT ![s] = Append(@,
              [type |-> "read", cxid |-> req.cxid, path |-> req.path, kind |-> req.kind,
               watch |-> req.watch, zxid |-> LastApplied(j), seen |-> SentZxid(s),
               missed |-> ReadFloor(s) \ Range(applied[j])])]
       /\ watches' = IF req.watch
                     THEN [watches EXCEPT ![j] = @ \cup {[sess |-> s, path |-> req.path,
                                                          kind |-> req.kind]}]
                     ELSE watches

(* A sync as the ZooKeeper paper and the Java server implement it         *)
(* (SyncMode = "leader"): j passes it to its leader l, which queues it     *)
(* behind its pending proposals and answers once they are committed,      *)
(* without broadcasting anything; j answers once it has applied what l    *)
(* committed. No quorum confirms that l is still the leader: that rests    *)
(* on LeaderLeaseTiming (see ZkElectLeader).                              *)
ReplyLeaderSync(s, k) ==
    LET j == sessServer[s]
        l == LeaderFor(j)
        req == outstanding[s][k]
    IN /\ req.op = "sync" /\ SyncMode = "leader"
       /\ l \in Server /\ Serving(l) /\ state[l] = LEADING /\ {j, l} \notin partitioned
       /\ lastCommitted[l] = Len(history[l])
       /\ lastProcessed[j] >= lastCommitted[l]
       /\ inbox' = [inbox EXCEPT ![s] = Append(@,
              [type |-> "sync", cxid |-> req.cxid, zxid |-> LastApplied(j),
               txn |-> [zxid |-> LastApplied(j), value |-> "sync"], syncFloor |-> req.syncFloor,
               ok |-> TRUE])]
       /\ UNCHANGED watches

ServerReply(s) ==
    LET j == sessServer[s]
    IN /\ j /= NoServer /\ Serving(j)
       /\ unresolvedEpoch[s] = 0     \* K2: held replies wait for ResolveForwardedWrites
       /\ \E k \in 1..Len(outstanding[s]) :
            /\ ReplyReady(s, k)
            /\ ReplyTxn(s, k) \/ ReplyRead(s, k) \/ ReplyLeaderSync(s, k)
            /\ outstanding' = [outstanding EXCEPT ![s] = RemoveAt(@, k)]
            /\ forwarded' = [forwarded EXCEPT ![s] = IF k <= @ THEN @ - 1 ELSE @]
       /\ UNCHANGED <<vars, applied, lastProcessed, unresolvedEpoch, sessionState, sessServer,
                      lastZxidSeen, clientWatches, syncFloor, nextCxid, zkGhostVars>>

(* K2: once the server j of session s serves again after losing the       *)
(* leader that received s's forwarded writes, it resolves them exactly      *)
(* once. If j serves in that same epoch (it rejoined the same leader), the  *)
(* writes are still in that leader's log: they stay forwarded. Otherwise    *)
(* the old epoch is over, and the per-session table of the replicated state *)
(* (the highest applied cxid of each session, which a SNAP carries too:     *)
(* LastAppliedCxid) decides: a held write with a cxid at or below it is in  *)
(* the new history and will be answered with that transaction (ReplyTxn     *)
(* finds it); one above it can no longer commit and is forwarded again      *)
(* (forwarded goes back to just before it). The table keeps only the last  *)
(* result: with two held writes at or below it, j closes the connection    *)
(* (K5's fallback: the client sees ConnectionLoss, its session lives on).  *)
LastAppliedCxid(s, h) ==
    LET cs == {h[x].value.cxid : x \in {y \in 1..Len(h) : h[y].value.sess = s}}
    IN IF cs = {} THEN 0 ELSE MaxOf(cs)
ResolveForwardedWrites(s) ==
    LET j == sessServer[s]
        held == HeldWrites(s)
        inNew == {k \in held : outstanding[s][k].cxid <= LastAppliedCxid(s, applied[j])}
        gone == held \ inNew
    IN /\ unresolvedEpoch[s] /= 0
       /\ j /= NoServer /\ Serving(j)
       /\ unresolvedEpoch' = [unresolvedEpoch EXCEPT ![s] = 0]
       /\ IF currentEpoch[j] /= unresolvedEpoch[s] /\ Cardinality(inNew) > 1
          THEN /\ watches' = [i \in Server |-> {w \in watches[i] : w.sess /= s}]
               /\ sessionState' = [sessionState EXCEPT ![s] = IF @ = "creating" THEN "none" ELSE @]
               /\ sessServer' = [sessServer EXCEPT ![s] = NoServer]
               /\ outstanding' = [outstanding EXCEPT ![s] = <<>>]
               /\ forwarded' = [forwarded EXCEPT ![s] = 0]
               /\ inbox' = [inbox EXCEPT ![s] = <<>>]
          ELSE /\ forwarded' = [forwarded EXCEPT ![s] =
                    IF currentEpoch[j] = unresolvedEpoch[s] \/ gone = {} THEN @
                    ELSE (CHOOSE k \in gone : \A y \in gone : k <= y) - 1]
               /\ UNCHANGED <<watches, sessionState, sessServer, outstanding, inbox>>
    /\ UNCHANGED <<vars, applied, lastProcessed, lastZxidSeen, clientWatches, syncFloor,
                   nextCxid, zkGhostVars>>

(* Session s takes the next response or watch event from its connection.  *)
(* A watch set again before it fired keeps its first zxid: the client      *)
(* still waits for the notification that registration promised.          *)
ClientReceive(s) ==
    /\ inbox[s] /= <<>>
    /\ LET m == inbox[s][1]
       IN /\ lastZxidSeen' = [lastZxidSeen EXCEPT ![s] =
                 IF m.type = "event" THEN @ ELSE ZxidMax(@, m.zxid)]
          /\ clientWatches' = [clientWatches EXCEPT ![s] =
                 IF m.type = "event" THEN {w \in @ : w.path /= m.path \/ w.kind /= m.kind}
                 ELSE IF m.type = "read" /\ m.watch
                         /\ ~\E w \in @ : w.path = m.path /\ w.kind = m.kind
                 THEN @ \cup {[path |-> m.path, kind |-> m.kind, zxid |-> m.zxid]}
                 ELSE @]
          /\ syncFloor' = [syncFloor EXCEPT ![s] = IF m.type = "sync" THEN m.syncFloor ELSE @]
          /\ sessionState' = [sessionState EXCEPT ![s] =
                 IF m.type = "createSession" THEN "live" ELSE @]
          /\ completed' = IF m.type \in WriteOps THEN completed \cup {m.txn} ELSE completed
    /\ inbox' = [inbox EXCEPT ![s] = Tail(@)]
    /\ UNCHANGED <<vars, zkServerVars, sessServer, outstanding, forwarded, nextCxid,
                   ops, disconnects>>

(* The leader expires a created session that lost its connection:         *)
(* closeSession is a transaction, and applying it removes the session's   *)
(* ephemerals and fires their watches.                                     *)
SessionExpire(s) ==
    \E l \in Server :
        /\ sessServer[s] = NoServer
        /\ Serving(l) /\ state[l] = LEADING
        /\ SessionCreatedIn(s, history[l]) /\ ~SessionClosedIn(s, history[l])
        /\ ops < MaxOps
        /\ LeaderPropose(l, [op |-> "closeSession", sess |-> s, cxid |-> 0, eph |-> FALSE,
                             name |-> <<Root, 0>>, version |-> -1, floor |-> <<0, 0>>])
        /\ ops' = ops + 1
        /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, lastCommitted, up,
                       leaderOf, leaderVars, envVars, leaders, committedLog, zkServerVars,
                       sessionVars, completed, disconnects>>

(* Bug "2355": follower i reads the DIFF from its leader j, whose          *)
(* transactions follow as PROPOSAL and COMMIT packets, and fails while     *)
(* reading the first PROPOSAL (the JIRA's SocketTimeoutException; its test *)
(* throws in Follower.readPacket). The header had already set             *)
(* lastProcessedZxid to the leader's last committed zxid, and the database *)
(* stays in memory, so i reports that zxid at its next sync (QuorumPeer's  *)
(* getLastLoggedZxid reads the in-memory database): the leader sends an    *)
(* empty DIFF, and the skipped transactions never reach i's tree. When one *)
(* of them is a closeSession, the session's ephemerals stay on i for ever; *)
(* a later create of the same path by another session fails there         *)
(* (NodeExists) and its close leaves the old node (the JIRA's steps 6-8).  *)
(* The claimed transactions are in i's history (its in-memory log view),   *)
(* not on its disk; the next NEWLEADER writes them (its snapshot).         *)
ZkFollowerFailsInDIFF ==
    \E i, j \in Server :
        /\ Bug2355
        /\ state[i] = FOLLOWING /\ leaderOf[i] = j
        /\ Pending(i, j, DIFF) /\ Msg(i, j).txns /= <<>>
        /\ LET m == Msg(i, j)
               h == history[i] \o m.txns
               lc == Min(Len(h), Max(lastCommitted[i], m.committed))
           IN /\ history' = [history EXCEPT ![i] = h]
              /\ lastCommitted' = [lastCommitted EXCEPT ![i] = lc]
              /\ lastProcessed' = [lastProcessed EXCEPT ![i] = lc]
              /\ committedLog' = Longest(committedLog, SubSeq(h, 1, lc))
        /\ DetachRoles({i})
        /\ DetachLeaderVars({i})
        /\ msgs' = ClearLink(msgs, i, j)
        /\ UNCHANGED <<acceptedEpoch, currentEpoch, durable, snapInMemory, up, envVars,
                       proposed, leaders, applied, watches, unresolvedEpoch, sessionVars,
                       zkGhostVars>>

(* BugUnsyncedAck: some of follower i's log entries, acknowledged to the  *)
(* leader, turn out not to be on disk (a follower that ACKs a PROPOSAL     *)
(* before its log write is synced, as forceSync=no does; Zab.tla logs a    *)
(* broadcast PROPOSAL in the step that receives it, so no Zab switch       *)
(* opens this window; 3911, 4646 and 4712 are the synchronization-phase    *)
(* members of the class, switches of their own). A later NodeCrash of i    *)
(* loses them, and with them, possibly, a write the leader committed and a *)
(* client saw complete.                                                    *)
ZkUnsyncedAck ==
    \E i \in Server :
        /\ BugUnsyncedAck
        /\ up[i] /\ state[i] = FOLLOWING /\ durable[i] > 0
        /\ \E d \in 0..(durable[i] - 1) : durable' = [durable EXCEPT ![i] = d]
        /\ UNCHANGED <<state, zabState, acceptedEpoch, currentEpoch, history, lastCommitted,
                       up, leaderOf, snapInMemory, leaderVars, msgs, envVars, ghostVars, zkVars>>

(* Each Zab action, with the service following it; one name per action so
   that counterexample traces say which protocol step happened. *)
(* LeaderLeaseTiming: "leaders realize they are not leaders before        *)
(* followers abandon them" (ZooKeeper paper, section 4.4). A quorum can    *)
(* only elect a new leader once every leader that is still up has stepped  *)
(* down (LeaderLoseQuorum). In the Java server this is a race of timeouts: *)
(* the leader steps down when it has not heard from a quorum within        *)
(* syncLimit ticks (checked every half tick), a follower abandons a silent *)
(* leader after syncLimit * tickTime; the new leader must then still be    *)
(* elected and establish its epoch. A leader paused longer than that       *)
(* margin (GC, a stalled disk, a frozen VM) breaks the assumption.         *)
LeaderLeaseHolds == LeaderLeaseTiming => \A l \in Server : ~(up[l] /\ state[l] = LEADING)
ZkElectLeader == \E i \in Server, Q \in SUBSET Server :
                    LeaderLeaseHolds /\ ElectLeader(i, Q) /\ ServiceFollows
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
ZkFollowerHandNEWLEADERToSyncThread ==
    \E i, j \in Server : FollowerHandNEWLEADERToSyncThread(i, j) /\ ServiceFollows
ZkSyncThreadWrite == \E i \in Server : SyncThreadWrite(i) /\ ServiceFollows

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
    \/ ZkFollowerHandNEWLEADERToSyncThread
    \/ ZkSyncThreadWrite
    \/ ZkFollowerFailsInDIFF
    \/ \E s \in Session, j \in Server : ClientCreateSession(s, j)
    \/ \E s \in Session, j \in Server : ClientConnect(s, j)
    \/ \E s \in Session : ClientDisconnect(s)
    \/ \E s \in Session, r \in Requests : ClientRequest(s, r)
    \/ \E s \in Session : LeaderProcessClientRequest(s)
    \/ \E s \in Session : ServerReply(s)
    \/ \E s \in Session : ClientReceive(s)
    \/ \E s \in Session : SessionExpire(s)
    \/ \E s \in Session : ResolveForwardedWrites(s)
    \/ ZkUnsyncedAck

ZkSpec == ZkInit /\ [][ZkNext]_allVars

----------------------------------------------------------------------------
(* Client-level properties.                                                *)

\* Type invariant of the service variables (with Zab's TypeOK).
ZkTypeOK ==
    /\ TypeOK
    /\ \A i \in Server : lastProcessed[i] \in 0..Len(history[i])
    /\ sessionState \in [Session -> {"none", "creating", "live"}]
    /\ sessServer \in [Session -> Server \cup {NoServer}]
    /\ \A s \in Session : Len(outstanding[s]) <= 2 /\ forwarded[s] \in 0..Len(outstanding[s])
    /\ nextCxid \in [Session -> Nat \ {0}]
    /\ \A s \in Session : sessServer[s] = NoServer => inbox[s] = <<>> /\ outstanding[s] = <<>>
    /\ ops \in 0..MaxOps /\ disconnects \in 0..MaxDisconnects
    /\ unresolvedEpoch \in [Session -> 0..MaxEpoch]
    /\ \A s \in Session : unresolvedEpoch[s] /= 0 => KeepConnections /\ sessServer[s] /= NoServer

ClientTxns(seq, s) == {k \in 1..Len(seq) : seq[k].value.sess = s /\ seq[k].value.cxid > 0}
Responses(s) == {k \in 1..Len(inbox[s]) : inbox[s][k].type /= "event"}

(* FifoClientOrder: a session's requests take effect, and are answered    *)
(* (reads included), in the order it sent them.                           *)
FifoClientOrder ==
    /\ \A i \in Server, s \in Session : \A a, b \in ClientTxns(applied[i], s) :
           a < b => applied[i][a].value.cxid < applied[i][b].value.cxid
    /\ \A s \in Session : \A a, b \in Responses(s) :
           a < b => inbox[s][a].cxid < inbox[s][b].cxid

(* LinearizableWrites (A-linearizability): a write whose response a client *)
(* received is in every serving tree that has passed its zxid, and a write *)
(* follows every write that completed before it was sent.                  *)
LinearizableWrites ==
    /\ \A c \in completed, i \in Server :
           Serving(i) /\ ~ZxidLT(LastApplied(i), c.zxid) => c \in Range(applied[i])
    /\ \A i \in Server : \A k \in 1..Len(applied[i]) :
           LET f == applied[i][k].value.floor
           IN f /= <<0, 0>> => \E x \in 1..(k - 1) : applied[i][x].zxid = f

(* ExactlyOnce: a client request takes effect at most once: no data tree   *)
(* holds two transactions of the same session and cxid (K2: a held write   *)
(* forwarded again only when the new history lacks it).                    *)
ExactlyOnce ==
    \A i \in Server : \A a, b \in 1..Len(applied[i]) :
        LET x == applied[i][a].value  y == applied[i][b].value
        IN x.cxid > 0 /\ x.sess = y.sess /\ x.cxid = y.cxid => a = b

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
           Hits(TriggersAt(committedLog, k), w) /\ ZxidLT(w.zxid, committedLog[k].zxid)
           => ZxidLT(lastZxidSeen[s], committedLog[k].zxid)
    /\ \A s \in Session : \A a, b \in 1..Len(inbox[s]) :
           /\ a < b /\ inbox[s][a].type = "event" /\ inbox[s][b].type = "event"
           /\ inbox[s][a].path = inbox[s][b].path /\ inbox[s][a].kind = inbox[s][b].kind
           => \E c \in (a + 1)..(b - 1) : /\ inbox[s][c].type = "read" /\ inbox[s][c].watch
                                          /\ inbox[s][c].path = inbox[s][a].path
                                          /\ inbox[s][c].kind = inbox[s][a].kind

\* SequentialUniqueness: no sequential name is ever given to two different creates.
SequentialUniqueness ==
    \A i \in Server : \A a, b \in 1..Len(applied[i]) :
        LET x == applied[i][a].value  y == applied[i][b].value
        IN x.op = "create" /\ y.op = "create" /\ x.name[2] > 0 /\ x.name = y.name => a = b

(* EphemeralLifetime: an ephemeral node lives within its session's life:   *)
(* its session was created before it, and once a server applied the        *)
(* session's closeSession, that server holds no ephemeral of it; nor does  *)
(* a serving server that counts the closeSession among the transactions it *)
(* has processed (the zxid it reports and serves from).                    *)
EphemeralLifetime ==
    \A i \in Server : \A n \in TreeOf(applied[i]) :
        n.owner /= NoOwner => /\ SessionCreatedIn(n.owner, applied[i])
                              /\ ~SessionClosedIn(n.owner, applied[i])
                              /\ Serving(i) => ~SessionClosedIn(n.owner,
                                                    SubSeq(history[i], 1, lastProcessed[i]))

\* ReplicaConsistency: every data tree is a prefix of the committed order (a replicated state machine).
ReplicaConsistency ==
    \A i \in Server : IsPrefix(applied[i], committedLog)
=============================================================================

--------------------------- MODULE MCZooKeeper5094 --------------------------
(* ZOOKEEPER-5094 under the service (MCZooKeeper_Bug5094): the shape and  *)
(* the start of MCZab5094.tla, with client requests as the transactions.  *)
EXTENDS MCZooKeeper

(* Roles as in MCZab5094: Fo leads only epoch 1, Ld only epoch 2, Wi only *)
(* epoch 3; Wi never follows Fo; links break between Fo and Ld, and        *)
(* between Ld and Wi once Fo has crashed; only Fo crashes; one epoch-1     *)
(* transaction (the orphan the TRUNC cuts). The session uses Ld only and   *)
(* sends only writes. The order the loss needs: Fo follows Ld once Ld      *)
(* delivered a transaction (the TRUNC then carries a committed one), the   *)
(* third transaction follows the second Fo-Ld link break, and the crash    *)
(* follows the client's receipt of the third transaction's answer.        *)
CONSTANTS Fo, Ld, Wi
Sess == CHOOSE s \in Session : TRUE
Shape5094 ==
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 1 => i = Fo
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 2 => i = Ld
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 3 => i = Wi
    /\ leaderOf[Wi] /= Fo
    /\ \A p \in partitioned : p \in {{Fo, Ld}, {Ld, Wi}}
    /\ {Ld, Wi} \in partitioned => crashes > 0
    /\ \A i \in Server : ~up[i] => i = Fo
    /\ Cardinality({t \in proposed : t.zxid[1] = 1}) <= 1
    /\ leaderOf[Fo] = Ld => committedLog /= <<>>
    /\ Cardinality({t \in proposed : t.zxid[1] = 2}) = 2 => partitions >= 2
    /\ crashes > 0 => Cardinality({t \in proposed : t.zxid[1] = 2}) = 2 /\ completed /= {}
    /\ sessServer[Sess] \in {NoServer, Ld}
    /\ \A k \in 1..Len(outstanding[Sess]) : outstanding[Sess][k].op \in {"createSession", "setData"}

(* The start: epoch 1 has just ended, as in MCZab5094's Epoch1EndedInit.  *)
(* Fo led epoch 1 with Ld; the session sent createSession to Fo, which     *)
(* proposed and logged it (T1); the Fo-Ld link broke before Ld got it, Fo  *)
(* stepped down, and the session's connection died with it (the session   *)
(* is not created; its next request number is 2). Every server is LOOKING. *)
T1 == [zxid |-> <<1, 1>>,
       value |-> [op |-> "createSession", sess |-> Sess, cxid |-> 1, eph |-> FALSE,
                  name |-> <<Root, 0>>, version |-> -1, floor |-> <<0, 0>>]]
Epoch1EndedInit ==
    /\ state = [i \in Server |-> LOOKING]
    /\ zabState = [i \in Server |-> ELECTION]
    /\ acceptedEpoch = [i \in Server |-> IF i = Wi THEN 0 ELSE 1]
    /\ currentEpoch = [i \in Server |-> IF i = Wi THEN 0 ELSE 1]
    /\ history = [i \in Server |-> IF i = Fo THEN <<T1>> ELSE <<>>]
    /\ durable = [i \in Server |-> IF i = Fo THEN 1 ELSE 0]
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
    /\ partitioned = {{Fo, Ld}}
    /\ crashes = 0
    /\ partitions = 1
    /\ proposed = {T1}
    /\ leaders = {<<1, Fo>>}
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
    /\ nextCxid = [s \in Session |-> 2]
    /\ completed = {}
    /\ ops = 0
    /\ disconnects = 0
ZkSpec5094 == Epoch1EndedInit /\ [][ZkNext]_allVars

\* The correct twin keeps the leader's late apply (the TRUNC followed by committed transactions).
AppliesLateOn == TRUE
=============================================================================

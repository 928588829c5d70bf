------------------------------ MODULE MCZab5094 -----------------------------
(* Model bounds of the ZOOKEEPER-5094 models: MCZab_Bug5094 (the switch)   *)
(* and MCZab_Fix5094 (the same model without it, the leader's late apply   *)
(* kept on so that the TRUNC path is the same).                            *)
EXTENDS MCZab

(* The shape fixes roles, as MCZab3642.tla does: Fo leads only epoch 1, Ld *)
(* only epoch 2, Wi only epoch 3; Wi never follows Fo, so Fo's epoch-1     *)
(* proposal can only sit on Fo and Ld; links break between Fo and Ld, and *)
(* between Ld and Wi once Fo has crashed (so that Ld, which delivered the   *)
(* lost transaction, steps down alive: PrimaryIntegrity looks at what live  *)
(* servers delivered); only Fo crashes. The transactions                   *)
(* are bounded per epoch: one in epoch 1 (the entry the TRUNC cuts), the   *)
(* others in epoch 2, none in epoch 3. The loss needs them all: Fo keeps   *)
(* an epoch-2 transaction that followed its TRUNC in memory, rejoins,      *)
(* acks the next one onto a log with a gap, and the leader commits it on   *)
(* that ack. The last three conjuncts fix that order. Every state the      *)
(* shape admits is a state of Spec from Epoch1EndedInit; the twin          *)
(* MCZab_Fix5094 searches the same shape.                                  *)
CONSTANTS Fo, Ld, Wi
Bug5094Shape ==
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 1 => i = Fo
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 2 => i = Ld
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 3 => i = Wi
    /\ leaderOf[Wi] /= Fo
    /\ \A p \in partitioned : p \in {{Fo, Ld}, {Ld, Wi}}
    /\ {Ld, Wi} \in partitioned => crashes > 0
    /\ \A i \in Server : ~up[i] => i = Fo
    /\ Cardinality({t \in proposed : t.zxid[1] = 1}) <= 1
    /\ \A t \in proposed : t.zxid[1] /= 3
    \* the order the loss needs: Fo follows Ld once Ld delivered t2 (the TRUNC then carries a
    \* committed transaction), Ld proposes t3 after the second Fo-Ld link break, crashes follow t3
    /\ leaderOf[Fo] = Ld => committedLog /= <<>>
    /\ Cardinality(proposed) = 3 => partitions >= 2
    /\ crashes > 0 => Cardinality(proposed) = 3

(* The models start where epoch 1 has just ended, a state Zab.tla reaches *)
(* in 11 steps from Init: Fo was elected by {Fo, Ld}, synced Ld, proposed  *)
(* t1 and logged it, then the Fo-Ld link broke before Ld got t1 (Ld left)  *)
(* and Fo stepped down for want of a quorum (LeaderLoseQuorum). Fo holds   *)
(* t1, durable and never committed; every server is LOOKING and the link   *)
(* is still broken. Starting there spares the search epoch 1, which the    *)
(* loss needs only for that orphan entry (the TRUNC cuts it).              *)
T1 == [zxid |-> <<1, 1>>, value |-> 1]
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
Spec5094 == Epoch1EndedInit /\ [][Next]_vars

\* The correct twin keeps the leader's late apply (the TRUNC followed by committed transactions).
AppliesLateOn == TRUE
=============================================================================

------------------------------ MODULE MCZab3642 -----------------------------
(* Model bounds of the ZOOKEEPER-3642 models: MCZab_Bug3642 (the switch)   *)
(* and MCZab_Fix3642 (the same model without it).                          *)
EXTENDS MCZab

(* The shape of the ZOOKEEPER-3642 models (MCZab_Bug3642 with the switch, *)
(* MCZab_Fix3642 without it), as the service spec's models fix roles      *)
(* (MCZooKeeper.tla): Fo may lead only epoch 1, Ld only epoch 2, and Wi never *)
(* follows Fo, so epoch 1 is Fo's and Ld's; its entry diverges from epoch *)
(* 2's; the only partition is Fo-Ld, crashes come after epoch 2 is          *)
(* established. Every protocol step stays possible inside it; it prunes    *)
(* which server leads and where faults fall, so a breadth-first search     *)
(* reaches the 40-step scenario (a SNAP, then a second sync) the bug       *)
(* needs (MCZab_Bug3642: PrimaryIntegrity at depth 46, 10.8M states). Its  *)
(* twin without the switch, MCZab_Fix3642, passes (12.2M states, depth 63). *)
CONSTANTS Fo, Ld, Wi
Bug3642Shape ==
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 1 => i = Fo
    /\ \A i \in Server : state[i] = LEADING /\ leaderEpoch[i] = 2 => i = Ld
    /\ leaderOf[Wi] /= Fo
    /\ \A p \in partitioned : p = {Fo, Ld}
    /\ crashes > 0 => \E l \in leaders : l = <<2, Ld>>
=============================================================================

------------------------------- MODULE MCZab -------------------------------
(* Model bounds for Zab.tla: server names, symmetry and the state         *)
(* constraint. The constants themselves are set in each MCZab*.cfg.        *)
EXTENDS Zab

\* Servers are interchangeable: TLC explores one representative per permutation.
ServerSymmetry == Permutations(Server)
=============================================================================

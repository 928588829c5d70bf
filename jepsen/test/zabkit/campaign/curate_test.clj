(ns zabkit.campaign.curate-test
  "rows.edn merging: a store run replaces the curated row of the same test only when it is newer."
  (:require [clojure.test :refer [deftest is testing]]
            [zabkit.campaign.curate :as curate]))

(defn- row [system run verdict]
  {:system system :workload "register" :nemesis "kill" :nodes 3 :run run :verdict verdict})

(deftest newer-run-wins
  (let [curated [(row "zookeeper" "20261122T0819" "valid") (row "zabkit" "20261122T1010" "valid")]]
    (testing "a newer store run replaces the curated row"
      (is (= #{"20261122T0819" "20261122T1100"}
             (set (map :run (curate/merge-rows curated [(row "zabkit" "20261122T1100" "INVALID (zk-check)")]))))))
    (testing "an older store run does not"
      (is (= #{"20261122T0819" "20261122T1010"}
             (set (map :run (curate/merge-rows curated [(row "zabkit" "20261122T0900" "INVALID (zk-check)")]))))))
    (testing "rows of other tests are kept, new tests are added"
      (is (= 3 (count (curate/merge-rows curated [(assoc (row "zabkit" "20261122T1100" "valid") :nodes 5)]))))))
    (testing "the same run again keeps a note added to its row"
      (is (= "checked by hand"
             (:note (first (filter #(= "zabkit" (:system %))
                                   (curate/merge-rows [(assoc (row "zabkit" "20261122T1010" "valid") :note "checked by hand")]
                                                      [(row "zabkit" "20261122T1010" "valid")]))))))))

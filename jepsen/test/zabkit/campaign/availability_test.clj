(ns zabkit.campaign.availability-test
  "The availability report's arithmetic on hand-written results: families, censored waits, CDFs."
  (:require [clojure.test :refer [deftest is testing]]
            [zabkit.campaign.availability :as av]))

(def results
  {:availability
   {:faults [{:fault :kill-leader :read-after-start {:delays [0.5 2.0] :censored 0}
              :write-after-start {:delays [1.0] :censored 1}}
             {:fault :kill-all :read-after-start {:delays [3.0] :censored 0}
              :write-after-start {:delays [] :censored 2}}
             {:fault :slow-client-leader :read-after-start {:delays [0.1] :censored 0}
              :write-after-start {:delays [0.2] :censored 0}}]}})

(deftest families
  (is (= :kill (av/fault-family :kill-leader)))
  (is (= :partition (av/fault-family :partition-halves)))
  (testing "a family whose name holds a hyphen is not cut at it"
    (is (= :slow-client (av/fault-family :slow-client-leader))))
  (is (thrown? AssertionError (av/fault-family :meteor-strike))))

(deftest samples-per-family-and-op
  (let [s (av/samples results)]
    (is (= [0.5 2.0 3.0] (get-in s [[:kill :read] :delays])))
    (is (= 0 (get-in s [[:kill :read] :censored])))
    (is (= 2 (get-in s [[:kill :read] :faults])))
    (testing "censored waits of every fault of the family add up"
      (is (= [1.0] (get-in s [[:kill :write] :delays])))
      (is (= 3 (get-in s [[:kill :write] :censored]))))
    (is (= [0.1] (get-in s [[:slow-client :read] :delays])))))

(deftest cdf-keeps-censored-in-the-denominator
  (is (= [[1.0 0.25] [2.0 0.5]] (av/cdf-points [2.0 1.0] 2)))
  (is (= [[1.0 1.0]] (av/cdf-points [1.0] 0)))
  (is (thrown? AssertionError (av/cdf-points [-1.0] 0))))

(deftest runs-with-too-few-faults-are-named
  (is (= ["zabkit under kill had 3 faults, fewer than 10"]
         (vec (av/short-runs [{:system "zabkit" :nemesis "kill" :results results}
                              {:system "zookeeper" :nemesis "kill"
                               :results {:availability {:faults (vec (repeat 10 {:fault :kill-all}))}}}])))))

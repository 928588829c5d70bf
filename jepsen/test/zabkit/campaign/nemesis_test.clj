(ns zabkit.campaign.nemesis-test
  "The partition grudges: what each target cuts, as properties over every ensemble size."
  (:require [clojure.test :refer [deftest is testing]]
            [zabkit.campaign.nemesis :as nemesis]))

(defn- nodes [n] (mapv #(str "n" %) (range 1 (inc n))))

(defn- hears
  "The nodes x hears under grudge g (itself included)."
  [g ns x]
  (set (remove (get g x #{}) ns)))

(deftest ring-cuts-are-two-way-and-leave-every-node-a-majority
  (doseq [n [3 4 5 6 7 8 9]]
    (let [ns (nodes n)
          g (nemesis/ring-grudge ns)
          majority (inc (quot n 2))]
      (testing (str n " nodes")
        (doseq [x ns, y (get g x)]
          (is (contains? (get g y) x) (str x " drops " y " but " y " hears " x ": a one-way cut")))
        (doseq [x ns]
          (is (>= (count (hears g ns x)) majority) (str x " hears no majority")))
        (is (some seq (vals g)) "the ring must cut something")
        (when (>= n 4)
          (is (= n (count (distinct (map #(hears g ns %) ns))))
              "every node hears a different majority"))))))

(deftest ring-on-three-nodes-is-the-bridge
  ;; the window of the earlier grudge cut n1->n3, n2->n1 and n3->n2 one way each: with TCP, a total partition
  (let [g (nemesis/ring-grudge ["a" "b" "c"])]
    (is (= #{"c"} (get g "a")))
    (is (= #{"a"} (get g "c")))
    (is (empty? (get g "b" #{})))))

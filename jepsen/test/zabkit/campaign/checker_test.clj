(ns zabkit.campaign.checker-test
  "Every workload checker, fed small hand-written histories: a legal one passes, and each kind of
  violation it claims to catch is caught."
  (:require [clojure.test :refer [deftest is testing]]
            [clojure.java.io :as io]
            [zabkit.campaign.checker :as checker]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.workload.register :as register]
            [zabkit.campaign.workload.sequential :as sequential]
            [zabkit.campaign.workload.lock :as lock]
            [zabkit.campaign.workload.multi :as multi]
            [zabkit.campaign.workload.watch :as watch]
            [zabkit.campaign.workload.session :as session]))

(defn- history
  "Builds a history from [process f invoke-time complete-time completion-fields] rows
  (complete-time nil = never completed); index and invoke/completion pairs are derived."
  [rows]
  (let [events (sort-by first
                        (mapcat (fn [[p f t0 t1 comp inv-extra]]
                                  (cond-> [[t0 (merge {:type :invoke :process p :f f :time t0} inv-extra)]]
                                    t1 (conj [t1 (merge {:process p :f f :time t1} comp)])))
                                rows))]
    (vec (map-indexed (fn [i [_ op]] (assoc op :index i)) events))))

(defn- check [checker rows]
  (let [hist (history rows)]
    (checker {:session-timeout 8000} hist (h/pairs hist))))

(def k "/register/k0")
(defn- st [v mzxid] {:version v :mzxid mzxid})

(deftest register-checker
  (testing "a legal history: writes chain versions, reads see written values, sessions monotonic"
    (is (true? (:valid? (check register/checker
                               [[0 :write 0 10 {:type :ok :path k :session 1 :stat (st 1 100)} {:path k :value "a"}]
                                [1 :cas 20 30 {:type :ok :path k :session 2 :stat (st 2 101)} {:path k :value [1 "b"]}]
                                [0 :read 40 50 {:type :ok :path k :session 1 :value "b" :stat (st 2 101)} {:path k}]
                                [1 :read 40 50 {:type :ok :path k :session 2 :value "b" :stat (st 2 101)} {:path k}]])))))
  (testing "two successful writes with the same version"
    (is (false? (:valid? (check register/checker
                                [[0 :write 0 10 {:type :ok :path k :session 1 :stat (st 1 100)} {:path k :value "a"}]
                                 [1 :write 0 10 {:type :ok :path k :session 2 :stat (st 1 101)} {:path k :value "b"}]])))))
  (testing "a cas that did not yield expected + 1"
    (is (false? (:valid? (check register/checker
                                [[0 :cas 0 10 {:type :ok :path k :session 1 :stat (st 3 100)} {:path k :value [0 "a"]}]])))))
  (testing "real time: a write that finished first has the higher version"
    (is (false? (:valid? (check register/checker
                                [[0 :write 0 10 {:type :ok :path k :session 1 :stat (st 2 101)} {:path k :value "a"}]
                                 [1 :write 20 30 {:type :ok :path k :session 2 :stat (st 1 100)} {:path k :value "b"}]])))))
  (testing "a read of a value nobody wrote"
    (is (false? (:valid? (check register/checker
                                [[0 :read 0 10 {:type :ok :path k :session 1 :value "zz" :stat (st 5 100)} {:path k}]])))))
  (testing "a session reading an older version than it wrote"
    (is (false? (:valid? (check register/checker
                                [[0 :write 0 10 {:type :ok :path k :session 1 :stat (st 1 100)} {:path k :value "a"}]
                                 [1 :write 20 30 {:type :ok :path k :session 2 :stat (st 2 101)} {:path k :value "b"}]
                                 [0 :write 40 50 {:type :ok :path k :session 1 :stat (st 3 102)} {:path k :value "c"}]
                                 [0 :read 60 70 {:type :ok :path k :session 1 :value "b" :stat (st 2 101)} {:path k}]]))))))

(defn- created [n] {:created-path (format "/seq/s-%010d" n)})

(deftest sequential-checker
  (let [ok-run [[0 :create 0 10 {:type :ok :session 1 :value (created 0)}]
                [1 :create 20 30 {:type :ok :session 2 :value (created 1)}]
                [0 :sync 40 50 {:type :ok}]
                [0 :get-children 60 70 {:type :ok :session 3 :value ["s-0000000000" "s-0000000001"]} {:final? true}]]]
    (is (true? (:valid? (check sequential/checker ok-run))))
    (testing "an acknowledged create missing from the final read"
      (is (false? (:valid? (check sequential/checker
                                  (assoc-in ok-run [3 4 :value] ["s-0000000000"]))))))
    (testing "numbers against real time"
      (is (false? (:valid? (check sequential/checker
                                  (-> ok-run (assoc-in [0 4 :value] (created 1)) (assoc-in [1 4 :value] (created 0))))))))
    (testing "a duplicate name"
      (is (false? (:valid? (check sequential/checker (assoc-in ok-run [1 4 :value] (created 0)))))))))

(deftest lock-checker
  (testing "holds one after another"
    (is (true? (:valid? (check lock/checker
                               [[0 :acquire 0 10 {:type :ok}] [0 :release 20 25 {:type :ok}]
                                [1 :acquire 5 30 {:type :ok}] [1 :release 40 45 {:type :ok}]])))))
  (testing "two holders at once"
    (is (false? (:valid? (check lock/checker
                                [[0 :acquire 0 10 {:type :ok}] [0 :release 40 45 {:type :ok}]
                                 [1 :acquire 5 30 {:type :ok}] [1 :release 50 55 {:type :ok}]])))))
  (testing "a hold ends when its holder saw the disconnect"
    (is (true? (:valid? (check lock/checker
                               [[0 :acquire 0 10 {:type :ok}] [0 :release 40 45 {:type :info :value {:lost-at 20}}]
                                [1 :acquire 5 30 {:type :ok}] [1 :release 50 55 {:type :ok}]]))))))

(defn- mread [& vs] (vec (for [[v ver] vs] {:type :ok :value v :stat {:version ver}})))
(def mread-inv {:value [{:f :get-data :path "/multi/k0"} {:f :get-data :path "/multi/k1"}]})
(defn- mwrite-inv [v] {:value [{:f :check :path "/multi/k0" :version 0}
                               {:f :set-data :path "/multi/k0" :value v} {:f :set-data :path "/multi/k1" :value v}]})

(deftest multi-checker
  (is (true? (:valid? (check multi/checker
                             [[0 :multi 0 10 {:type :ok :session 1 :value [{:type :ok} {:type :ok :stat {:version 1}} {:type :ok :stat {:version 1}}]} (mwrite-inv "a")]
                              [1 :multi 20 30 {:type :ok :session 2 :value (mread ["a" 1] ["a" 1])} mread-inv]]))))
  (testing "a partial transaction"
    (is (false? (:valid? (check multi/checker
                                [[1 :multi 20 30 {:type :ok :session 2 :value (mread ["a" 1] ["b" 1])} mread-inv]])))))
  (testing "a failed multi whose value is read"
    (is (false? (:valid? (check multi/checker
                                [[0 :multi 0 10 {:type :fail :session 1 :error :bad-version} (mwrite-inv "x")]
                                 [1 :multi 20 30 {:type :ok :session 2 :value (mread ["x" 1] ["x" 1])} mread-inv]]))))))

(deftest watch-checker
  (let [rd (fn [acted? gens] {:type :ok :value {:ready? true :acted? acted? :ready-gen (first gens) :configs (vec (rest gens))}})]
    (is (true? (:valid? (check watch/checker [[1 :read-config 0 10 (rd true ["3" "3" "3"])]
                                              [2 :read-config 0 10 (rd false ["3" "4" "3"])]]))))
    (testing "a reader that acted on a partial configuration"
      (is (false? (:valid? (check watch/checker [[1 :read-config 0 10 (rd true ["3" "4" "3"])]])))))))

(deftest session-checker
  (is (true? (:valid? (check session/checker [[0 :exists 0 10 {:type :ok :value true}]
                                              [0 :await-expiry 20 30 {:type :ok :value []}]]))))
  (testing "an ephemeral gone while its session lives"
    (is (false? (:valid? (check session/checker [[0 :exists 0 10 {:type :ok :value false}]
                                                 [0 :await-expiry 20 30 {:type :ok :value []}]])))))
  (testing "an ephemeral that outlived its session"
    (is (false? (:valid? (check session/checker [[0 :await-expiry 20 30 {:type :ok :value ["e-1-0000000001"]}]]))))))

;; ---------------------------------------------------------------------------------------------
;; what the campaign hands to check/bin/zk-check

(deftest zk-check-history-keeps-only-documented-ops
  (let [hist [{:index 0 :type :invoke :process 1000000 :f :create :path "/register" :value {:data "" :mode :persistent}}
              {:index 1 :type :invoke :process 0 :f :acquire :value nil}
              {:index 2 :type :info :process :nemesis :f :NodeCrash :value {:fault :kill-leader}}
              {:index 3 :type :invoke :process 1 :f :multi :value []}
              {:index 4 :type :invoke :process 2 :f :read-config :value nil}
              {:index 5 :type :ok :process 2 :f :watch-event :value {:event :node-deleted :path "/cfg/ready"}}
              {:index 6 :type :invoke :process 3 :f :await-expiry :value nil}
              {:index 7 :type :invoke :process 3 :f :read :path "/register/k0" :value nil}]]
    (testing "documented client ops (:multi included) and nemesis ops stay, with their :index; campaign composites go"
      (let [{:keys [ops excluded]} (checker/zk-check-history {} hist)]
        (is (= [0 2 3 5 7] (mapv :index ops)))
        (is (= {:acquire 1 :read-config 1 :await-expiry 1} excluded))))
    (testing "a workload's own exclusions (the watch workload's events)"
      (let [{:keys [ops excluded]} (checker/zk-check-history (watch/workload {}) hist)]
        (is (= [0 2 3 7] (mapv :index ops)))
        (is (= 1 (:watch-event excluded)))))))

(defn- zk-check-on [ops]
  (let [dir (.toFile (java.nio.file.Files/createTempDirectory "zk-check-test" (make-array java.nio.file.attribute.FileAttribute 0)))]
    (try
      (let [r (checker/zk-check {:store (.getPath dir) :workload {}} ops)]
        (assoc r :results-written? (.exists (io/file dir "zk-check.edn"))
               :campaign-results-untouched? (not (.exists (io/file dir "results.edn")))))
      (finally (doseq [f (reverse (file-seq dir))] (io/delete-file f true))))))

(deftest zk-check-replays-the-setup-creates
  (if-not (.canExecute (io/file (db/repo-root) "check" "bin" "zk-check"))
    (is false "check/bin/zk-check is missing")
    (let [sess 4294967296
          z0 0x100000001 z1 0x100000002 z2 0x100000003
          setup [{:index 0 :type :invoke :process 1000000 :f :create :path "/register" :session sess :value {:data "" :mode :persistent} :time 1}
                 {:index 1 :type :ok :process 1000000 :f :create :path "/register" :session sess :value {:data "" :mode :persistent :created-path "/register"} :time 2 :zxid z0 :stat {:czxid z0 :mzxid z0 :version 0}}
                 {:index 2 :type :invoke :process 1000000 :f :create :path "/register/k0" :session sess :value {:data "" :mode :persistent} :time 3}
                 {:index 3 :type :ok :process 1000000 :f :create :path "/register/k0" :session sess :value {:data "" :mode :persistent :created-path "/register/k0"} :time 4 :zxid z1 :stat {:czxid z1 :mzxid z1 :version 0}}]
          work [{:index 4 :type :info :process :nemesis :f :NodeCrash :value {:fault :kill-leader :fault-id 1} :time 5}
                {:index 5 :type :invoke :process 0 :f :write :path "/register/k0" :session (inc sess) :version -1 :value "7" :time 6}
                {:index 6 :type :ok :process 0 :f :write :path "/register/k0" :session (inc sess) :version -1 :value "7" :time 7 :zxid z2 :stat {:czxid z1 :mzxid z2 :version 1}}
                {:index 7 :type :invoke :process 1 :f :acquire :value nil :time 8}]]
      (testing "with the setup creates recorded, a legal register history passes"
        (let [r (zk-check-on (into setup work))]
          (is (true? (:valid? r)) (pr-str r))
          (is (:results-written? r))
          (is (:campaign-results-untouched? r))
          (is (= {:acquire 1} (:excluded r)))))
      (testing "without them the same write is unexplained (the bug this guards against)"
        (is (false? (:valid? (zk-check-on work))))))))

(deftest nemesis-check-fails-runs-whose-faults-did-not-happen
  (let [nem (fn [f value] {:type :info :process :nemesis :f f :value value})]
    (testing "faults that were injected and healed"
      (let [r (checker/nemesis-check [(nem :PartitionStart {:fault :partition-leader :fault-id 0 :grudge {}})
                                      (nem :PartitionRecover {:fault :partition-leader :fault-id 0 :grudge {}})])]
        (is (true? (:valid? r)))
        (is (= 1 (:faults r)))))
    (testing "a fault the nemesis could not inject (the ssh backend's missing chain) is not a pass"
      (let [r (checker/nemesis-check
               [(assoc (nem :PartitionStart {:fault :partition-halves :fault-id 0
                                             :error "iptables on n2 failed: iptables: No chain/target/match by that name."})
                       :index 7)
                (nem :PartitionRecover {:fault :partition-halves :fault-id 0})])]
        (is (= :unknown (:valid? r)))
        (is (= 1 (:error-count r)))
        (is (= 7 (:index (first (:errors r)))))))))

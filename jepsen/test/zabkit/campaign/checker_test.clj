(ns zabkit.campaign.checker-test
  "The workload checkers that remain (what zk-check cannot express: lock holders, the ready-znode
  reader's view, ephemerals' liveness), fed small hand-written histories: a legal one passes, and
  each kind of violation it claims to catch is caught. Then what the campaign hands zk-check, and
  that zk-check, the register, sequential and multi workloads' only oracle, catches the violations
  their own checkers used to (histories with reply zxids, as the campaign now records them)."
  (:require [clojure.test :refer [deftest is testing]]
            [clojure.java.io :as io]
            [zabkit.campaign.checker :as checker]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.workload.lock :as lock]
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

(deftest watch-checker
  (let [rd (fn [acted? gens] {:type :ok :value {:ready? true :acted? acted? :ready-gen (first gens) :configs (vec (rest gens))}})]
    (is (true? (:valid? (check watch/checker [[1 :read-config 0 10 (rd true ["3" "3" "3"])]
                                              [2 :read-config 0 10 (rd false ["3" "4" "3"])]]))))
    (testing "a reader that acted on a partial configuration"
      (is (false? (:valid? (check watch/checker [[1 :read-config 0 10 (rd true ["3" "4" "3"])]])))))))

(deftest session-checker
  (is (true? (:valid? (check session/checker [[0 :exists 0 10 {:type :ok :value true}]
                                              [0 :await-expiry 20 30 {:type :ok :value []}]]))))
  (testing "an ephemeral that outlived its session"
    (is (false? (:valid? (check session/checker [[0 :await-expiry 20 30 {:type :ok :value ["e-1-0000000001"]}]])))))
  (testing "no final list: nothing was checked"
    (is (= :unknown (:valid? (check session/checker [[0 :exists 0 10 {:type :ok :value true}]]))))))

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
    (testing "a workload's own exclusions (:zk-check-exclude)"
      (let [{:keys [ops excluded]} (checker/zk-check-history {:zk-check-exclude #{:watch-event}} hist)]
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

;; ---------------------------------------------------------------------------------------------
;; zk-check as the register, sequential and multi workloads' oracle: violations planted by hand in
;; campaign-shaped histories (setup creates, reply zxids on every completion)

(def ^:private epoch 0x100000000)
(defn- z [n] (+ epoch n))

(defn- campaign-history
  "Setup creates of /r and /r/k0, /r/k1 (zxids 1-3, session 9), then rows
  [process session f invoke-fields completion-fields] each invoked and completed in turn."
  [rows]
  (let [setup (mapcat (fn [i p] (let [zx (z (inc i))]
                                  [{:type :invoke :process (+ 1000000 i) :f :create :path p :session 9 :value {:data "" :mode :persistent}}
                                   {:type :ok :process (+ 1000000 i) :f :create :path p :session 9 :zxid zx
                                    :value {:data "" :mode :persistent :created-path p} :stat {:czxid zx :mzxid zx :version 0}}]))
                      (range) ["/r" "/r/k0" "/r/k1"])
        work (mapcat (fn [[p sess f inv comp]]
                       [(merge {:type :invoke :process p :f f :session sess} inv)
                        (merge {:type :ok :process p :f f :session sess} inv comp)])
                     rows)]
    (vec (map-indexed (fn [i op] (assoc op :index i :time (* 10 (inc i)))) (concat setup work)))))

(defn- w [p sess data zx version] [p sess :write {:path "/r/k0" :value data :version -1}
                                   {:zxid zx :stat {:mzxid zx :version version}}])
(defn- rd [p sess data zx mzxid version] [p sess :read {:path "/r/k0" :value nil}
                                          {:value data :zxid zx :stat {:mzxid mzxid :version version}}])

(defn- zk-check-verdict [rows]
  (let [r (zk-check-on (campaign-history rows))]
    (assert (:available? r) "zk-check ran")
    r))

(deftest zk-check-is-the-register-and-multi-oracle
  (if-not (.canExecute (io/file (db/repo-root) "check" "bin" "zk-check"))
    (is false "check/bin/zk-check is missing")
    (let [legal [(w 0 1 "a" (z 4) 1)
                 (w 1 2 "b" (z 5) 2)
                 ;; a stale read of another session is legal: it has seen nothing newer
                 (rd 2 3 "a" (z 4) (z 4) 1)
                 (rd 0 1 "b" (z 5) (z 5) 2)
                 [1 2 :sync {:path "/r/k0" :value nil} {:zxid (z 5)}]
                 (rd 1 2 "b" (z 5) (z 5) 2)]]
      (testing "a legal history with stale reads, syncs and reply zxids"
        (let [r (zk-check-verdict legal)]
          (is (true? (:valid? r)) (pr-str r))
          (is (pos? (get-in r [:properties :MonotonicReads :count] 0)) (pr-str (:properties r)))
          (is (pos? (get-in r [:properties :SyncReads :count] 0)) (pr-str (:properties r)))))
      (testing "two acknowledged writes with one version"
        (is (false? (:valid? (zk-check-verdict [(w 0 1 "a" (z 4) 1) (w 1 2 "b" (z 5) 1)])))))
      (testing "a read of a value nobody wrote"
        (is (false? (:valid? (zk-check-verdict [(w 0 1 "a" (z 4) 1) (rd 1 2 "zz" (z 4) (z 4) 1)])))))
      (testing "a session reading the state from before its own acknowledged write (MonotonicReads)"
        (let [r (zk-check-verdict [(w 0 1 "a" (z 4) 1) (w 1 2 "b" (z 5) 2)
                                   (rd 0 1 "a" (z 4) (z 4) 1)
                                   (w 0 1 "c" (z 6) 3)
                                   (rd 0 1 "b" (z 5) (z 5) 2)])]
          (is (false? (:valid? r)))
          (is (some #{:MonotonicReads} (:failures r)) (pr-str (:failures r)))))
      (testing "a read after a sync that misses a write completed before the sync (SyncReads)"
        (let [r (zk-check-verdict [(w 0 1 "a" (z 4) 1) (w 1 2 "b" (z 5) 2)
                                   [2 3 :sync {:path "/r/k0" :value nil} {:zxid (z 5)}]
                                   (rd 2 3 "a" (z 4) (z 4) 1)])]
          (is (false? (:valid? r)))
          (is (some #{:SyncReads} (:failures r)) (pr-str (:failures r)))))
      (testing "a read-only multi that sees two values of one multi write at its one zxid (atomicity)"
        (let [mw [0 1 :multi {:value [{:f :set-data :path "/r/k0" :value "m" :version -1}
                                      {:f :set-data :path "/r/k1" :value "m" :version -1}]}
                  {:zxid (z 4) :value [{:type :ok :stat {:mzxid (z 4) :version 1}} {:type :ok :stat {:mzxid (z 4) :version 1}}]}]
              mr (fn [v1] [1 2 :multi {:value [{:f :get-data :path "/r/k0"} {:f :get-data :path "/r/k1"}]}
                           {:zxid (z 4) :value [{:type :ok :value "m" :stat {:mzxid (z 4) :version 1}}
                                                {:type :ok :value v1 :stat (if (= v1 "m") {:mzxid (z 4) :version 1} {:mzxid (z 3) :version 0})}]}])]
          (is (true? (:valid? (zk-check-verdict [mw (mr "m")]))))
          (is (false? (:valid? (zk-check-verdict [mw (mr "")])))))))))

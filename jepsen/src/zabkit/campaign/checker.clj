(ns zabkit.campaign.checker
  "Checkers, composed as Jepsen composes them: the workload's own checker, stats, a scan of the
  server logs, the project's history checker (check/bin/zk-check, with its Porcupine cross-check)
  when it is there, and availability figures. Verdicts merge as Jepsen's do: false beats
  :unknown beats true."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.edn :as edn]
            [zabkit.campaign.client :as c]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.util :as u]))

(defn merge-valid [vs]
  (cond (some false? vs) false
        (some #(= :unknown %) vs) :unknown
        :else true))

(defn stats
  "Counts per :f and type; like Jepsen's stats checker, a run in which some :f never succeeded
  is not valid (the test exercised nothing)."
  [pairs]
  (let [by-f (group-by (comp :f first) pairs)
        per-f (into (sorted-map)
                    (for [[f ps] by-f]
                      [f (merge {:ok 0 :fail 0 :info 0}
                                (frequencies (map #(or (:type (second %)) :info) ps)))]))
        ignored #{:connect}
        never-ok (vec (for [[f m] per-f :when (and (not (ignored f)) (zero? (:ok m)))] f))]
    {:valid? (empty? never-ok)
     :count (count pairs)
     :ok-count (count (filter #(= :ok (:type (second %))) pairs))
     :by-f per-f
     :never-ok never-ok}))

(defn- zk-check-bin [] (io/file (db/repo-root) "check" "bin" "zk-check"))

(defn setup-op?
  "An op of the setup client (the workload's znodes), not of a worker."
  [op]
  (and (integer? (:process op)) (<= c/setup-process-base (:process op) (dec c/sub-process-base))))

(defn part-op?
  "A request inside a composite op, recorded as an op of its own for zk-check (the watch
  workload's): the composite is what the workload checker, the stats and availability count."
  [op]
  (some? (:part-of op)))

(def zk-check-fs
  "The client :f values of check/README.md (history format v1); zk-check replays :multi atomically."
  #{:create :delete :set-data :write :cas :get-data :read :exists :get-children :sync :multi
    :close-session :watch-event :session-expired :connect})

(defn zk-check-history
  "What zk-check is given: history.edn without the ops its format does not define (campaign
  composites such as :acquire, :read-config, :await-expiry), nor the :f values the
  workload excludes (:zk-check-exclude; none does now). Nemesis ops stay: zk-check reads and skips them. Ops keep
  their :index, so a witness points into history.edn. Returns {:ops [...] :excluded {f count}}."
  [workload history]
  (let [extra (set (:zk-check-exclude workload))
        keep? (fn [op] (or (= :nemesis (:process op))
                           (and (zk-check-fs (:f op)) (not (extra (:f op))))))
        {kept true dropped false} (group-by (comp boolean keep?) history)]
    {:ops (vec kept)
     :excluded (into (sorted-map) (frequencies (map :f dropped)))}))

(defn- write-edn-lines! [file ops]
  (binding [*print-namespace-maps* false *print-length* nil *print-level* nil]
    (with-open [w (io/writer file)]
      (doseq [op ops] (.write w (pr-str op)) (.write w "\n")))))

(defn property-counts
  "Per property of zk-check's summary (zk-check.edn: {:valid? .. :MonotonicReads {:valid? :count
  :violations} ...}): {:MonotonicReads {:valid? true :count 812 :violations 0} ...}, in the
  summary's own order; how many operations each property looked at, so a property that checked
  nothing shows as such."
  [summary]
  (into (sorted-map)
        (for [[k v] summary :when (and (keyword? k) (map? v) (contains? v :count))]
          [k (select-keys v [:valid? :count :violations])])))

(defn zk-check
  "The project's history checker (ZooKeeper semantics + Porcupine cross-check). Exit 0 = valid,
  1 = a property violated, 2 = bad input. It checks zk-check-history.edn (see zk-check-history) and
  writes its summary to zk-check.edn, next to, not over, the campaign's results.edn."
  [test history]
  (let [bin (zk-check-bin)
        hist (io/file (:store test) "zk-check-history.edn")
        results-file (io/file (:store test) "zk-check.edn")]
    (if-not (.canExecute bin)
      {:valid? :unknown :available? false
       :reason (str bin " not found (the checkers issue has not landed here yet); "
                    "the workload's own checker still ran")}
      (let [{:keys [ops excluded]} (zk-check-history (:workload test) history)
            _ (write-edn-lines! hist ops)
            r (u/sh! [(.getPath bin) (.getPath hist) "--out" (.getPath results-file)] :check? false :timeout-ms 600000)
            out-file (io/file (:store test) "zk-check.out")
            summary (when (.exists results-file)
                      (try (edn/read-string (slurp results-file))
                           (catch Exception _ nil)))]
        (spit out-file (str (:out r) (:err r)))
        {:valid? (case (long (:exit r)) 0 true 1 false :unknown)
         :available? true :exit (:exit r)
         :history (.getPath hist) :ops (count ops) :excluded excluded
         :results (when (.exists results-file) (.getPath results-file))
         :failures (:failures summary)
         :properties (property-counts summary)
         :output (.getPath out-file)
         :summary (let [lines (str/split-lines (str (:out r) (:err r)))] (vec (take-last 5 lines)))}))))

;; ---------------------------------------------------------------------------------------------
;; availability

(defn- fault-windows
  "[{:fault :fault-id :start ns :stop ns}] from the nemesis ops."
  [history]
  (let [starts (set (map first (vals nemesis/fault-names)))
        nem (filter #(= :nemesis (:process %)) history)
        by-id (group-by (comp :fault-id :value) nem)]
    (vec (for [[id ops] (sort-by key by-id) :when id
               :let [s (first (filter #(starts (:f %)) ops))
                     e (first (remove #(starts (:f %)) ops))]
               :when s]
           {:fault (get-in s [:value :fault]) :fault-id id :f (:f s)
            :start (:time s) :stop (:time e) :value (:value s)}))))

(defn- worker-of [test process] (if (integer? process) (mod process (:concurrency test)) process))

(defn- first-ok-after
  "Per worker: seconds from t until the completion of the first ok op (invoked at or after t)
  for which (fs op) holds. Workers that never got one are counted as censored."
  [test pairs t fs]
  (let [by-worker (->> pairs
                       (group-by (comp #(worker-of test %) :process first))
                       ;; a client that never does such an op (e.g. the watch writer's reads) is not waiting
                       (filter (fn [[_ ps]] (some (fn [[inv _]] (fs inv)) ps))))]
    (reduce (fn [acc [_ ps]]
              (if-let [[_ comp] (first (filter (fn [[inv comp]]
                                                 (and (fs inv) (>= (:time inv) t)
                                                      (= :ok (:type comp))))
                                               ps))]
                (update acc :delays conj (u/ns->s (- (:time comp) t)))
                (update acc :censored inc)))
            {:delays [] :censored 0}
            by-worker)))

(defn- watch-delays
  "Per worker: seconds from t until the first watch event it received after t."
  [test history t]
  (let [evs (filter #(and (= :watch-event (:f %)) (>= (:time %) t)) history)
        firsts (reduce (fn [m e] (let [w (worker-of test (:process e))]
                                   (if (m w) m (assoc m w (:time e)))))
                       {} evs)]
    (mapv #(u/ns->s (- % t)) (vals firsts))))

(defn availability
  "For every fault: how long until each client's next successful read and write, from the fault's
  start and from its end; for the watch workload, how long until each client's watches fire again.
  Distributions in seconds, per fault kind and over all faults."
  [test history pairs]
  (let [wl (:workload test)
        pred (fn [p s] (or p (when (seq s) (comp s :f))))
        wl (assoc wl :reads (pred (:read? wl) (:reads wl)) :writes (pred (:write? wl) (:writes wl)))
        windows (fault-windows history)
        per-fault (for [w windows]
                    (let [after (fn [t fs] (when (and t fs) (first-ok-after test pairs t fs)))
                          r (after (:start w) (:reads wl))
                          wr (after (:start w) (:writes wl))
                          rr (after (:stop w) (:reads wl))
                          wrr (after (:stop w) (:writes wl))]
                      (cond-> {:fault (:fault w) :fault-id (:fault-id w)
                               :start-s (u/ns->s (:start w)) :stop-s (some-> (:stop w) u/ns->s)
                               :read-after-start r :write-after-start wr
                               :read-after-stop rr :write-after-stop wrr}
                        (:watch? wl) (assoc :watch-after-start (watch-delays test history (:start w))))))
        summarize (fn [fs k]
                    (let [xs (mapcat #(get-in % [k :delays]) fs)]
                      (assoc (u/distribution xs) :censored (reduce + (map #(get-in % [k :censored] 0) fs)))))
        group (fn [fs]
                (cond-> {:faults (count fs)
                         :read-after-start (summarize fs :read-after-start)
                         :write-after-start (summarize fs :write-after-start)
                         :read-after-stop (summarize fs :read-after-stop)
                         :write-after-stop (summarize fs :write-after-stop)}
                  (:watch? wl) (assoc :watch-unavailable
                                      (u/distribution (mapcat :watch-after-start fs)))))]
    {:unit "seconds; :censored = clients with no such success before the history ended"
     :reads (:reads-doc (:workload test)) :writes (:writes-doc (:workload test))
     :by-fault (into (sorted-map) (for [[k fs] (group-by :fault per-fault)] [k (group fs)]))
     :all (group per-fault)
     :faults (vec per-fault)}))

(defn nemesis-check
  "Faults the nemesis could not inject or heal (an iptables, ssh or kill that failed: the error is
  in the nemesis op's value). A run whose faults did not happen did not test what it claims, so
  its verdict is :unknown (with --strict, a failure), never a pass."
  [history]
  (let [errs (filter #(and (= :nemesis (:process %)) (get-in % [:value :error])) history)]
    {:valid? (if (seq errs) :unknown true)
     :faults (count (filter #(and (= :nemesis (:process %))
                                  ((set (map first (vals nemesis/fault-names))) (:f %)))
                            history))
     :error-count (count errs)
     :errors (vec (for [op (take 5 errs)]
                    {:index (:index op) :f (:f op) :fault (get-in op [:value :fault])
                     :error (get-in op [:value :error])}))}))

(defn check
  "Every checker; returns the results map. A workload without a :checker of its own (register,
  sequential, multi) has zk-check as its only oracle: without zk-check its verdict is :unknown."
  [test history phases]
  (let [pairs (h/pairs history)
        client-pairs (remove (fn [[inv _]] (or (= :connect (:f inv)) (setup-op? inv) (part-op? inv))) pairs)
        wl-checker (:checker (:workload test))
        wl-result (if wl-checker
                    (try (wl-checker test history client-pairs)
                         (catch Exception e {:valid? :unknown :error (str e)}))
                    ;; no :valid?: nothing was checked here, so nothing is claimed
                    {:checks "none of its own: zk-check is this workload's oracle"})
        st (stats (remove (comp #(or (setup-op? %) (part-op? %)) first) pairs))
        logs (db/scan-logs test)
        nem (nemesis-check history)
        ext (zk-check test history)
        avail (availability test history client-pairs)
        valid (merge-valid [(get wl-result :valid? true) (:valid? st) (:valid? logs) (:valid? nem)
                            (cond (:available? ext) (:valid? ext)
                                  wl-checker true
                                  :else :unknown)])]
    {:valid? valid
     :name (:name test)
     :system (:system test) :sut (:sut test) :workload (:workload-name test) :nemesis (:nemesis test)
     :seed (:seed test)
     :nodes (:nodes test) :time-limit (:time-limit test) :rate (:rate test)
     :concurrency (:concurrency test)
     :phases-s (into (sorted-map) (for [[k v] phases] [k (u/ns->s v)]))
     :workload-check wl-result
     :stats st
     :server-logs logs
     :nemesis-check nem
     :zk-check ext
     :availability avail}))

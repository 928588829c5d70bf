(ns zabkit.campaign.workload.register
  "register: a few znodes used as registers. read = getData, write = setData(-1),
  cas = setData with an expected version (ZooKeeper's compare-and-set).
  The checker uses what ZooKeeper promises and no more: writes are linearizable
  (LinearizableWrites: every successful write makes exactly one new version, and a write that
  finished before another began has the lower version; a cas yields expected-version + 1); reads
  may be stale but never invented or from the future, and within a session never go back
  (MonotonicReads, and read-your-writes from FifoClientOrder)."
  (:require [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper)
           (org.apache.zookeeper.data Stat)))

(def root "/register")
(defn key-path [k] (str root "/k" k))

(defrecord RegisterClient [conn]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil)))
  (setup! [_ test]
    (let [^ZooKeeper zk (:zk conn)]
      (c/ensure-path! test conn root)
      (dotimes [k (:keys test)] (c/ensure-path! test conn (key-path k)))))
  (invoke! [_ test op]
    (let [^ZooKeeper zk (:zk conn)
          ^String path (:path op)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :read (c/with-errors op true
                (let [st (Stat.)
                      data (c/bytes->str (.getData zk path false st))]
                  (assoc op :type :ok :value data :stat (c/stat->map st))))
        :write (c/with-errors op false
                 (let [st (.setData zk path (c/str->bytes (:value op)) -1)]
                   (assoc op :type :ok :stat (c/stat->map st) :zxid (.getMzxid st))))
        :cas (c/with-errors op false
               (let [[v data] (:value op)
                     st (.setData zk path (c/str->bytes data) (int v))]
                 (assoc op :type :ok :stat (c/stat->map st) :zxid (.getMzxid st)))))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator
  "50% reads, 25% blind writes, 25% cas on the version this worker last saw."
  [test wstate]
  (let [k (rand-int (:keys test))
        path (key-path k)
        seen (get-in @wstate [:versions path] 0)
        v (str (swap! (:value-counter test) inc))
        r (rand)]
    (cond (< r 0.5) {:f :read :path path :value nil}
          (< r 0.75) {:f :write :path path :version -1 :value v}
          :else {:f :cas :path path :version seen :value [seen v]})))

(defn observe!
  "Remembers the version a worker saw, for its next cas."
  [wstate op]
  (when-let [v (get-in op [:stat :version])]
    (swap! wstate assoc-in [:versions (:path op)] v)))

(defn final-ops [test _worker]
  (for [k (range (:keys test))] {:f :read :path (key-path k) :value nil}))

;; ---------------------------------------------------------------------------------------------
;; checker

(defn- written-data [op] (if (= :cas (:f op)) (second (:value op)) (:value op)))

(defn- check-path [path pairs]
  (let [writes (filter (fn [[inv _]] (#{:write :cas} (:f inv))) pairs)
        ok-writes (for [[inv comp] writes :when (= :ok (:type comp))]
                    {:inv inv :comp comp :version (get-in comp [:stat :version])
                     :mzxid (get-in comp [:stat :mzxid]) :data (written-data inv)})
        maybe-data (set (for [[inv comp] writes :when (not= :fail (:type comp))] (written-data inv)))
        by-version (group-by :version ok-writes)
        errors (transient [])
        err! (fn [e] (conj! errors (assoc e :path path)))]
    ;; one version, one write
    (doseq [[v ws] by-version :when (> (count ws) 1)]
      (err! {:error :duplicate-version :version v :ops (mapv #(:index (:comp %)) ws)}))
    ;; cas: expected + 1
    (doseq [w ok-writes :when (= :cas (:f (:inv w)))
            :let [expected (first (:value (:inv w)))]
            :when (not= (:version w) (inc expected))]
      (err! {:error :cas-version :expected expected :got (:version w) :op (:index (:comp w))}))
    ;; version order agrees with zxid order and with real time
    (let [sorted (vec (sort-by :version ok-writes))]
      (doseq [[a b] (partition 2 1 sorted) :when (>= (:mzxid a) (:mzxid b))]
        (err! {:error :zxid-order :versions [(:version a) (:version b)]}))
      (loop [i (dec (count sorted)) min-later-complete Long/MAX_VALUE]
        (when (>= i 0)
          (let [w (nth sorted i)]
            (when (< min-later-complete (:time (:inv w)))
              (err! {:error :real-time-order :version (:version w) :op (:index (:comp w))
                     :reason "a write with a higher version completed before this one was invoked"}))
            (recur (dec i) (min min-later-complete (:time (:comp w))))))))
    ;; reads: a value someone wrote (or the initial one), the version's value, not from the future
    (doseq [[inv comp] pairs :when (and (= :read (:f inv)) (= :ok (:type comp)))
            :let [v (get-in comp [:stat :version])
                  d (:value comp)
                  w (first (by-version v))]]
      (cond
        (and (= v 0) (= d "")) nil
        w (do (when (not= d (:data w))
                (err! {:error :read-wrong-data :version v :read d :written (:data w) :op (:index comp)}))
              (when (> (:time (:inv w)) (:time comp))
                (err! {:error :read-from-future :version v :op (:index comp)})))
        (not (maybe-data d)) (err! {:error :read-unwritten :version v :read d :op (:index comp)})))
    ;; per session: versions never go back (own writes included)
    (doseq [[sid ops] (group-by (comp :session second)
                                (filter (fn [[_ comp]] (and (= :ok (:type comp)) (:stat comp))) pairs))
            :let [ops (sort-by (comp :index second) ops)]]
      (reduce (fn [hi [_ comp]]
                (let [v (get-in comp [:stat :version])]
                  (when (< v hi)
                    (err! {:error :monotonic-reads :session sid :saw v :after hi :op (:index comp)}))
                  (max hi v)))
              -1 ops))
    (let [errs (persistent! errors)]
      {:valid? (empty? errs) :ok-writes (count ok-writes) :errors (vec (take 20 errs))
       :error-count (count errs)})))

(defn checker [_test history pairs]
  (let [by-path (group-by (comp :path first) pairs)
        results (into (sorted-map) (for [[p ps] by-path :when p] [p (check-path p ps)]))]
    {:valid? (every? :valid? (vals results))
     :checks "LinearizableWrites (versions, cas, zxid and real-time order), reads of written values, MonotonicReads per session"
     :paths results}))

(defn workload [_opts]
  {:reads-doc "read" :writes-doc "write, cas"
   :client (->RegisterClient nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   :checker checker
   :reads #{:read}
   :writes #{:write :cas}})

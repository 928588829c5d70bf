(ns zabkit.campaign.workload.multi
  "multi: transactions over several znodes. A write is one multi that checks the version of the
  first znode (as last seen by this client) and sets every znode to the same new value; a read is
  a read-only multi (getData of every znode, ZooKeeper 3.6+). Since znodes only ever change
  together, the checker demands atomicity: every successful read sees one value and one version
  across all znodes; a failed multi changes nothing (its value is never read); each successful
  multi produces one new version (LinearizableWrites), and a session's versions never go back."
  (:require [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper Op OpResult OpResult$SetDataResult OpResult$GetDataResult
                                 OpResult$ErrorResult KeeperException KeeperException$Code)))

(def root "/multi")

(defn key-paths [test] (mapv #(str root "/k" %) (range (:keys test))))

(defn- sub-result [^OpResult r]
  (cond
    (instance? OpResult$SetDataResult r) {:type :ok :stat (c/stat->map (.getStat ^OpResult$SetDataResult r))}
    (instance? OpResult$GetDataResult r) {:type :ok :value (c/bytes->str (.getData ^OpResult$GetDataResult r))
                                          :stat (c/stat->map (.getStat ^OpResult$GetDataResult r))}
    (instance? OpResult$ErrorResult r) {:type :fail :error (c/code->keyword (KeeperException$Code/get (.getErr ^OpResult$ErrorResult r)))}
    :else {:type :ok}))

(defn- to-zk-op ^Op [sub]
  (case (:f sub)
    :check (Op/check ^String (:path sub) (int (:version sub)))
    :set-data (Op/setData ^String (:path sub) (c/str->bytes (:value sub)) (int (:version sub)))
    :get-data (Op/getData ^String (:path sub))))

(defrecord MultiClient [conn]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil)))
  (setup! [_ test]
    (c/ensure-path! test conn root)
    (doseq [p (key-paths test)] (c/ensure-path! test conn p)))
  (invoke! [_ _ op]
    (let [^ZooKeeper zk (:zk conn)
          op (assoc op :session (:session conn))
          read-only? (every? #(= :get-data (:f %)) (:value op))]
      (try
        (let [results (.multi zk ^Iterable (mapv to-zk-op (:value op)))]
          (assoc op :type :ok :value (mapv sub-result results)))
        (catch KeeperException e
          (let [err (c/code->keyword (.code e))
                subs (some->> (.getResults e) (mapv sub-result))]
            (cond-> (assoc op :type (c/error-type err read-only?) :error err)
              subs (assoc :value subs))))
        (catch InterruptedException _ (assoc op :type :info :error :interrupted)))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator [test wstate]
  (let [paths (key-paths test)]
    (if (< (rand) 0.5)
      {:f :multi :value (mapv (fn [p] {:f :get-data :path p}) paths)}
      (let [v (str (swap! (:value-counter test) inc))
            seen (get @wstate :version 0)]
        {:f :multi :value (into [{:f :check :path (first paths) :version seen}]
                                (map (fn [p] {:f :set-data :path p :version -1 :value v}) paths))}))))

(defn observe! [wstate comp]
  (when (= :ok (:type comp))
    (when-let [v (some #(get-in % [:stat :version]) (:value comp))]
      (swap! wstate assoc :version v))))

(defn read-op? [op] (and (= :multi (:f op)) (every? #(= :get-data (:f %)) (:value op))))
(defn write-op? [op] (and (= :multi (:f op)) (not (read-op? op))))

(defn final-ops [test _]
  [{:f :multi :value (mapv (fn [p] {:f :get-data :path p}) (key-paths test))}])

(defn checker [_test _history pairs]
  (let [reads (for [[inv comp] pairs :when (and (read-op? inv) (= :ok (:type comp)))] comp)
        writes (filter (fn [[inv _]] (write-op? inv)) pairs)
        value-of (fn [inv] (:value (second (:value inv))))
        failed-values (set (for [[inv comp] writes :when (= :fail (:type comp))] (value-of inv)))
        ok-writes (for [[inv comp] writes :when (= :ok (:type comp))]
                    {:value (value-of inv) :versions (set (keep #(get-in % [:stat :version]) (:value comp)))
                     :comp comp})
        errors (transient [])
        err! #(conj! errors %)]
    (doseq [r reads
            :let [vals (set (map :value (:value r)))
                  versions (set (map #(get-in % [:stat :version]) (:value r)))]]
      (when (> (count vals) 1) (err! {:error :partial-transaction :values vals :op (:index r)}))
      (when (> (count versions) 1) (err! {:error :versions-differ :versions versions :op (:index r)}))
      (when (some failed-values vals) (err! {:error :failed-multi-visible :values vals :op (:index r)})))
    (doseq [w ok-writes :when (not= 1 (count (:versions w)))]
      (err! {:error :write-versions-differ :versions (:versions w) :op (:index (:comp w))}))
    (doseq [[v ws] (group-by #(first (:versions %)) ok-writes) :when (> (count ws) 1)]
      (err! {:error :duplicate-version :version v :ops (mapv (comp :index :comp) ws)}))
    (doseq [[sid ps] (group-by (comp :session second) (filter (fn [[_ c]] (= :ok (:type c))) pairs))]
      (reduce (fn [hi [_ comp]]
                (let [v (or (some #(get-in % [:stat :version]) (:value comp)) hi)]
                  (when (< v hi) (err! {:error :monotonic-reads :session sid :saw v :after hi :op (:index comp)}))
                  (max v hi)))
              -1 (sort-by (comp :index second) ps)))
    (let [errs (persistent! errors)]
      {:valid? (empty? errs)
       :checks "atomic multi (one value and version across znodes), failed multi invisible, one version per multi, MonotonicReads"
       :ok-reads (count reads) :ok-writes (count ok-writes)
       :error-count (count errs) :errors (vec (take 20 errs))})))

(defn workload [_opts]
  {:reads-doc "read-only multi" :writes-doc "multi with set-data"
   :client (->MultiClient nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   :checker checker
   :read? read-op?
   :write? write-op?})

(ns zabkit.campaign.workload.multi
  "multi: transactions over several znodes. A write is one multi that checks the version of the
  first znode (as last seen by this client) and sets every znode to the same new value; a read is
  a read-only multi (getData of every znode, ZooKeeper 3.6+). Since znodes only ever change
  together, a read that sees two values or versions, or the value of a failed multi, breaks
  atomicity. Every completion carries its reply zxid (zabkit.campaign.wire), so zk-check checks a
  read-only multi's sub-reads at that one zxid and replays the writes atomically: it is the
  verdict; nothing here duplicates it."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
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
  (invoke! [_ test op]
    (let [zk (:zk conn)
          op (assoc op :session (:session conn))
          read-only? (every? #(= :get-data (:f %)) (:value op))
          r (wire/multi zk (c/request-timeout-ms test) (mapv to-zk-op (:value op)))]
      ;; a failed multi keeps its per-op results (the failing op's error, runtime-inconsistency after it)
      (cond-> (c/reply->completion op read-only? r (fn [_] (assoc op :type :ok)))
        (:results r) (assoc :value (mapv sub-result (:results r))))))
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

(defn workload [_opts]
  {:reads-doc "read-only multi" :writes-doc "multi with set-data"
   :client (->MultiClient nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   ;; no workload checker: zk-check replays the multis (all or none, at one zxid) and checks the
   ;; read-only multis' sub-reads at their one reply zxid, which is the atomicity this workload
   ;; is about; a partial or failed-but-visible multi is a LinearizableWrites violation there
   :read? read-op?
   :write? write-op?})

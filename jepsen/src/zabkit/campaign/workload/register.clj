(ns zabkit.campaign.workload.register
  "register: a few znodes used as registers. read = getData, write = setData(-1),
  cas = setData with an expected version (ZooKeeper's compare-and-set), sync = sync on the key
  (a later read of the session must see at least what was committed before the sync).
  Every completion carries its reply zxid (zabkit.campaign.wire). The verdict is zk-check's
  (LinearizableWrites, FifoClientOrder, MonotonicReads, SyncReads on the recorded history):
  nothing here duplicates it."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper)))

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
    (let [zk (:zk conn)
          t (c/request-timeout-ms test)
          ^String path (:path op)
          op (assoc op :session (:session conn))
          wrote (fn [r] (assoc op :type :ok :stat (c/stat->map (:stat r))))]
      (case (:f op)
        :read (c/reply->completion op true (wire/get-data zk t path)
                                   (fn [r] (assoc op :type :ok :value (c/bytes->str (:data r)) :stat (c/stat->map (:stat r)))))
        :sync (c/reply->completion op true (wire/sync-path zk t path) (fn [_] (assoc op :type :ok)))
        :write (c/reply->completion op false (wire/set-data zk t path (c/str->bytes (:value op)) -1) wrote)
        :cas (let [[v data] (:value op)]
               (c/reply->completion op false (wire/set-data zk t path (c/str->bytes data) v) wrote)))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator
  "45% reads, 10% syncs, 22.5% blind writes, 22.5% cas on the version this worker last saw."
  [test wstate]
  (let [k (rand-int (:keys test))
        path (key-path k)
        seen (get-in @wstate [:versions path] 0)
        r (rand)]
    (cond (< r 0.45) {:f :read :path path :value nil}
          (< r 0.55) {:f :sync :path path :value nil}
          (< r 0.775) {:f :write :path path :version -1 :value (str (swap! (:value-counter test) inc))}
          :else (let [v (str (swap! (:value-counter test) inc))]
                  {:f :cas :path path :version seen :value [seen v]}))))

(defn observe!
  "Remembers the version a worker saw, for its next cas."
  [wstate op]
  (when-let [v (get-in op [:stat :version])]
    (swap! wstate assoc-in [:versions (:path op)] v)))

(defn final-ops
  "After healing: per key a sync, then a read that must see at least the sync's zxid."
  [test _worker]
  (mapcat (fn [k] [{:f :sync :path (key-path k) :value nil} {:f :read :path (key-path k) :value nil}])
          (range (:keys test))))

(defn workload [_opts]
  {:reads-doc "read" :writes-doc "write, cas"
   :client (->RegisterClient nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   ;; no workload checker: zk-check is the oracle (checker/check makes the verdict :unknown
   ;; when zk-check is not there)
   :reads #{:read}
   :writes #{:write :cas}})

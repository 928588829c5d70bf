(ns zabkit.campaign.workload.sequential
  "sequential: sequential creates under /seq. ZooKeeper appends a counter (the parent's cversion)
  to the name, so names must be unique (SequentialUniqueness), increase in zxid and real-time
  order (LinearizableWrites) and in a session's issue order (FifoClientOrder); no acknowledged
  create may be lost and none invented (final sync + getChildren, SyncReads); a session's lists
  never lose a child (MonotonicReads; no deletes here). Every completion carries its reply zxid
  (zabkit.campaign.wire); zk-check checks all of this on the history."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper)))

(def root "/seq")
(def prefix "s-")


(defrecord SequentialClient [conn]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil)))
  (setup! [_ test] (c/ensure-path! test conn root))
  (invoke! [_ test op]
    (let [zk (:zk conn)
          t (c/request-timeout-ms test)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :create (c/reply->completion op false
                                     (wire/create zk t (:path op) (c/str->bytes (get-in op [:value :data])) c/acl
                                                  (c/create-mode (get-in op [:value :mode])))
                                     (fn [r] (assoc op :type :ok :value (assoc (:value op) :created-path (:created-path r))
                                                    :stat (c/stat->map (:stat r)))))
        :sync (c/reply->completion op true (wire/sync-path zk t root) (fn [_] (assoc op :type :ok)))
        :get-children (c/reply->completion op true (wire/get-children zk t root)
                                           (fn [r] (assoc op :type :ok :value (vec (sort (:children r)))
                                                          :stat (c/stat->map (:stat r))))))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator [test _wstate]
  (if (< (rand) 0.85)
    ;; :path of a sequential create is the prefix it names (check/README.md)
    {:f :create :path (str root "/" prefix)
     :value {:data (str "v" (swap! (:value-counter test) inc)) :mode :persistent-sequential}}
    {:f :get-children :path root :value nil}))

(defn final-ops [_test _worker]
  [{:f :sync :path root :value nil} {:f :get-children :path root :value nil :final? true}])

(defn workload [_opts]
  {:reads-doc "get-children" :writes-doc "create"
   :client (->SequentialClient nil)
   :generator generator
   :final-ops final-ops
   ;; no workload checker: zk-check is the oracle (SequentialUniqueness; the numbers against
   ;; real time and zxid order, LinearizableWrites; session order, FifoClientOrder; lost or
   ;; phantom children and stale lists, LinearizableWrites, MonotonicReads, SyncReads)
   :reads #{:get-children}
   :writes #{:create}})

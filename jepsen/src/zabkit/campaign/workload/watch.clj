(ns zabkit.campaign.workload.watch
  "watch: the ready-znode pattern of the ZooKeeper paper (section 2.3). Worker 0 is the writer:
  it deletes /cfg/ready, rewrites every config znode with pipelined asynchronous setData calls
  and, once all have answered, recreates /cfg/ready with the same generation. Every other worker
  is a reader: it sets a watch on /cfg/ready with exists, then reads ready and the config znodes
  asynchronously. The client delivers watch events and async replies in order (WatchOrdering), so
  a reader whose replies all arrived before any event for ready acts on the configuration; a
  reader that acts must never see a partial configuration (generations that differ).
  Every watch event a client receives is a :watch-event in the history, which gives the watch
  unavailable window after a fault."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper Watcher WatchedEvent KeeperException$Code ZooDefs$OpCode)
           (org.apache.zookeeper.proto GetDataRequest GetDataResponse SetDataRequest SetDataResponse)))

(def root "/cfg")
(def ready (str root "/ready"))
(defn cfg-paths [test] (mapv #(str root "/c" %) (range (:keys test))))

(defn- record-event! [test w ^WatchedEvent e]
  (when (and (.getPath e) (not= "None" (str (.getType e))))
    ((:record! test) {:type :ok :process @(:process w) :f :watch-event
                      :value {:event (c/keyword-of-event-type (.getType e)) :path (.getPath e)}
                      :zxid (.getZxid e)})))

(defn- get-data-send!
  "A pipelined getData (no watch) through wire; on-reply sees the reply on the event thread."
  [zk ^String path on-reply]
  (wire/send! zk ZooDefs$OpCode/getData (GetDataRequest. path false) (GetDataResponse.)
              :path path :on-reply on-reply))

(defn- write-config!
  "Deletes ready, rewrites every config znode with pipelined setData calls, recreates ready.
  Its :zxid is the reply zxid of ready's create (the write that publishes the generation)."
  [zk test op]
  (let [g (str (:value op))
        t (c/request-timeout-ms test)
        fail (fn [r] (c/reply->completion op false r identity))
        d (wire/delete zk t ready -1)]
    (if (and (:code d) (not= KeeperException$Code/NONODE (:code d)))
      (fail d)
      (let [ps (mapv (fn [^String p] (wire/send! zk ZooDefs$OpCode/setData (SetDataRequest. p (c/str->bytes g) -1)
                                                 (SetDataResponse.) :path p))
                     (cfg-paths test))
            rs (mapv #(wire/await! % t) ps)]
        (if-let [bad (first (filter :code rs))]
          (fail bad)
          (c/reply->completion op false (wire/create zk t ready (c/str->bytes g) c/acl (c/create-mode :persistent))
                               (fn [_] (assoc op :type :ok))))))))

(defn- read-config!
  "exists(ready, watch), then pipelined reads of ready and every config znode. Each reply notes
  whether an event for ready had already been delivered (replies and events share the client's
  event thread, in order); the reader acts only if none had. Its :zxid is the last reply's."
  [zk test w op]
  (let [t (c/request-timeout-ms test)
        fired (atom false)
        watcher (reify Watcher
                  (process [_ e] (reset! fired true) (record-event! test w e)))
        er (wire/exists zk t ready :watcher watcher)]
    (cond
      (:code er) (c/reply->completion op true er identity)
      (nil? (:stat er)) (assoc op :type :ok :value {:ready? false :acted? false} :zxid (:zxid er))
      :else
      (let [paths (into [ready] (cfg-paths test))
            ps (mapv (fn [p] (get-data-send! zk p (fn [_] {:after-event? @fired}))) paths)
            rs (zipmap paths (map #(wire/await! % t) ps))
            last-zxid (reduce max (:zxid er) (keep :zxid (vals rs)))
            data (fn [p] (some-> ^GetDataResponse (:response (rs p)) .getData c/bytes->str))
            bad (first (keep :code (vals rs)))]
        (cond
          (= bad KeeperException$Code/NONODE)
          (assoc op :type :ok :value {:ready? true :acted? false :reason :ready-vanished} :zxid last-zxid)
          bad (c/reply->completion op true (first (filter :code (vals rs))) identity)
          :else
          (assoc op :type :ok :zxid last-zxid
                 :value {:ready? true
                         :acted? (not-any? :after-event? (vals rs))
                         :ready-gen (data ready)
                         :configs (mapv data (cfg-paths test))}))))))

(defrecord WatchClient [conn w]
  c/Client
  (open! [this test w] (assoc this :w w :conn (c/session test (:worker w) nil)))
  (setup! [_ test]
    (c/ensure-path! test conn root)
    (doseq [p (cfg-paths test)] (c/ensure-path! test conn p))
    (c/ensure-path! test conn ready))
  (invoke! [_ test op]
    (let [zk (:zk conn)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :write-config (write-config! zk test op)
        :read-config (read-config! zk test w op))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator [test wstate]
  (if (zero? (:worker @wstate 0))
    {:f :write-config :path root :value (swap! (:value-counter test) inc)}
    {:f :read-config :path root :value nil}))

(defn checker [_test history pairs]
  (let [reads (for [[inv comp] pairs :when (and (= :read-config (:f inv)) (= :ok (:type comp)))] comp)
        acted (filter #(get-in % [:value :acted?]) reads)
        partial (for [r acted
                      :let [v (:value r)
                            gens (set (cons (:ready-gen v) (:configs v)))]
                      :when (> (count gens) 1)]
                  {:error :partial-config :ready-gen (:ready-gen v) :configs (:configs v) :op (:index r)})
        events (count (filter #(= :watch-event (:f %)) history))]
    {:valid? (if (empty? acted) :unknown (empty? partial))
     :checks "WatchOrdering: a reader that saw no event for ready before its replies never sees a partial configuration"
     :reads (count reads) :acted (count acted) :watch-events events
     :error-count (count partial) :errors (vec (take 20 partial))}))

(defn workload [_opts]
  {:client (->WatchClient nil nil)
   :generator generator
   :checker checker
   :watch? true
   ;; the watches are set inside :read-config, which zk-check's format does not define, so their
   ;; events alone would look like events of watches never set
   :zk-check-exclude #{:watch-event}
   :reads #{:read-config}
   :writes #{:write-config}
   :reads-doc "read-config" :writes-doc "write-config"})

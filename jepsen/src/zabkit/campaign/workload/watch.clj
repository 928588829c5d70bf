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
  (:require [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper Watcher WatchedEvent KeeperException KeeperException$Code
                                 AsyncCallback$StatCallback AsyncCallback$DataCallback)
           (org.apache.zookeeper.data Stat)
           (java.util.concurrent CountDownLatch TimeUnit)))

(def root "/cfg")
(def ready (str root "/ready"))
(defn cfg-paths [test] (mapv #(str root "/c" %) (range (:keys test))))

(defn- record-event! [test w ^WatchedEvent e]
  (when (and (.getPath e) (not= "None" (str (.getType e))))
    ((:record! test) {:type :ok :process @(:process w) :f :watch-event
                      :value {:event (c/keyword-of-event-type (.getType e)) :path (.getPath e)}
                      :zxid (.getZxid e)})))

(defn- await! [^CountDownLatch l test]
  (when-not (.await l (long (:session-timeout test)) TimeUnit/MILLISECONDS)
    (throw (ex-info "async replies did not arrive within the session timeout" {:error :operation-timeout}))))

(defn- write-config! [^ZooKeeper zk test op]
  (let [g (str (:value op))]
    (try (.delete zk ^String ready -1)
         (catch KeeperException e (when-not (= (.code e) KeeperException$Code/NONODE) (throw e))))
    (let [paths (cfg-paths test)
          latch (CountDownLatch. (count paths))
          rcs (atom [])]
      (doseq [p paths]
        (.setData zk ^String p (c/str->bytes g) -1
                  (reify AsyncCallback$StatCallback
                    (processResult [_ rc _ _ _] (swap! rcs conj rc) (.countDown latch)))
                  nil))
      (await! latch test)
      (when-let [bad (first (remove zero? @rcs))]
        (throw (KeeperException/create (KeeperException$Code/get (int bad)))))
      (.create zk ready (c/str->bytes g) c/acl (c/create-mode :persistent))
      (assoc op :type :ok))))

(defn- read-config!
  "exists(ready, watch), then async reads of ready and every config znode. Each reply notes
  whether an event for ready had already been delivered; the reader acts only if none had."
  [^ZooKeeper zk test w op]
  (let [fired (atom false)
        watcher (reify Watcher
                  (process [_ e] (reset! fired true) (record-event! test w e)))]
    (if-not (.exists zk ^String ready watcher)
      (assoc op :type :ok :value {:ready? false :acted? false})
      (let [paths (into [ready] (cfg-paths test))
            latch (CountDownLatch. (count paths))
            replies (atom {})]
        (doseq [p paths]
          (.getData zk ^String p false
                    (reify AsyncCallback$DataCallback
                      (processResult [_ rc path _ data _]
                        (swap! replies assoc path {:rc rc :data (c/bytes->str data) :after-event? @fired})
                        (.countDown latch)))
                    nil))
        (await! latch test)
        (let [rs @replies
              bad (first (remove zero? (map :rc (vals rs))))]
          (cond
            (and bad (= bad (.intValue KeeperException$Code/NONODE)))
            (assoc op :type :ok :value {:ready? true :acted? false :reason :ready-vanished})
            bad (throw (KeeperException/create (KeeperException$Code/get (int bad))))
            :else
            (assoc op :type :ok
                   :value {:ready? true
                           :acted? (not-any? :after-event? (vals rs))
                           :ready-gen (:data (rs ready))
                           :configs (mapv #(:data (rs %)) (cfg-paths test))})))))))

(defrecord WatchClient [conn w]
  c/Client
  (open! [this test w] (assoc this :w w :conn (c/session test (:worker w) nil)))
  (setup! [_ test]
    (c/ensure-path! test conn root)
    (doseq [p (cfg-paths test)] (c/ensure-path! test conn p))
    (c/ensure-path! test conn ready))
  (invoke! [_ test op]
    (let [^ZooKeeper zk (:zk conn)
          op (assoc op :session (:session conn))]
      (try
        (case (:f op)
          :write-config (write-config! zk test op)
          :read-config (read-config! zk test w op))
        (catch KeeperException e
          (let [err (c/code->keyword (.code e))]
            (assoc op :type (c/error-type err (= :read-config (:f op))) :error err)))
        (catch clojure.lang.ExceptionInfo e
          (assoc op :type (if (= :read-config (:f op)) :fail :info) :error (:error (ex-data e))))
        (catch InterruptedException _ (assoc op :type :info :error :interrupted)))))
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

(ns zabkit.campaign.workload.watch
  "watch: the ready-znode pattern of the ZooKeeper paper (section 2.3). Worker 0 is the writer:
  it deletes /cfg/ready, rewrites every config znode with pipelined setData calls and, once all
  have answered, recreates /cfg/ready with the same generation. Every other worker is a reader:
  it sets a watch on /cfg/ready with exists, then reads ready and the config znodes pipelined.
  The client delivers watch events and replies in order (WatchOrdering), so a reader whose
  replies all arrived before any event for ready acts on the configuration; a reader that acts
  must never see a partial configuration (generations that differ): this workload's checker.
  :write-config and :read-config are composites; each request inside them is also an op of its
  own in the history (:exists with :watch, :get-data, :delete, :set-data, :create, on a fresh
  process, since pipelined requests are open together, marked :part-of), with its reply zxid,
  and every watch event a client receives is a :watch-event of its session: so zk-check checks
  WatchOrdering, MonotonicReads and the writes on the same run. The events also give the watch
  unavailable window after a fault."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper Watcher WatchedEvent KeeperException$Code)))

(def root "/cfg")
(def ready (str root "/ready"))
(defn cfg-paths [test] (mapv #(str root "/c" %) (range (:keys test))))

(defn- record-event!
  "A watch event, recorded on the client's event thread (so in order with the replies) as
  check/README.md's completion-only :watch-event of the session; :zxid, the notification's, when
  it has one."
  [test w session ^WatchedEvent e]
  (when (and (.getPath e) (not= "None" (str (.getType e))))
    ((:record! test) (cond-> {:type :ok :process @(:process w) :f :watch-event :session session :path (.getPath e)
                              :value {:event (c/keyword-of-event-type (.getType e)) :path (.getPath e)}}
                       ;; -1: no zxid, as in the events a reconnect's SetWatches triggers
                       (>= (.getZxid e) 0) (assoc :zxid (.getZxid e))))))

(defn- recorded!
  "Sends one request of a composite op and records it as an op of its own: the invocation now,
  on a fresh process, the completion on the event thread when the reply is in (in order with the
  watch events). on-reply (fn [parsed-reply] map) adds to what the promise delivers.
  Returns the promise of the parsed reply."
  [test conn part-of f path {:keys [data version mode watcher inv on-ok idempotent? on-reply]}]
  (let [p (swap! (:sub-process test) inc)
        inv ((:record! test) (merge {:type :invoke :process p :f f :path path :session (:session conn)
                                     :part-of part-of :value nil}
                                    (when watcher {:watch true}) inv))
        base (dissoc inv :index :time)]
    (wire/send-op! (:zk conn) f path :data data :version version :mode mode :acl c/acl :watcher watcher
                   :on-reply (fn [r]
                               ((:record! test) (c/reply->completion base idempotent? r
                                                                     (fn [r] (merge base {:type :ok} (on-ok r)))))
                               (when on-reply (on-reply r))))))

(defn- write-config!
  "Deletes ready, rewrites every config znode with pipelined setData calls, recreates ready.
  Its :zxid is the reply zxid of ready's create (the write that publishes the generation)."
  [conn test op]
  (let [g (str (:value op))
        t (c/request-timeout-ms test)
        fail (fn [r] (c/reply->completion op false r identity))
        stat (fn [r] {:stat (c/stat->map (:stat r))})
        send (fn [f path opts] (recorded! test conn :write-config f path opts))
        d (wire/await! (send :delete ready {:version -1 :on-ok (constantly nil)}) t)]
    (if (and (:code d) (not= KeeperException$Code/NONODE (:code d)))
      (fail d)
      (let [ps (mapv (fn [p] (send :set-data p {:data (c/str->bytes g) :version -1 :inv {:value g :version -1} :on-ok stat}))
                     (cfg-paths test))
            rs (mapv #(wire/await! % t) ps)]
        (if-let [bad (first (filter :code rs))]
          (fail bad)
          (c/reply->completion op false
                               (wire/await! (send :create ready {:data (c/str->bytes g) :mode (c/create-mode :persistent)
                                                                 :inv {:value {:data g :mode :persistent}}
                                                                 :on-ok (fn [r] {:value {:data g :mode :persistent :created-path (:created-path r)}
                                                                                 :stat (c/stat->map (:stat r))})})
                                            t)
                               (fn [_] (assoc op :type :ok))))))))

(defn- read-config!
  "exists(ready, watch), then pipelined reads of ready and every config znode. Each reply notes
  how many watch events the session had received by then (replies and events share the client's
  event thread, in order); the reader acts only if none came between the exists reply and the
  last read. Its :zxid is the last reply's."
  [conn test events watcher op]
  (let [t (c/request-timeout-ms test)
        seen (fn [_] {:events-seen @events})
        send (fn [f path opts] (recorded! test conn :read-config f path opts))
        er (wire/await! (send :exists ready {:watcher watcher :idempotent? true :on-reply seen
                                              :on-ok (fn [r] {:value (some? (:stat r)) :stat (c/stat->map (:stat r))})})
                        t)]
    (cond
      (:code er) (c/reply->completion op true er identity)
      (nil? (:stat er)) (assoc op :type :ok :value {:ready? false :acted? false} :zxid (:zxid er))
      :else
      (let [paths (into [ready] (cfg-paths test))
            ps (mapv (fn [p] (send :get-data p {:idempotent? true :on-reply seen
                                                :on-ok (fn [r] {:value (c/bytes->str (:data r)) :stat (c/stat->map (:stat r))})}))
                     paths)
            rs (zipmap paths (map #(wire/await! % t) ps))
            last-zxid (reduce max (:zxid er) (keep :zxid (vals rs)))
            data (fn [p] (some-> (:data (rs p)) c/bytes->str))
            bad (first (keep :code (vals rs)))]
        (cond
          (= bad KeeperException$Code/NONODE)
          (assoc op :type :ok :value {:ready? true :acted? false :reason :ready-vanished} :zxid last-zxid)
          bad (c/reply->completion op true (first (filter :code (vals rs))) identity)
          :else
          (assoc op :type :ok :zxid last-zxid
                 :value {:ready? true
                         :acted? (every? #(= (:events-seen er) (:events-seen %)) (vals rs))
                         :ready-gen (data ready)
                         :configs (mapv data (cfg-paths test))}))))))

(defrecord WatchClient [conn w events watcher]
  c/Client
  (open! [this test w]
    ;; a reconnect of the same session (its watches re-set by SetWatches) is a completion-only
    ;; :connect in check/README.md's format, recorded on the event thread in order with events
    (let [sid (atom nil)
          was-down (atom false)
          on-state (fn [s]
                     (case s
                       :disconnected (reset! was-down true)
                       :sync-connected (when (and @sid (compare-and-set! was-down true false))
                                         ((:record! test) {:type :ok :process (swap! (:sub-process test) inc)
                                                           :f :connect :session @sid :value :reconnect}))
                       nil))
          conn (c/session test (:worker w) on-state)
          events (atom 0)
          ;; one watcher object per session: the client calls each distinct watcher of a path
          ;; once per notification, so a watcher per read-config would record one event twice
          watcher (reify Watcher
                    (process [_ e]
                      (when (and (.getPath e) (not= "None" (str (.getType e))))
                        (swap! events inc)
                        (record-event! test w (:session conn) e))))]
      (reset! sid (:session conn))
      (assoc this :w w :conn conn :events events :watcher watcher)))
  (setup! [_ test]
    (c/ensure-path! test conn root)
    (doseq [p (cfg-paths test)] (c/ensure-path! test conn p))
    (c/ensure-path! test conn ready))
  (invoke! [_ test op]
    (let [op (assoc op :session (:session conn))]
      (case (:f op)
        :write-config (write-config! conn test op)
        :read-config (read-config! conn test events watcher op))))
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
  {:client (->WatchClient nil nil nil nil)
   :generator generator
   :checker checker
   :watch? true
   :reads #{:read-config}
   :writes #{:write-config}
   :reads-doc "read-config" :writes-doc "write-config"})

(ns zabkit.campaign.client
  "The ZooKeeper client side, Jepsen-shaped: a Client protocol (open!, setup!, invoke!,
  teardown!, close!), one ZooKeeper session per worker, and the mapping from ZooKeeper's errors
  to Jepsen's :fail (definitely did not happen) and :info (may have happened)."
  (:require [clojure.string :as str]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper Watcher WatchedEvent KeeperException
                                 KeeperException$Code Watcher$Event$KeeperState
                                 Watcher$Event$EventType CreateMode ZooDefs$Ids)
           (org.apache.zookeeper.data Stat)
           (java.util.concurrent CountDownLatch TimeUnit)))

(defprotocol Client
  (open! [client test worker] "Returns a client bound to a fresh ZooKeeper session.")
  (setup! [client test] "Creates the workload's znodes (once, by worker 0).")
  (invoke! [client test op] "Applies op; returns its completion (:ok, :fail or :info).")
  (teardown! [client test])
  (close! [client test]))

(defn connect-string
  "All nodes, rotated per worker so that sessions spread over the ensemble."
  [test worker]
  (let [hosts (mapv #(str (nodes/node-host (:nodes-impl test) %) ":" db/client-port)
                    (nodes/node-names (:nodes-impl test)))
        k (mod worker (count hosts))]
    (str/join "," (concat (drop k hosts) (take k hosts)))))

(defn keyword-of-state [^Watcher$Event$KeeperState s]
  (-> (str s) (str/replace #"([a-z])([A-Z])" "$1-$2") str/lower-case keyword))

(defn keyword-of-event-type [^Watcher$Event$EventType t]
  (case (str t)
    "NodeCreated" :node-created "NodeDeleted" :node-deleted
    "NodeDataChanged" :node-data-changed "NodeChildrenChanged" :node-children-changed
    (-> (str t) (str/replace #"([a-z])([A-Z])" "$1-$2") str/lower-case keyword)))

(defn session
  "Opens a session and waits (bounded by the session timeout) until it is connected.
  on-state is called with every connection-state keyword (:sync-connected :disconnected :expired).
  Returns {:zk ZooKeeper :session id :connected? atom} or throws."
  [test worker on-state]
  (let [connected (atom false)
        latch (CountDownLatch. 1)
        w (reify Watcher
            (process [_ e]
              (when (= (.getType e) Watcher$Event$EventType/None)
                (let [s (keyword-of-state (.getState e))]
                  (reset! connected (= s :sync-connected))
                  (when (= s :sync-connected) (.countDown latch))
                  (when on-state (on-state s))))))
        zk (ZooKeeper. ^String (connect-string test worker) (int (:session-timeout test)) w)]
    (if (.await latch (:session-timeout test) TimeUnit/MILLISECONDS)
      {:zk zk :session (.getSessionId zk) :connected? connected}
      (do (.close zk)
          (throw (ex-info "could not connect within the session timeout" {:error :connection-loss}))))))

(defn stat->map [^Stat s]
  (when s
    {:czxid (.getCzxid s) :mzxid (.getMzxid s) :pzxid (.getPzxid s) :ctime (.getCtime s)
     :mtime (.getMtime s) :version (.getVersion s) :cversion (.getCversion s)
     :aversion (.getAversion s) :ephemeral-owner (.getEphemeralOwner s)
     :data-length (.getDataLength s) :num-children (.getNumChildren s)}))

(defn code->keyword [^KeeperException$Code c]
  (-> (str c) str/lower-case (str/replace "_" "-") (str/replace "nonode" "no-node")
      (str/replace "nodeexists" "node-exists") (str/replace "badversion" "bad-version")
      (str/replace "notempty" "not-empty") (str/replace "connectionloss" "connection-loss")
      (str/replace "operationtimeout" "operation-timeout") (str/replace "sessionexpired" "session-expired")
      (str/replace "sessionmoved" "session-moved") (str/replace "badarguments" "bad-arguments")
      (str/replace "noauth" "no-auth") (str/replace "runtimeinconsistency" "runtime-inconsistency")
      (str/replace "nochildrenforephemerals" "no-children-for-ephemerals")
      keyword))

(def definite-errors
  "Errors after which the op certainly did not take effect."
  #{:no-node :node-exists :bad-version :not-empty :no-children-for-ephemerals :bad-arguments
    :no-auth :session-expired})

(defn error-type
  "Jepsen's classification: :fail if the op certainly did not happen (a definite error, or any
  error of an op that changes nothing), else :info."
  [error idempotent?]
  (if (or idempotent? (definite-errors error)) :fail :info))

(defmacro with-errors
  "Evaluates body (which returns a completion) and turns ZooKeeper exceptions into completions."
  [op idempotent? & body]
  `(try ~@body
        (catch KeeperException e#
          (let [err# (code->keyword (.code e#))]
            (assoc ~op :type (error-type err# ~idempotent?) :error err#)))
        (catch InterruptedException e#
          (assoc ~op :type :info :error :interrupted))
        (catch IllegalArgumentException e#
          (assoc ~op :type :fail :error :bad-arguments :message (.getMessage e#)))))

(def acl ZooDefs$Ids/OPEN_ACL_UNSAFE)

(defn request-timeout-ms
  "How long an op waits for its reply: past the client's own connection-loss verdict (2/3 of
  the session timeout without a server's answer), so normally that verdict comes first."
  [test]
  (+ 2000 (long (* 1.5 (:session-timeout test)))))

(defn reply->completion
  "op's completion from a wire reply (zabkit.campaign.wire): (on-ok reply) when the server said
  OK, else :fail or :info by Jepsen's rule (error-type); :zxid, the reply header's, whenever a
  server answered this very request (ok or error), as check/README.md's history format asks."
  [op idempotent? reply on-ok]
  (assert (map? reply) "a wire reply")
  (cond-> (if-let [code (:code reply)]
            (let [err (code->keyword code)] (assoc op :type (error-type err idempotent?) :error err))
            (on-ok reply))
    (:zxid reply) (assoc :zxid (:zxid reply))))

(defn create-mode [mode]
  (case mode
    :persistent CreateMode/PERSISTENT
    :ephemeral CreateMode/EPHEMERAL
    :persistent-sequential CreateMode/PERSISTENT_SEQUENTIAL
    :ephemeral-sequential CreateMode/EPHEMERAL_SEQUENTIAL))

(def setup-process-base
  "Process numbers of the setup client: far above any worker's (worker i uses i + k * concurrency,
  k bounded by its op count) and positive, because check/ reads process -1 as the nemesis."
  1000000)

(def sub-process-base
  "Process numbers of the requests inside a composite op that are recorded as ops of their own
  (the watch workload's; a fresh one each, as pipelined requests are open together): above the
  setup client's, which only grow by its :info creates."
  2000000)

(defn- record-create!
  "One create of an empty persistent znode by the setup client, recorded as an ordinary
  invocation and completion (create2, so the completion has its zxid and Stat), so that the
  history checkers replay it. Returns :ok, :exists or :retry; throws on any other error."
  [test conn ^String path]
  (let [record! (:record! test)
        proc (:setup-process test)
        inv (record! {:type :invoke :process @proc :f :create :path path :session (:session conn)
                      :value {:data "" :mode :persistent} :setup? true})
        r (wire/create (:zk conn) (request-timeout-ms test) path (byte-array 0) acl CreateMode/PERSISTENT)
        comp (reply->completion (dissoc inv :index :time) false r
                                (fn [{:keys [created-path stat]}]
                                  {:type :ok :value (assoc (:value inv) :created-path created-path)
                                   :stat (stat->map stat)}))]
    (record! (merge (dissoc inv :index :time) comp))
    ;; Jepsen's rule: a process whose op may still happen is retired
    (when (= :info (:type comp)) (swap! proc inc))
    (cond (= :ok (:type comp)) :ok
          (= :node-exists (:error comp)) :exists
          (= :info (:type comp)) :retry
          :else (throw (ex-info (str "setup: create " path " failed: " (name (:error comp))) {:error (:error comp)})))))

(defn ensure-path!
  "Creates path and its parents (persistent, empty) if missing, every attempt recorded in the
  history by the setup process (see record-create!); bounded retries on connection loss."
  [test conn ^String path]
  (let [parts (rest (str/split path #"/"))]
    (doseq [i (range 1 (inc (count parts)))
            :let [p (str "/" (str/join "/" (take i parts)))]]
      (loop [tries 20]
        (let [r (record-create! test conn p)]
          (when (= r :retry)
            (when-not (pos? tries)
              (throw (ex-info (str "setup: could not create " p " after 20 retries") {:error :connection-loss})))
            (Thread/sleep 200)
            (recur (dec tries))))))))

(defn bytes->str [^bytes b] (when b (String. b "UTF-8")))
(defn str->bytes ^bytes [^String s] (.getBytes s "UTF-8"))

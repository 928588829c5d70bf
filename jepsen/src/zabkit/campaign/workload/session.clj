(ns zabkit.campaign.workload.session
  "session: ephemerals vanish after their session ends, never before. Each client creates an
  ephemeral /session/e-<session id>-<n>, checks it with exists on its own session, and now and then
  closes the session (the next op opens a new one).
  Checks: (never before) an exists on the owner's own, live session never misses its ephemeral
  (a dead session answers SESSIONEXPIRED, not 'absent'); (after) once the faults are healed and
  the clients gone, every ephemeral vanishes within the session timeout plus an election: the
  final op syncs and lists /session until it is empty (bounded), and reports what is left."
  (:require [clojure.string :as str]
            [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper KeeperException)
           (org.apache.zookeeper.data Stat)))

(def root "/session")

(defn- sync! [^ZooKeeper zk test]
  (let [p (promise)]
    (.sync zk root (reify org.apache.zookeeper.AsyncCallback$VoidCallback
                     (processResult [_ rc _ _] (deliver p rc)))
           nil)
    (let [rc (deref p (long (:session-timeout test)) -1)]
      (when-not (zero? rc)
        (throw (ex-info "sync failed" {:error :operation-timeout}))))))

(defrecord SessionClient [conn mine]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil) :mine (atom nil)))
  (setup! [_ test] (c/ensure-path! test conn root))
  (invoke! [_ test op]
    (let [^ZooKeeper zk (:zk conn)
          op (assoc op :session (:session conn))
          ;; :path of a sequential create is the prefix it names (check/README.md), whatever the outcome: an :info
          ;; create that kept the parent's path would stand for a node under / in zk-check's replay
          op (cond-> op (= :create (:f op)) (assoc :path (format "%s/e-%x-" root (:session conn))))]
      (try
        (case (:f op)
          :create (let [st (Stat.)
                        prefix (:path op)
                        p (.create zk prefix (byte-array 0) c/acl
                                   (c/create-mode :ephemeral-sequential) st)]
                    (reset! mine p)
                    (assoc op :type :ok :value (assoc (:value op) :data "" :created-path p) :zxid (.getCzxid st)
                           :stat (c/stat->map st)))
          :exists (let [p (or (:path op) @mine)
                        st (.exists zk ^String p false)]
                    (assoc op :type :ok :path p :value (some? st) :stat (c/stat->map st)))
          :close-session (do (.close zk 5000)
                             (assoc op :type :ok :reopen? true))
          :await-expiry (let [deadline (+ (System/currentTimeMillis) (* 4 (:session-timeout test)))]
                          (loop [i 0]
                            (sync! zk test)
                            (let [kids (vec (sort (.getChildren zk ^String root false)))]
                              (if (or (empty? kids) (> i 400) (> (System/currentTimeMillis) deadline))
                                (assoc op :type :ok :value kids :waited-ms (- (System/currentTimeMillis) (- deadline (* 4 (:session-timeout test)))))
                                (do (Thread/sleep 200) (recur (inc i))))))))
        (catch KeeperException e
          (let [err (c/code->keyword (.code e))]
            (assoc op :type (c/error-type err (#{:exists :await-expiry} (:f op))) :error err
                   :reopen? (= :create (:f op)))))
        (catch clojure.lang.ExceptionInfo e
          (assoc op :type :fail :error (:error (ex-data e))))
        (catch InterruptedException _ (assoc op :type :info :error :interrupted)))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator [_test wstate]
  (let [{:keys [created]} @wstate
        r (rand)]
    (cond (not created) {:f :create :path root :value {:mode :ephemeral-sequential}}
          (< r 0.85) {:f :exists :path created :value nil}
          :else {:f :close-session :value nil})))

(defn observe! [wstate comp]
  (case [(:f comp) (:type comp)]
    [:create :ok] (swap! wstate assoc :created (get-in comp [:value :created-path]))
    [:close-session :ok] (swap! wstate assoc :created nil)
    nil)
  (when (#{:session-expired} (:error comp)) (swap! wstate assoc :created nil)))

(defn final-ops [_test worker]
  (when (zero? worker) [{:f :await-expiry :path root :value nil}]))

(defn checker [_test _history pairs]
  (let [vanished-early (for [[inv comp] pairs
                             :when (and (= :exists (:f inv)) (= :ok (:type comp)) (false? (:value comp)))]
                         {:error :ephemeral-vanished-before-expiry :path (:path comp) :session (:session comp)
                          :op (:index comp)})
        finals (for [[inv comp] pairs :when (and (= :await-expiry (:f inv)) (= :ok (:type comp)))] comp)
        left (for [f finals :when (seq (:value f))]
               {:error :ephemerals-outlived-sessions :left (vec (take 10 (:value f))) :count (count (:value f))
                :op (:index f)})
        errs (concat vanished-early left)]
    {:valid? (if (empty? finals) :unknown (empty? errs))
     :checks "ephemeral present while its session lives (own-session exists); all gone after the sessions end"
     :ok-exists (count (filter (fn [[i c]] (and (= :exists (:f i)) (= :ok (:type c)))) pairs))
     :final-waited-ms (mapv :waited-ms finals)
     :error-count (count errs) :errors (vec (take 20 errs))}))

(defn workload [_opts]
  {:client (->SessionClient nil nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   :checker checker
   :reads #{:exists}
   :writes #{:create}
   :reads-doc "exists (own ephemeral)" :writes-doc "create ephemeral"})

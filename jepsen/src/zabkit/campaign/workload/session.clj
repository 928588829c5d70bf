(ns zabkit.campaign.workload.session
  "session: ephemerals vanish after their session ends, never before. Each client creates an
  ephemeral /session/e-<session id>-<n>, checks it with exists on its own session, and now and then
  closes the session (the next op opens a new one).
  Every completion carries its reply zxid (zabkit.campaign.wire; a close-session the zxid of its
  closeSession transaction). Never before, never after: zk-check (an exists on the owner's own,
  live session that misses its ephemeral is LinearizableWrites; one seen after the session's end
  is EphemeralLifetime). Here only the liveness half: once the faults are healed and the clients
  gone, every ephemeral vanishes within the session timeout plus an election: the final op syncs
  and lists /session until it is empty (bounded), and reports what is left."
  (:require [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper)))

(def root "/session")

(defn- await-expiry!
  "Syncs and lists /session until it is empty (bounded: 4 session timeouts, 400 rounds). A
  composite of the campaign (zk-check's format has no such op); its :zxid is the reply zxid of
  its last list."
  [zk test op]
  (let [t (c/request-timeout-ms test)
        start (System/currentTimeMillis)
        deadline (+ start (* 4 (:session-timeout test)))]
    (loop [i 0]
      (let [s (wire/sync-path zk t root)
            r (when-not (:code s) (wire/get-children zk t root))]
        (cond
          (:code s) (c/reply->completion op true s identity)
          (:code r) (c/reply->completion op true r identity)
          (or (empty? (:children r)) (> i 400) (> (System/currentTimeMillis) deadline))
          (assoc op :type :ok :value (vec (sort (:children r))) :zxid (:zxid r)
                 :waited-ms (- (System/currentTimeMillis) start))
          :else (do (Thread/sleep 200) (recur (inc i))))))))

(defrecord SessionClient [conn mine]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil) :mine (atom nil)))
  (setup! [_ test] (c/ensure-path! test conn root))
  (invoke! [_ test op]
    (let [zk (:zk conn)
          t (c/request-timeout-ms test)
          op (assoc op :session (:session conn))
          ;; :path of a sequential create is the prefix it names (check/README.md), whatever the outcome: an :info
          ;; create that kept the parent's path would stand for a node under / in zk-check's replay
          op (cond-> op (= :create (:f op)) (assoc :path (format "%s/e-%x-" root (:session conn))))]
      (case (:f op)
        :create (c/reply->completion
                 (assoc op :reopen? true) false
                 (wire/create zk t (:path op) (byte-array 0) c/acl (c/create-mode :ephemeral-sequential))
                 (fn [r] (reset! mine (:created-path r))
                   (assoc op :type :ok :value (assoc (:value op) :data "" :created-path (:created-path r))
                          :stat (c/stat->map (:stat r)))))
        :exists (let [p (or (:path op) @mine)]
                  (c/reply->completion (assoc op :path p) true (wire/exists zk t p)
                                       (fn [r] (assoc op :type :ok :path p :value (some? (:stat r))
                                                      :stat (c/stat->map (:stat r))))))
        ;; the closeSession reply's zxid is the transaction that ended the session
        ;; (ok or not, this client is closed: the next op opens a new session)
        :close-session (c/reply->completion (assoc op :reopen? true) false (wire/close-session! zk t)
                                            (fn [_] (assoc op :type :ok :reopen? true)))
        :await-expiry (await-expiry! zk test op))))
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

(defn checker
  "The liveness half of EphemeralLifetime, which a history checker cannot see from replies alone:
  after the faults are healed and every client is gone, the ephemerals must vanish within the
  bound await-expiry waits. (Safety, an ephemeral gone while its session lives or seen after its
  session's end, is zk-check's: LinearizableWrites, EphemeralLifetime.)"
  [_test _history pairs]
  (let [finals (for [[inv comp] pairs :when (and (= :await-expiry (:f inv)) (= :ok (:type comp)))] comp)
        left (for [f finals :when (seq (:value f))]
               {:error :ephemerals-outlived-sessions :left (vec (take 10 (:value f))) :count (count (:value f))
                :op (:index f)})]
    {:valid? (if (empty? finals) :unknown (empty? left))
     :checks "all ephemerals gone after the sessions end (final sync + list, bounded wait)"
     :final-waited-ms (mapv :waited-ms finals)
     :error-count (count left) :errors (vec (take 20 left))}))

(defn workload [_opts]
  {:client (->SessionClient nil nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   :checker checker
   :reads #{:exists}
   :writes #{:create}
   :reads-doc "exists (own ephemeral)" :writes-doc "create ephemeral"})

(ns zabkit.campaign.workload.lock
  "lock: the ZooKeeper paper's lock recipe. acquire = create an ephemeral-sequential child of
  /lock; the lowest child holds the lock; the others watch their predecessor (no herd). A holder
  stops believing it holds the lock as soon as its session disconnects (the session may expire
  behind its back), and releases by deleting its child.
  Checker: never two holders. A hold lasts from the acquire's completion to the earlier of the
  release's invocation and the disconnect the holder saw; holds of different acquisitions must not
  overlap (one clock: all clients run in this JVM)."
  (:require [clojure.string :as str]
            [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper Watcher KeeperException)
           (java.util.concurrent CountDownLatch TimeUnit)))

(def root "/lock")

(defrecord LockClient [conn held lost-at-ns]
  c/Client
  (open! [this test w]
    (let [held (atom nil) lost (atom nil)
          conn (c/session test (:worker w)
                          (fn [s] (when (and @held (#{:disconnected :expired} s) (nil? @lost))
                                    (reset! lost ((:now-ns test))))))]
      (assoc this :conn conn :held held :lost-at-ns lost)))
  (setup! [_ test] (c/ensure-path! test conn root))
  (invoke! [_ test op]
    (let [^ZooKeeper zk (:zk conn)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :acquire
        (let [deadline (+ (System/currentTimeMillis) (:acquire-timeout-ms test 5000))
              mine (try (.create zk (str root "/l-") (byte-array 0) c/acl
                                 (c/create-mode :ephemeral-sequential))
                        (catch KeeperException e e))]
          (if (instance? KeeperException mine)
            (let [err (c/code->keyword (.code ^KeeperException mine))]
              ;; an unknown create may have left a child that would block everyone: new session
              (assoc op :type (c/error-type err false) :error err :reopen? true))
            (c/with-errors (assoc op :value {:path mine} :reopen? true) false
              (loop [i 0]
                (let [kids (sort (.getChildren zk ^String root false))
                      me (last (str/split mine #"/"))
                      before (last (take-while #(neg? (compare % me)) kids))]
                  (cond
                    (nil? before)
                    (do (reset! lost-at-ns nil) (reset! held mine)
                        (assoc op :type :ok :value {:path mine}))

                    (or (> i 1000) (> (System/currentTimeMillis) deadline))
                    (do (try (.delete zk ^String mine -1) (catch Exception _))
                        (assoc op :type :fail :error :timeout :value {:path mine} :reopen? true))

                    :else
                    (let [latch (CountDownLatch. 1)
                          w (reify Watcher (process [_ _] (.countDown latch)))]
                      (when (.exists zk (str root "/" before) w)
                        (.await latch (max 1 (- deadline (System/currentTimeMillis))) TimeUnit/MILLISECONDS))
                      (recur (inc i)))))))))
        :release
        (let [mine @held
              lost @lost-at-ns
              op (assoc op :value (cond-> {:path mine} lost (assoc :lost-at lost)))]
          (reset! held nil)
          (c/with-errors (assoc op :reopen? true) false
            (.delete zk ^String mine -1)
            (cond-> (assoc op :type :ok) (not lost) (dissoc :reopen?)))))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator
  "acquire, hold a little, release; a holder that lost its connection releases at once."
  [_test wstate]
  (if (:holding @wstate)
    {:f :release :value nil}
    {:f :acquire :value nil}))

(defn observe! [wstate comp]
  (case (:f comp)
    :acquire (swap! wstate assoc :holding (= :ok (:type comp)))
    :release (swap! wstate assoc :holding false)
    nil))

(defn exit-ops
  "At the end of the phase a holder releases, so that its hold ends in the history rather than
  with its session."
  [_test wstate]
  (when (:holding @wstate) [{:f :release :value nil}]))

(defn checker [test history pairs]
  (let [end (:time (peek history))
        by-process (group-by (fn [[inv _]] (:process inv)) pairs)
        holds (for [[_ ps] by-process
                    :let [ps (vec (sort-by (comp :index first) ps))]
                    [i [inv comp]] (map-indexed vector ps)
                    :when (and (= :acquire (:f inv)) (= :ok (:type comp)))
                    :let [rel (first (filter (fn [[ri _]] (= :release (:f ri))) (subvec ps (inc i))))
                          rel-inv (first rel)
                          stop (min (or (some-> rel-inv :time) end)
                                    (or (get-in (second rel) [:value :lost-at]) Long/MAX_VALUE))]]
                {:start (:time comp) :stop stop :op (:index comp) :process (:process comp)
                 :path (get-in comp [:value :path])})
        sorted (vec (sort-by :start holds))
        overlaps (loop [i 1 latest (first sorted) out []]
                   (if (>= i (count sorted))
                     out
                     (let [h (nth sorted i)]
                       (recur (inc i)
                              (if (> (:stop h) (:stop latest)) h latest)
                              (if (< (:start h) (:stop latest))
                                (conj out {:error :two-holders :first latest :second h})
                                out)))))]
    {:valid? (if (empty? holds) :unknown (empty? overlaps))
     :checks "never two holders (hold = acquire ok .. release invoked or disconnect seen)"
     :acquisitions (count holds)
     :error-count (count overlaps)
     :errors (vec (take 20 overlaps))}))

(defn workload [_opts]
  {:reads-doc "(none)" :writes-doc "acquire, release"
   :client (->LockClient nil nil nil)
   :generator generator
   :observe observe!
   :exit-ops exit-ops
   :checker checker
   :reads #{}
   :writes #{:acquire :release}})

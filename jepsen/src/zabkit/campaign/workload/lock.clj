(ns zabkit.campaign.workload.lock
  "lock: the ZooKeeper paper's lock recipe. acquire = create an ephemeral-sequential child of
  /lock; the lowest child holds the lock; the others watch their predecessor (no herd). A holder
  stops believing it holds the lock as soon as its session disconnects (the session may expire
  behind its back), and releases by deleting its child.
  Checker: never two holders. A hold lasts from the acquire's completion to the earlier of the
  release's invocation and the disconnect the holder saw; holds of different acquisitions must not
  overlap (one clock: all clients run in this JVM)."
  (:require [clojure.string :as str]
            [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper Watcher)
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
    (let [zk (:zk conn)
          t (c/request-timeout-ms test)
          op (assoc op :session (:session conn))
          failed (fn [op r] (c/reply->completion op false r identity))]
      (case (:f op)
        ;; :zxid of a composite op: the reply that decided it (the list that showed this child
        ;; lowest; the delete of a release), a real reply zxid like every completion's
        :acquire
        (let [deadline (+ (System/currentTimeMillis) (:acquire-timeout-ms test 5000))
              cr (wire/create zk t (str root "/l-") (byte-array 0) c/acl (c/create-mode :ephemeral-sequential))
              mine (:created-path cr)]
          (if (:code cr)
            ;; an unknown create may have left a child that would block everyone: new session
            (failed (assoc op :reopen? true) cr)
            (let [op (assoc op :value {:path mine} :reopen? true)]
              (loop [i 0]
                (let [kr (wire/get-children zk t root)
                      me (last (str/split mine #"/"))
                      before (last (take-while #(neg? (compare % me)) (sort (:children kr))))]
                  (cond
                    (:code kr) (failed op kr)

                    (nil? before)
                    (do (reset! lost-at-ns nil) (reset! held mine)
                        (assoc op :type :ok :value {:path mine} :zxid (:zxid kr) :reopen? false))

                    (or (> i 1000) (> (System/currentTimeMillis) deadline))
                    (do (wire/delete zk t mine -1)
                        (assoc op :type :fail :error :timeout :value {:path mine} :zxid (:zxid kr)))

                    :else
                    (let [latch (CountDownLatch. 1)
                          w (reify Watcher (process [_ _] (.countDown latch)))
                          er (wire/exists zk t (str root "/" before) :watcher w)]
                      (if (:code er)
                        (failed op er)
                        (do (when (:stat er)
                              (.await latch (max 1 (- deadline (System/currentTimeMillis))) TimeUnit/MILLISECONDS))
                            (recur (inc i)))))))))))
        :release
        (let [mine @held
              lost @lost-at-ns
              op (assoc op :value (cond-> {:path mine} lost (assoc :lost-at lost)))]
          (reset! held nil)
          (c/reply->completion (assoc op :reopen? true) false (wire/delete zk t mine -1)
                               (fn [_] (cond-> (assoc op :type :ok) lost (assoc :reopen? true))))))))
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

(ns zabkit.campaign.workload.soak
  "soak: hours of writes that must all survive. Every create names a fresh znode under one of
  `buckets` parents (/soak/b0 ... /soak/b63, so no getChildren reply outgrows jute.maxbuffer
  however long the run), with reads of the workload's own znodes and listings of buckets mixed
  in. After the faults are healed every bucket is synced and listed once: the read-back. Its
  checker counts what no user may lose: an acknowledged create missing from its bucket's final
  listing, and a listed child nobody tried to create. zk-check checks everything else on the same
  history (LinearizableWrites, FifoClientOrder, MonotonicReads, SyncReads).

  Setup also writes one big znode (/soak-big, big-bytes) for the slow-client fault
  (zabkit.campaign.stray), recorded in the history like every other write."
  (:require [clojure.string :as str]
            [zabkit.campaign.client :as c]
            [zabkit.campaign.wire :as wire])
  (:import (org.apache.zookeeper ZooKeeper)))

(def root "/soak")
(def buckets 64)
(def big-path "/soak-big")
(def big-bytes (* 512 1024))

(defn bucket-path [k] (str root "/b" k))
(defn bucket-of
  "The bucket path of a znode path, or nil if it is not a soak znode."
  [^String path]
  (when-let [[_ b] (re-matches #"(/soak/b\d+)/[^/]+" (str path))] b))

(defn- record-big-write!
  "setData of big-bytes on big-path by the setup process, recorded as an ordinary :write."
  [test conn]
  (let [record! (:record! test)
        proc (:setup-process test)
        value (apply str (repeat big-bytes \x))
        inv (record! {:type :invoke :process @proc :f :write :path big-path :value value
                      :session (:session conn) :setup? true})
        r (wire/set-data (:zk conn) (c/request-timeout-ms test) big-path (c/str->bytes value) -1)
        comp (c/reply->completion (dissoc inv :index :time) false r
                                  (fn [r] (assoc (dissoc inv :index :time) :type :ok :stat (c/stat->map (:stat r)))))]
    (record! comp)
    (when (= :info (:type comp)) (swap! proc inc))
    (when-not (= :ok (:type comp))
      (throw (ex-info (str "setup: setData " big-path " failed: " (name (or (:error comp) :unknown)))
                      {:error (:error comp)})))))

(defrecord SoakClient [conn]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil)))
  (setup! [_ test]
    (c/ensure-path! test conn root)
    (dotimes [k buckets] (c/ensure-path! test conn (bucket-path k)))
    (c/ensure-path! test conn big-path)
    (record-big-write! test conn))
  (invoke! [_ test op]
    (let [zk (:zk conn)
          t (c/request-timeout-ms test)
          ^String path (:path op)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :create (c/reply->completion op false
                                     (wire/create zk t path (c/str->bytes (get-in op [:value :data])) c/acl
                                                  (c/create-mode :persistent))
                                     (fn [r] (assoc op :type :ok :value (assoc (:value op) :created-path (:created-path r))
                                                    :stat (c/stat->map (:stat r)))))
        :read (c/reply->completion op true (wire/get-data zk t path)
                                   (fn [r] (assoc op :type :ok :value (c/bytes->str (:data r)) :stat (c/stat->map (:stat r)))))
        :sync (c/reply->completion op true (wire/sync-path zk t path) (fn [_] (assoc op :type :ok)))
        :get-children (c/reply->completion op true (wire/get-children zk t path)
                                           (fn [r] (assoc op :type :ok :value (vec (sort (:children r)))
                                                          :stat (c/stat->map (:stat r))))))))
  (teardown! [_ _])
  (close! [_ _] (when-let [^ZooKeeper zk (:zk conn)] (.close zk 2000))))

(defn generator
  "75% creates of fresh znodes, 15% reads of a znode this worker created, 10% bucket listings."
  [test wstate]
  (let [r (rand)
        mine (:created @wstate)]
    (cond
      (or (< r 0.75) (empty? mine))
      (let [n (swap! (:value-counter test) inc)]
        {:f :create :path (str (bucket-path (mod n buckets)) "/w" n)
         :value {:data (str "v" n) :mode :persistent}})
      (< r 0.90) {:f :read :path (rand-nth mine) :value nil}
      :else {:f :get-children :path (bucket-path (rand-int buckets)) :value nil})))

(defn observe!
  "Remembers (a bounded sample of) the znodes this worker created, for its reads."
  [wstate op]
  (when (and (= :create (:f op)) (= :ok (:type op)))
    (swap! wstate update :created (fn [v] (let [v (conj (or v []) (:path op))]
                                            (if (> (count v) 1000) (subvec v 500) v))))))

(defn final-ops
  "The read-back: worker w syncs and lists the buckets k with k mod concurrency = w."
  [test worker]
  (mapcat (fn [k] [{:f :sync :path (bucket-path k) :value nil}
                   {:f :get-children :path (bucket-path k) :value nil :final? true}])
          (filter #(= worker (mod % (:concurrency test))) (range buckets))))

(defn read-back
  "What the final listings say about every create: lost (acknowledged, its bucket listed, not
  there), phantom (listed, but never requested or definitely failed, Jepsen's :fail), unread
  (acknowledged, its bucket's final listing failed). Invalid on any lost or phantom; unknown when
  an acknowledged create went unread."
  [history]
  (let [invoked (volatile! #{})
        failed (volatile! #{})
        acked (volatile! #{})
        listed (volatile! {})
        open (volatile! {})]
    (doseq [op history :when (integer? (:process op))]
      (case (:type op)
        :invoke (do (vswap! open assoc (:process op) op)
                    (when (and (= :create (:f op)) (bucket-of (:path op))) (vswap! invoked conj (:path op))))
        :ok (let [inv (@open (:process op))]
              (when (and (= :create (:f op)) (bucket-of (:path op))) (vswap! acked conj (:path op)))
              (when (and (= :get-children (:f op)) (:final? inv))
                (vswap! listed assoc (:path op) (set (map #(str (:path op) "/" %) (:value op))))))
        :fail (when (and (= :create (:f op)) (bucket-of (:path op))) (vswap! failed conj (:path op)))
        nil))
    (let [in-bucket (group-by bucket-of @acked)
          lost (sort (for [[b ps] in-bucket :let [seen (@listed b)] :when seen, p ps :when (not (seen p))] p))
          unread (sort (for [[b ps] in-bucket :when (not (@listed b)), p ps] p))
          phantom (sort (for [[_ seen] @listed, p seen :when (or (not (@invoked p)) (@failed p))] p))]
      {:valid? (cond (or (seq lost) (seq phantom)) false
                     (seq unread) :unknown
                     :else true)
       :checks (format "read-back: %d acknowledged creates, %d in the final listings, %d lost, %d phantom, %d unread"
                       (count @acked) (count (filter (fn [p] (contains? (get @listed (bucket-of p) #{}) p)) @acked))
                       (count lost) (count phantom) (count unread))
       :acknowledged (count @acked)
       :buckets-read-back (count @listed)
       :read-back (count (filter (fn [p] (contains? (get @listed (bucket-of p) #{}) p)) @acked))
       :lost-count (count lost) :lost (vec (take 20 lost))
       :phantom-count (count phantom) :phantoms (vec (take 20 phantom))
       :unread-count (count unread)})))

(defn checker [_test history _pairs] (read-back history))

(defn workload [_opts]
  {:reads-doc "read, get-children" :writes-doc "create"
   :client (->SoakClient nil)
   :generator generator
   :observe observe!
   :final-ops final-ops
   ;; the read-back is this workload's own figure; zk-check stays the oracle for the rest
   :checker checker
   :reads #{:read :get-children}
   :writes #{:create}})

(ns zabkit.campaign.workload.sequential
  "sequential: sequential creates under /seq. ZooKeeper appends a counter (the parent's cversion)
  to the name, so names must be unique, increase in the order the creates were ordered
  (LinearizableWrites: a create that finished before another began has the lower number; and
  within a session in issue order, FifoClientOrder), and no acknowledged create may be lost
  (final reads after sync see every ok create, and nothing that was never asked for).
  Reads (getChildren) within a session never lose a child (MonotonicReads; no deletes here)."
  (:require [clojure.string :as str]
            [zabkit.campaign.client :as c])
  (:import (org.apache.zookeeper ZooKeeper CreateMode)
           (org.apache.zookeeper.data Stat)))

(def root "/seq")
(def prefix "s-")

(defn seq-number [name-or-path] (parse-long (subs name-or-path (- (count name-or-path) 10))))

(defrecord SequentialClient [conn]
  c/Client
  (open! [this test w] (assoc this :conn (c/session test (:worker w) nil)))
  (setup! [_ test] (c/ensure-path! test conn root))
  (invoke! [_ test op]
    (let [^ZooKeeper zk (:zk conn)
          op (assoc op :session (:session conn))]
      (case (:f op)
        :create (c/with-errors op false
                  (let [st (Stat.)
                        p (.create zk (str root "/" prefix) (c/str->bytes (get-in op [:value :data]))
                                   c/acl (c/create-mode (get-in op [:value :mode])) st)]
                    (assoc op :type :ok :value (assoc (:value op) :created-path p)
                           :stat (c/stat->map st) :zxid (.getCzxid st))))
        :sync (c/with-errors op true
                (let [p (promise)]
                  (.sync zk root (reify org.apache.zookeeper.AsyncCallback$VoidCallback
                                   (processResult [_ rc _ _] (deliver p rc)))
                         nil)
                  (let [rc (deref p (+ 2000 (long (* 1.5 (:session-timeout test)))) ::timeout)]
                    (cond (= rc ::timeout) (assoc op :type :fail :error :operation-timeout)
                          (zero? rc) (assoc op :type :ok)
                          :else (assoc op :type :fail
                                       :error (c/code->keyword (org.apache.zookeeper.KeeperException$Code/get (int rc))))))))
        :get-children (c/with-errors op true
                        (let [st (Stat.)
                              kids (.getChildren zk ^String root false st)]
                          (assoc op :type :ok :value (vec (sort kids)) :stat (c/stat->map st)))))))
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

(defn checker [_test _history pairs]
  (let [creates (filter (fn [[inv _]] (= :create (:f inv))) pairs)
        ok (for [[inv comp] creates :when (= :ok (:type comp))]
             {:inv inv :comp comp :name (last (str/split (get-in comp [:value :created-path]) #"/"))
              :n (seq-number (get-in comp [:value :created-path]))})
        attempted (count (filter (fn [[_ comp]] (not= :fail (:type comp))) creates))
        errors (transient [])
        err! #(conj! errors %)]
    (doseq [[nm xs] (group-by :name ok) :when (> (count xs) 1)]
      (err! {:error :duplicate-name :name nm :ops (mapv (comp :index :comp) xs)}))
    ;; real-time order: sort by number; a later-numbered create must not finish before an
    ;; earlier-numbered one was invoked
    (let [sorted (vec (sort-by :n ok))]
      (loop [i (dec (count sorted)) min-later Long/MAX_VALUE]
        (when (>= i 0)
          (let [x (nth sorted i)]
            (when (< min-later (:time (:inv x)))
              (err! {:error :real-time-order :name (:name x) :op (:index (:comp x))}))
            (recur (dec i) (min min-later (:time (:comp x))))))))
    ;; per session: issue order = number order; reads never lose a child, see own creates
    (doseq [[sid ps] (group-by (comp :session second) (filter (fn [[_ c]] (= :ok (:type c))) pairs))
            :let [ps (sort-by (comp :index second) ps)]]
      (reduce (fn [{:keys [last-n seen own]} [inv comp]]
                (case (:f inv)
                  :create (let [n (seq-number (get-in comp [:value :created-path]))]
                            (when (and last-n (<= n last-n))
                              (err! {:error :session-order :session sid :n n :after last-n :op (:index comp)}))
                            {:last-n n :seen seen :own (conj own (get-in comp [:value :created-path]))})
                  :get-children (let [now (set (:value comp))
                                      missing (remove now seen)
                                      own-missing (remove #(now (last (str/split % #"/"))) own)]
                                  (when (seq missing)
                                    (err! {:error :monotonic-reads :session sid :lost (vec (take 5 missing)) :op (:index comp)}))
                                  (when (seq own-missing)
                                    (err! {:error :read-your-writes :session sid :missing (vec (take 5 own-missing)) :op (:index comp)}))
                                  {:last-n last-n :seen now :own own})
                  {:last-n last-n :seen seen :own own}))
              {:last-n nil :seen #{} :own #{}} ps))
    ;; final reads (after heal and sync): every ok create present, nothing never attempted
    (let [finals (for [[inv comp] pairs :when (and (:final? inv) (= :ok (:type comp)))] comp)
          ok-names (set (map :name ok))]
      (doseq [f finals
              :let [kids (set (:value f))
                    lost (remove kids ok-names)]]
        (when (seq lost) (err! {:error :lost-create :lost (vec (take 10 lost)) :count (count lost) :op (:index f)}))
        (when (> (count kids) attempted)
          (err! {:error :phantom-children :children (count kids) :attempted attempted :op (:index f)})))
      (let [errs (persistent! errors)]
        {:valid? (if (empty? finals) :unknown (empty? errs))
         :checks "unique names, real-time and session order of numbers, MonotonicReads, read-your-writes, no lost or phantom creates"
         :ok-creates (count ok) :final-reads (count finals)
         :error-count (count errs) :errors (vec (take 20 errs))}))))

(defn workload [_opts]
  {:reads-doc "get-children" :writes-doc "create"
   :client (->SequentialClient nil)
   :generator generator
   :final-ops final-ops
   :checker checker
   :reads #{:get-children}
   :writes #{:create}})

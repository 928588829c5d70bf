(ns zabkit.campaign.projection
  "A Knossos/Elle-style projection of a campaign history (jepsen-history.edn beside history.edn),
  so a user with Clojars access can run Knossos or Elle on the same run.

  - register: each key is a register, values as jepsen.independent tuples [key value]:
    :read [k data], :write [k data], :cas [k [expected-data new-data]]. A cas names a version;
    the projection names the data that version held (every version a client expects is one it
    saw with its data: a read's Stat and value, a write's reply Stat and the data it wrote, the
    setup's empty node at version 0). The setup creates are writes of \"\" (ZooKeeper's empty
    data), so the registers start from what they held. :sync is left out (it changes nothing).
  - multi: :txn with Elle's rw-register micro-ops: a write multi is [[:w k v] ...] (its version
    check is a precondition, visible as the multi's failure), a read-only multi [[:r k v] ...].
  - nemesis ops: Jepsen's convention, :f :start / :stop with the shared fault name in the value.
  Other workloads' client ops do not map onto a register or a transaction and are left out.

  ZooKeeper serves reads from the session's server, possibly stale: Knossos's linearizable
  register will rightly reject a history with a stale read. Sequential consistency per session
  is what ZooKeeper promises (zk-check checks that); the projection is for writes-only or
  sync-then-read analyses, or to watch Knossos find the stale reads.")

(defn- ok? [op] (= :ok (:type op)))

(defn nemesis-op
  "A nemesis op in Jepsen's convention (:f :start/:stop), the shared name kept as :event."
  [op]
  (when (= :nemesis (:process op))
    (when-let [phase (:jepsen-f op)]
      (-> (select-keys op [:index :time :type :process])
          (assoc :f phase :value (assoc (:value op) :event (:f op)))))))

(defn- version-data
  "{[path version] data} from every ok completion that shows both."
  [history pairs]
  (into {}
        (concat
         (for [[inv comp] pairs :when (ok? comp)
               :let [v (get-in comp [:stat :version])]
               :when v]
           (case (:f inv)
             (:read :get-data) [[(:path inv) v] (:value comp)]
             :write [[(:path inv) v] (:value inv)]
             :cas [[(:path inv) v] (second (:value inv))]
             :create [[(:path inv) v] (get-in inv [:value :data])]
             nil))
         (for [op history :when (and (ok? op) (= :create (:f op)) (:path op))]
           [[(:path op) 0] (get-in op [:value :data] "")]))))

(defn- register-op
  "One register op (invocation or completion) as Knossos's independent-key register; nil to
  leave it out."
  [vd inv op]
  (let [k (:path inv)
        base (select-keys op [:index :time :type :process :error])]
    (case (:f inv)
      :create (when (= :persistent (get-in inv [:value :mode]))
                (assoc base :f :write :value [k (get-in inv [:value :data] "")]))
      (:read :get-data) (assoc base :f :read :value [k (when (ok? op) (:value op))])
      :write (assoc base :f :write :value [k (:value inv)])
      :cas (let [[v data] (:value inv)]
             (assoc base :f :cas :value [k [(get vd [k v] ::unknown) data]]))
      nil)))

(defn- multi-op [inv op]
  (let [subs (:value inv)
        results (when (vector? (:value op)) (:value op))
        base (select-keys op [:index :time :type :process :error])]
    (assoc base :f :txn
           :value (vec (map-indexed
                        (fn [i s]
                          (case (:f s)
                            :get-data [:r (:path s) (when (ok? op) (:value (get results i)))]
                            :set-data [:w (:path s) (or (:value s) (:data s))]
                            :check nil
                            nil))
                        subs)))))

(defn- strip-nil-micro-ops [op]
  (if (= :txn (:f op)) (update op :value #(vec (remove nil? %))) op))

(defn project
  "The projected history (a vector of ops in history order), or nil for a workload with no
  projection. pairs are [invocation completion] of the client ops."
  [workload-name history pairs]
  (when (#{:register :multi} workload-name)
    (let [vd (version-data history pairs)
          inv-of (into {} (for [[inv comp] pairs :when comp] [(:index comp) inv]))
          proj (fn [op]
                 (or (nemesis-op op)
                     (when (integer? (:process op))
                       (let [inv (if (= :invoke (:type op)) op (inv-of (:index op)))]
                         (when inv
                           (case (:f inv)
                             :multi (strip-nil-micro-ops (multi-op inv op))
                             (register-op vd inv op)))))))
          out (vec (keep proj history))]
      (assert (every? :f out) "every projected op has an :f")
      ;; a cas whose expected version no observation showed would be a guess: say so, never guess
      (mapv (fn [op] (if (and (= :cas (:f op)) (= ::unknown (first (second (:value op)))))
                       (assoc op :value [(first (:value op)) [nil (second (second (:value op)))]]
                              :expected-data-unknown? true)
                       op))
            out))))

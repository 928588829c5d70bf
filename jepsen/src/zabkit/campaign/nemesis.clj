(ns zabkit.campaign.nemesis
  "Faults against the running ensemble. Each fault has a start and a stop; both are logged in the
  history as nemesis ops (:process :nemesis, :type :info) named with the shared fault names, and
  carry {:fault :kill-leader ... :fault-id n} so that a start and its stop pair up.

  Families and their targets:
    kill       kill -9 then restart    :leader :follower :minority :all
    pause      SIGSTOP then SIGCONT    :leader :follower :minority :all
    partition  iptables DROP between nodes (node<->node only, as Jepsen; the peer ports only)
               :leader (isolate it) :halves (random majority/minority) :ring (majorities ring:
               every node sees a majority, no two the same; two-way cuts; the bridge on 3 nodes)
               :bridge (two halves joined by one node)
    loss       iptables statistic: drop a random 20% of the packets every node receives
    clock      libfaketime: restart a minority with its clock skewed
  The soak's families (make soak; not in `all`, which stays the classic matrix):
    disk         fill the tmpfs a node's dataDir lives on (--disk-mb, netns backend), then free it;
                 a server that exited on the full disk is restarted    :leader :follower
    slow-client  a raw session that pipelines getData of the soak's big znode and never reads
                 the replies (zabkit.campaign.stray)                     :leader :follower
    stray-peer   connections to a node's peer ports claiming another member's id and announcing
                 a 256 MiB frame (zabkit.campaign.stray)                 :leader :follower"
  (:require [clojure.string :as str]
            [clojure.java.io :as io]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.stray :as stray]
            [zabkit.campaign.util :as u]))

(def families
  "The classic matrix's families: what `--nemesis all` means."
  [:kill :pause :partition :loss :clock])

(def soak-families [:disk :slow-client :stray-peer])

(def targets
  {:kill [:leader :follower :minority :all]
   :pause [:leader :follower :minority :all]
   :partition [:leader :halves :ring :bridge]
   :loss [:all]
   :clock [:minority]
   :disk [:leader :follower]
   :slow-client [:leader :follower]
   :stray-peer [:leader :follower]})

(def fault-names
  "History :f of a family's start and stop: the shared fault vocabulary (STYLE.md)."
  {:kill [:NodeCrash :NodeStart]
   :pause [:NodePause :NodeResume]
   :partition [:PartitionStart :PartitionRecover]
   :loss [:PacketLossStart :PacketLossStop]
   :clock [:ClockSkewStart :ClockSkewStop]
   :disk [:DiskFullStart :DiskFullStop]
   :slow-client [:SlowClientStart :SlowClientStop]
   :stray-peer [:StrayPeerStart :StrayPeerStop]})

(defn all-nemesis-names
  "Every accepted --nemesis name: a family (random target each time) or family-target."
  []
  (sort (concat ["none"] (map name (concat families soak-families))
                (for [[f ts] targets, t ts :when (> (count ts) 1)] (str (name f) "-" (name t))))))

(defn parse-nemesis
  "\"kill,partition-leader\" -> [{:family :kill :targets [...]} {:family :partition :targets [:leader]}]."
  [s]
  (let [names (remove str/blank? (str/split (str s) #","))
        names (if (some #{"all"} names) (map name families) names)]
    (vec (for [n names :when (not= n "none")]
           ;; family names may hold a hyphen themselves (slow-client): the longest one n starts with
           (let [fam (->> (keys targets) (map name)
                          (filter #(or (= n %) (str/starts-with? n (str % "-"))))
                          (sort-by count) last)
                 tgt (when (and fam (> (count n) (count fam))) (subs n (inc (count fam))))
                 fam (keyword fam)]
             (when-not (and (targets fam) (or (nil? tgt) (some #{(keyword tgt)} (targets fam))))
               (throw (ex-info (str "unknown nemesis '" n "'; known: " (str/join ", " (all-nemesis-names)))
                               {:type :usage})))
             {:family fam :targets (if tgt [(keyword tgt)] (targets fam))})))))

(defn- node-list [test] (nodes/node-names (:nodes-impl test)))

;; ---- the fault schedule: every choice drawn from the run's seeded generator (--seed), and each
;; choice draws the same number of values whatever the ensemble's state (a leader or not), so two
;; runs with one seed (both systems in test-all) get the same fault kinds and node positions

(defn make-rng
  "The schedule's generator for a seed."
  ^java.util.Random [seed]
  (java.util.Random. (long seed)))

(defn- rng ^java.util.Random [test]
  (or (:nemesis-rng test) (throw (IllegalStateException. "the test map has no :nemesis-rng"))))

(defn- pick
  "One element of coll; always exactly one draw."
  [test coll]
  (assert (seq coll) "nothing to pick from")
  (nth coll (mod (.nextInt (rng test) Integer/MAX_VALUE) (count coll))))

(defn- shuffled
  "coll in an order drawn from the schedule (count - 1 draws)."
  [test coll]
  (let [l (java.util.ArrayList. ^java.util.Collection (vec coll))]
    (java.util.Collections/shuffle l (rng test))
    (vec l)))

(defn- pick-nodes
  "Chooses the nodes a kill or pause aims at."
  [test target]
  (let [ns (node-list test)
        leader (db/leader test)]
    (case target
      :leader [(let [any (pick test ns)] (or leader any))]
      :follower [(pick test (vec (or (seq (remove #{leader} ns)) ns)))]
      :minority (vec (take (quot (dec (count ns)) 2) (shuffled test ns)))
      :all (vec ns))))

;; ---- partitions: a grudge maps a node to the nodes it drops packets from

(defn- complete-split
  "Each side drops everything from the other side."
  [a b]
  (merge (into {} (for [x a] [x (set b)])) (into {} (for [x b] [x (set a)]))))

(defn ring-grudge
  "A majorities ring over the nodes in the order given: node i hears the nodes within ring distance
  d of itself and drops the rest, with d the least that makes its window (2d + 1 nodes) a majority.
  Ring distance is symmetric, so every cut is two-way: TCP needs both directions, and a one-way cut
  (an asymmetric window) would break the link as fully as a two-way one. Each window is a different
  majority as long as 2d + 1 < n, which holds from 4 nodes on. On 3 nodes no two-way graph gives
  every node a different majority except the bridge (a - b - c), so :ring is the bridge there.
  (Before this, node i heard a window running from i - (m-1)/2 forward: one-way cuts on 3 nodes,
  so no two nodes could talk and the soak's 3-node partition-ring had no leader until it healed.)"
  [ns]
  (let [n (count ns)
        majority (inc (quot n 2))
        d (quot majority 2)]
    (if (< n 4)
      (let [[a _ c] ns] (if c (complete-split [a] [c]) {}))
      (into {} (for [i (range n)]
                 (let [window (set (for [k (range (- d) (inc d))] (nth ns (mod (+ i k) n))))]
                   (assert (>= (count window) majority))
                   [(nth ns i) (set (remove window ns))]))))))

(defn grudge
  [test target]
  (let [ns (shuffled test (node-list test))
        n (count ns)]
    (case target
      :leader (let [l (or (db/leader test) (first ns))]
                (complete-split [l] (remove #{l} ns)))
      :halves (let [[a b] (split-at (quot n 2) ns)] (complete-split a b))
      :bridge (let [k (quot n 2)
                    a (take k ns) b (drop (inc k) ns)]
                (complete-split a b))
      :ring (ring-grudge ns))))

(defn- iptables! [test node & args]
  (let [r (nodes/exec! (:nodes-impl test) node (into ["iptables" "-w"] args))]
    (when-not (zero? (:exit r))
      (throw (ex-info (str "iptables on " node " failed: " (str/trim (:err r))) {})))))

(defn- apply-grudge! [test g]
  (doseq [[node drops] g, other drops]
    ;; only the peer ports: clients, and the ssh that heals the partition, still get through
    ;; (on a real cluster the control node may be one of the hosts)
    (iptables! test node "-A" "ZBK-PART" "-s" (nodes/node-host (:nodes-impl test) other)
               "-p" "tcp" "-m" "multiport" "--ports" (str/join "," db/peer-ports) "-j" "DROP")))

(defn heal-partitions! [test]
  (doseq [node (node-list test)] (iptables! test node "-F" "ZBK-PART")))

(defn heal-loss! [test]
  (doseq [node (node-list test)] (iptables! test node "-F" "ZBK-LOSS")))

;; ---- clock skew: libfaketime is preloaded into a restarted server

(def libfaketime "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")

(defn- restart-with-env! [test node env]
  (db/kill-node! test node)
  (swap! (:node-env test) (fn [m] (if env (assoc m node env) (dissoc m node))))
  (db/start-node! test node))

;; ---- start and stop of each family

(defmulti start-fault! (fn [_ family _] family))
(defmulti stop-fault! (fn [_ family _] family))

(defmethod start-fault! :kill [test _ target]
  (let [victims (pick-nodes test target)]
    (doseq [n victims] (db/kill-node! test n))
    {:nodes victims}))
(defmethod stop-fault! :kill [test _ state]
  (doseq [n (:nodes state)] (db/start-node! test n))
  state)

(defmethod start-fault! :pause [test _ target]
  (let [victims (pick-nodes test target)]
    (doseq [n victims] (db/signal-node! test n "STOP"))
    {:nodes victims}))
(defmethod stop-fault! :pause [test _ state]
  (doseq [n (:nodes state)] (db/signal-node! test n "CONT"))
  state)

(defmethod start-fault! :partition [test _ target]
  (let [g (grudge test target)]
    (apply-grudge! test g)
    {:grudge (into (sorted-map) (for [[k v] g] [k (vec (sort v))]))}))
(defmethod stop-fault! :partition [test _ state]
  (heal-partitions! test)
  state)

(defmethod start-fault! :loss [test _ _]
  (doseq [node (node-list test)]
    (iptables! test node "-A" "ZBK-LOSS" "-m" "statistic" "--mode" "random"
               "--probability" (str (:loss-probability test)) "-j" "DROP"))
  {:nodes (node-list test) :probability (:loss-probability test)})
(defmethod stop-fault! :loss [test _ state]
  (heal-loss! test)
  state)

(defmethod start-fault! :clock [test _ target]
  (let [victims (pick-nodes test target)
        skew-s (* (pick test [-1 1]) (+ 30 (pick test (range 300))))]
    (doseq [n victims]
      (restart-with-env! test n {"LD_PRELOAD" libfaketime
                                 "FAKETIME" (format "%+ds" skew-s)
                                 "FAKETIME_DONT_RESET" "1"}))
    {:nodes victims :skew-s skew-s}))
(defmethod stop-fault! :clock [test _ state]
  (doseq [n (:nodes state)] (restart-with-env! test n nil))
  state)

;; ---- the soak's families. Live handles (sockets) stay in the test's :live-faults atom: what
;; start-fault! returns goes into history.edn and must print as EDN.

(defn disk-filler ^java.io.File [test node] (io/file (db/disk-dir test node) "filler"))

(defn- fill-disk!
  "Fills node's data tmpfs to the last byte (fallocate of what df says is free, dd as fallback);
  returns the bytes the filler holds."
  [test node]
  (let [f (disk-filler test node)
        avail (some-> (u/sh! ["df" "-B1" "--output=avail" (.getPath (db/disk-dir test node))] :check? false)
                      :out str/split-lines last str/trim parse-long)]
    (when-not (and avail (pos? avail)
                   (zero? (:exit (u/sh! ["fallocate" "-l" (str avail) (.getPath f)] :check? false))))
      ;; dd stops with "No space left on device": that is the point
      (u/sh! ["dd" "if=/dev/zero" (str "of=" (.getPath f)) "bs=1M"] :check? false :timeout-ms 60000))
    (.length f)))

(defmethod start-fault! :disk [test _ target]
  (when-not (:disk-mb test)
    (throw (ex-info "the disk fault needs --disk-mb (each dataDir on a tmpfs of that size)" {:type :usage})))
  (let [victims (pick-nodes test target)]
    {:nodes victims :filled-bytes (into (sorted-map) (for [n victims] [n (fill-disk! test n)]))}))
(defmethod stop-fault! :disk [test _ state]
  (doseq [n (:nodes state)] (io/delete-file (disk-filler test n) true))
  (assoc state :restarted (db/restart-exited! test)))

(defmethod start-fault! :slow-client [test _ target]
  (let [[node] (pick-nodes test target)
        h (stray/start-slow-client! (nodes/node-host (:nodes-impl test) node) db/client-port
                                    "/soak-big" 3000)]
    (swap! (:live-faults test) assoc :slow-client h)
    {:nodes [node] :requests (:requests h)}))
(defmethod stop-fault! :slow-client [test _ state]
  (let [h (:slow-client @(:live-faults test))]
    (swap! (:live-faults test) dissoc :slow-client)
    (cond-> state h (merge (stray/stop-slow-client! h)))))

(defmethod start-fault! :stray-peer [test _ target]
  (let [ns (node-list test)
        [node] (pick-nodes test target)
        claimed (first (remove #{node} ns))
        h (stray/start-stray-peer! (:system test) (nodes/node-host (:nodes-impl test) node) db/peer-ports
                                   (db/myid test claimed)
                                   (str (nodes/node-host (:nodes-impl test) claimed) ":" (second db/peer-ports)))]
    (swap! (:live-faults test) assoc :stray-peer h)
    {:nodes [node] :claimed-id (:claimed-id h)}))
(defmethod stop-fault! :stray-peer [test _ state]
  (let [h (:stray-peer @(:live-faults test))]
    (swap! (:live-faults test) dissoc :stray-peer)
    (cond-> state h (merge (stray/stop-stray-peer! h)))))

;; ---- the nemesis loop

(defn- record!
  "A nemesis op: :f the shared fault name (NodeCrash, ...), :jepsen-f Jepsen's nemesis
  convention (:start when a fault begins, :stop when it is healed)."
  [test phase f value]
  (assert (#{:start :stop} phase))
  ((:record! test) {:type :info :process :nemesis :f f :jepsen-f phase :value value}))

(defn run-fault!
  "Starts one fault, holds it for hold-ms (bounded by the deadline), stops it. Exceptions are
  logged into the history as nemesis :info ops rather than killing the campaign."
  [test fault-id {:keys [family targets]} hold-ms deadline-ms]
  (let [target (pick test targets)
        fault (keyword (str (name family) "-" (name target)))
        [start-f stop-f] (fault-names family)
        base {:fault fault :fault-id fault-id}
        state (try (start-fault! test family target)
                   (catch Exception e {:error (.getMessage e)}))]
    (record! test :start start-f (merge base state))
    (reset! (:active-fault test) fault)
    (Thread/sleep (long (max 0 (min hold-ms (- deadline-ms (System/currentTimeMillis))))))
    (let [stopped (try (stop-fault! test family state)
                       (catch Exception e (assoc state :error (.getMessage e))))]
      (reset! (:active-fault test) nil)
      (record! test :stop stop-f (merge base stopped)))))

(defn nemesis-loop
  "Quiet for an interval, fault for an interval, and so on until the deadline, cycling through
  the requested faults. Every fault it starts is stopped before it returns."
  [test deadline-ms]
  (let [faults (:nemesis-faults test)
        interval-ms (* 1000 (:nemesis-interval test))]
    (when (seq faults)
      (loop [i 0]
        (Thread/sleep (long (max 0 (min interval-ms (- deadline-ms (System/currentTimeMillis))))))
        (when (and (< i 10000) (< (+ (System/currentTimeMillis) 1000) deadline-ms))
          (run-fault! test i (nth faults (mod i (count faults))) interval-ms deadline-ms)
          (recur (inc i)))))))

(defn heal-all!
  "After the main phase: no partition, no loss, no paused or stopped server, no skew."
  [test]
  (try (heal-partitions! test) (catch Exception _))
  (try (heal-loss! test) (catch Exception _))
  (when-let [live (:live-faults test)]
    (doseq [[k h] @live]
      (try (case k :slow-client (stray/stop-slow-client! h) :stray-peer (stray/stop-stray-peer! h))
           (catch Exception _)))
    (reset! live {}))
  (when (:disk-mb test)
    (doseq [n (node-list test)] (io/delete-file (disk-filler test n) true))
    (db/restart-exited! test))
  (doseq [n (node-list test)]
    (db/signal-node! test n "CONT")
    (when (get @(:node-env test) n) (restart-with-env! test n nil))
    (db/start-node! test n)))

(ns zabkit.campaign.nodes
  "Where the servers run. One protocol, three ways to get nodes:
   - :netns  (default) every node and the controller in a network namespace of its own, joined by a
             bridge that lives in a namespace too, so no address of the run exists outside them;
   - :docker containers on an internal Docker network (see zabkit.campaign.docker);
   - :ssh    real hosts that the user names, reached with ssh as root (zabkit.campaign.ssh).
  Every process a run starts is recorded (node, pid) in <store>/pids, so a run that dies can
  still be cleaned up by pid, and only those pids are ever signalled."
  (:require [clojure.string :as str]
            [clojure.java.io :as io]
            [zabkit.campaign.util :as u])
  (:import (java.lang ProcessBuilder$Redirect)))

(defprotocol Nodes
  (setup-nodes! [this] "Creates the network and the node environments.")
  (teardown-nodes! [this] "Removes everything setup-nodes! created; safe to call twice.")
  (node-names [this] "Node names, e.g. [\"n1\" \"n2\" \"n3\"].")
  (node-host [this node] "The address clients and peers use for node.")
  (exec! [this node argv] "Runs argv on node (waits, bounded); returns {:exit :out :err}.")
  (spawn! [this node argv log-file] "Starts argv on node in the background; returns its pid.")
  (signal! [this node pid sig] "Sends signal sig (\"KILL\", \"STOP\", \"CONT\", \"TERM\") to pid on node.")
  (controller-argv [this argv] "argv wrapped so that it runs where the clients must run."))

(defprotocol NodeFiles
  "A node's files. Every backend but ssh shares the store folder with its nodes (the same
  filesystem or a bind mount), so by default a path is the same everywhere and nothing is copied."
  (node-path [this node local-file] "Where the node sees local-file, a file of its store folder <store>/<node>/.")
  (push-node-files! [this node local-dir] "Copies <store>/<node>/ to the node before its server starts.")
  (pull-node-files! [this node local-dir] "Copies the node's logs back into <store>/<node>/ after it stopped."))

(extend-protocol NodeFiles
  Object
  (node-path [_ _ local-file] (.getPath (io/file local-file)))
  (push-node-files! [_ _ _] nil)
  (pull-node-files! [_ _ _] nil))

(defn record-pid!
  "Appends a started process to <store>/pids (read by the launcher's cleanup)."
  [store node pid]
  (locking record-pid!
    (spit (io/file store "pids") (str node " " pid "\n") :append true)))

(defn recorded-pids [store]
  (let [f (io/file store "pids")]
    (if (.exists f)
      (for [line (str/split-lines (slurp f)) :when (not (str/blank? line))
            :let [[node pid] (str/split line #" ")]]
        [node (parse-long pid)])
      [])))

;; ---------------------------------------------------------------------------------------------
;; Network namespaces

(def netns-prefix
  "Every namespace a campaign creates starts with this, followed by a run-unique id."
  "zbkc")

(defn- ip! [& args] (u/sh! (into ["ip"] args)))

(defn- netns-name [run-id x] (str netns-prefix run-id "-" x))

(defn- netns-list []
  (->> (:out (u/sh! ["ip" "netns" "list"])) str/split-lines
       (map #(first (str/split % #" "))) (remove str/blank?)))

(defrecord NetnsNodes [run-id n store]
  Nodes
  (node-names [_] (mapv #(str "n" %) (range 1 (inc n))))
  (node-host [_ node] (str "10.213.0." (+ 10 (parse-long (subs node 1)))))
  (setup-nodes! [this]
    (let [br (netns-name run-id "br")]
      (ip! "netns" "add" br)
      (ip! "-n" br "link" "set" "lo" "up")
      (ip! "-n" br "link" "add" "br0" "type" "bridge")
      (ip! "-n" br "link" "set" "br0" "up")
      (doseq [[x addr] (conj (mapv (fn [node] [node (node-host this node)]) (node-names this))
                             ["ctl" "10.213.0.100"])]
        (let [nsx (netns-name run-id x)]
          (ip! "netns" "add" nsx)
          ;; Both veth ends are born in the bridge namespace and one moves into the node's:
          ;; no interface of the run ever exists in the host's namespace.
          (ip! "-n" br "link" "add" (str "v" x) "type" "veth" "peer" "name" "eth0" "netns" nsx)
          (ip! "-n" br "link" "set" (str "v" x) "master" "br0" "up")
          (ip! "-n" nsx "addr" "add" (str addr "/24") "dev" "eth0")
          (ip! "-n" nsx "link" "set" "eth0" "up")
          (ip! "-n" nsx "link" "set" "lo" "up")))
      ;; Fault chains: partitions and packet loss are flushed independently.
      (doseq [node (node-names this), chain ["ZBK-PART" "ZBK-LOSS"]]
        (u/sh! ["ip" "netns" "exec" (netns-name run-id node) "iptables" "-w" "-N" chain])
        (u/sh! ["ip" "netns" "exec" (netns-name run-id node) "iptables" "-w" "-A" "INPUT" "-j" chain]))
      this))
  (teardown-nodes! [_]
    ;; Processes first (by recorded pid), then the namespaces; deleting a namespace takes its
    ;; veths and its iptables rules with it.
    (doseq [[_ pid] (recorded-pids store)]
      (when (some-> (u/pid-cmdline pid) (str/includes? (str store)))
        (u/sh! ["kill" "-9" (str pid)] :check? false)))
    (let [mine (filter #(str/starts-with? % (str netns-prefix run-id "-")) (netns-list))]
      (doseq [nsx mine]
        (u/sh! ["ip" "netns" "del" nsx] :check? false))
      (count mine)))
  (exec! [_ node argv]
    (u/sh! (into ["ip" "netns" "exec" (netns-name run-id node)] argv) :check? false))
  (spawn! [_ node argv log-file]
    ;; `ip netns exec` execs the command, so the pid we get is the server's own.
    (let [pb (doto (ProcessBuilder. ^java.util.List (into ["ip" "netns" "exec" (netns-name run-id node)] argv))
               (.redirectErrorStream true)
               (.redirectOutput (ProcessBuilder$Redirect/appendTo (io/file log-file))))
          pid (.pid (.start pb))]
      (record-pid! store node pid)
      pid))
  (signal! [_ _ pid sig]
    (u/sh! ["kill" (str "-" sig) (str pid)] :check? false))
  (controller-argv [_ argv]
    (into ["ip" "netns" "exec" (netns-name run-id "ctl")] argv)))

(defn stale-netns
  "Namespaces left by campaigns that were killed before they could clean up."
  []
  (filter #(str/starts-with? % netns-prefix) (netns-list)))

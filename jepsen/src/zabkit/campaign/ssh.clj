(ns zabkit.campaign.ssh
  "The ssh node backend: the user's own hosts, reached with `ssh user@host` (key-based, BatchMode;
  --ssh-config is passed as `ssh -F`). Jepsen's model: a control node (where `lein run` runs, with
  the clients and the nemesis) and DB nodes that share nothing with it but the network.

  On each host the run creates, and removes at the end (also on failure or Ctrl-C):
    <ssh-dir>/<run-id>/<node>/   zoo.cfg, myid, logback.xml, data, the server's logs (copied from
                                 the store folder before a server starts; all but data/ copied
                                 back after the servers stop, so the store folder has the logs)
    <ssh-dir>/<run-id>/lib/      ZooKeeper's jars, shipped from this runner's classpath (--system
                                 zookeeper), so the hosts need only a JDK
    iptables chains ZBK-PART, ZBK-LOSS, jumped to first from INPUT
  and the server processes, whose pids are recorded in <store>/pids and are the only ones signalled.
  --system zabkit runs bin/zabkit-server from the same checkout path on every host, built."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.util :as u])
  (:import (java.io File)
           (java.lang ProcessBuilder$Redirect)
           (java.util.concurrent TimeUnit)))

(defn- ssh-argv [{:keys [config user]} host]
  (cond-> ["ssh" "-o" "BatchMode=yes" "-o" "ConnectTimeout=5" "-o" "ServerAliveInterval=5"
           "-o" "ServerAliveCountMax=3"]
    config (into ["-F" config])
    true (conj (str user "@" host))))

(defn- remote!
  "Runs a shell command line on host (bounded); {:exit :out :err}."
  [this host cmd & {:keys [check? timeout-ms] :or {check? false timeout-ms 30000}}]
  (u/sh! (conj (ssh-argv this host) cmd) :check? check? :timeout-ms timeout-ms))

(defn- sh-line [argv] (str/join " " (map u/shell-quote argv)))

(defn- piped!
  "Runs argv with stdin from in-file and/or stdout to out-file (binary-safe, bounded)."
  [argv & {:keys [^File in ^File out timeout-ms] :or {timeout-ms 120000}}]
  (let [pb (ProcessBuilder. ^java.util.List (mapv str argv))
        _ (when in (.redirectInput pb in))
        _ (when out (.redirectOutput pb out))
        err-file (File/createTempFile "zabkit-ssh" ".err")
        _ (.redirectError pb err-file)
        p (.start pb)]
    (try
      (when-not (.waitFor p timeout-ms TimeUnit/MILLISECONDS)
        (.destroyForcibly p)
        (throw (ex-info (str "timed out after " timeout-ms " ms: " (str/join " " argv)) {})))
      (when-not (zero? (.exitValue p))
        (throw (ex-info (str "failed (exit " (.exitValue p) "): " (str/join " " argv) "\n"
                             (str/trim (slurp err-file)))
                        {})))
      (finally (.delete err-file)))))

(defn- with-temp-tar [f]
  (let [tar (File/createTempFile "zabkit-ssh" ".tar")]
    (try (f tar) (finally (.delete tar)))))

(defn- push-tar!
  "Unpacks a local tar file into dir on host."
  [this host ^File tar dir]
  (piped! (conj (ssh-argv this host) (str "mkdir -p " (u/shell-quote dir) " && tar -C " (u/shell-quote dir) " -xf -"))
          :in tar))

(defn run-dir [this] (str (:ssh-dir this) "/" (:run-id this)))
(defn- remote-node-dir [this node] (str (run-dir this) "/" node))

(def ^:private chains ["ZBK-PART" "ZBK-LOSS"])

(defn- setup-chains-cmd []
  ;; a chain left by a run that was killed is flushed and reused, never duplicated in INPUT
  (str/join " && " (for [c chains]
                     (str "{ iptables -w -N " c " 2>/dev/null || iptables -w -F " c "; }"
                          " && { iptables -w -C INPUT -j " c " 2>/dev/null || iptables -w -I INPUT -j " c "; }"))))

(defn- teardown-chains-cmd []
  (str/join "; " (for [c chains]
                   (str "while iptables -w -D INPUT -j " c " 2>/dev/null; do :; done; "
                        "iptables -w -F " c " 2>/dev/null; iptables -w -X " c " 2>/dev/null"))))

(defn- ship-classpath!
  "Copies the jars of classpath (absolute paths on this machine) to <run-dir>/lib on host."
  [this host classpath]
  (with-temp-tar
    (fn [tar]
      (u/sh! (into ["tar" "-cf" (.getPath ^File tar)]
                   (mapcat (fn [jar] (let [f (io/file jar)] ["-C" (.getParent f) (.getName f)]))
                           (str/split classpath #":")))
             :timeout-ms 60000)
      (push-tar! this host tar (str (run-dir this) "/lib")))))

(defrecord SshNodes [hosts user config ssh-dir run-id store ship-classpath]
  nodes/Nodes
  (node-names [_] (vec hosts))
  (node-host [_ node] node)
  (setup-nodes! [this]
    (doseq [h hosts]
      (let [r (remote! this h "true")]
        (when-not (zero? (:exit r))
          (throw (ex-info (str "ssh " user "@" h " failed: " (str/trim (:err r))
                               " (the ssh backend needs key-based login as " user " to every --ssh-hosts entry; "
                               "--ssh-config passes an ssh_config file)")
                          {:type :setup})))))
    (doseq [h hosts]
      (let [r (remote! this h (str "mkdir -p " (u/shell-quote (run-dir this)) " && " (setup-chains-cmd)))]
        (when-not (zero? (:exit r))
          (throw (ex-info (str "setting up " h " failed (mkdir " (run-dir this) ", iptables chains "
                               (str/join ", " chains) "; the user must be root and iptables installed): "
                               (str/trim (:err r)))
                          {:type :setup}))))
      (when ship-classpath (ship-classpath! this h ship-classpath)))
    this)
  (teardown-nodes! [this]
    ;; Servers first (only recorded pids whose command line names this run's directory, so a
    ;; recycled pid is never hit), then the logs back into the store folder, then the chains
    ;; and the run's directory.
    (let [by-host (group-by first (nodes/recorded-pids store))]
      (doseq [h hosts]
        (try
          (doseq [[_ pid] (by-host h)]
            (remote! this h (str "grep -qF " (u/shell-quote (run-dir this)) " /proc/" pid "/cmdline 2>/dev/null"
                                 " && kill -9 " pid "; true")))
          (nodes/pull-node-files! this h (io/file store h))
          (let [r (remote! this h (str (teardown-chains-cmd) "; rm -rf " (u/shell-quote (run-dir this))))]
            (when-not (zero? (:exit r))
              (println "[campaign] cleanup on" h "failed:" (str/trim (:err r)))))
          (catch Exception e
            (println "[campaign] cleanup on" h "failed:" (.getMessage e)
                     "- check for processes and iptables chains" (str/join ", " chains)
                     "and" (run-dir this) "there")))))
    (count hosts))
  (exec! [this node argv]
    (remote! this node (sh-line argv)))
  (spawn! [this node argv log-file]
    ;; stdin from /dev/null and output to the log, so ssh returns at once; nohup: the server
    ;; outlives the ssh session
    (let [cmd (str "nohup " (sh-line argv) " >> " (u/shell-quote log-file) " 2>&1 < /dev/null & echo $!")
          r (remote! this node cmd :check? true)
          pid (parse-long (str/trim (:out r)))]
      (when-not pid
        (throw (ex-info (str "starting a server on " node " printed no pid: " (pr-str (:out r))) {})))
      (nodes/record-pid! store node pid)
      pid))
  (signal! [this node pid sig]
    (remote! this node (str "kill -" sig " " pid)))
  (controller-argv [_ argv] argv)

  nodes/NodeFiles
  (node-path [this node local-file]
    ;; <store>/<node>/x on this machine is <run-dir>/<node>/x on the host
    (let [base (.getPath (io/file store node))
          f (.getPath (io/file local-file))]
      (when-not (str/starts-with? f base)
        (throw (ex-info (str f " is not in " node "'s store folder " base) {})))
      (str (remote-node-dir this node) (subs f (count base)))))
  (push-node-files! [this node local-dir]
    (with-temp-tar
      (fn [tar]
        (u/sh! ["tar" "-cf" (.getPath ^File tar) "-C" (str local-dir) "."] :timeout-ms 60000)
        (push-tar! this node tar (remote-node-dir this node)))))
  (pull-node-files! [this node local-dir]
    (with-temp-tar
      (fn [tar]
        (piped! (conj (ssh-argv this node)
                      (str "cd " (u/shell-quote (remote-node-dir this node)) " 2>/dev/null && tar -cf - --exclude=./data ."
                           " || tar -cf - -T /dev/null"))
                :out tar)
        (.mkdirs (io/file local-dir))
        (u/sh! ["tar" "-xf" (.getPath ^File tar) "-C" (str local-dir)] :timeout-ms 60000)))))

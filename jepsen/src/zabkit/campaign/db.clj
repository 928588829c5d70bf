(ns zabkit.campaign.db
  "The system under test: an ensemble of zabkit or Apache ZooKeeper 3.9 servers, one per node,
  both started from the same zoo.cfg. Keeps the pid of every server it started; kill, pause and
  resume act on those pids only."
  (:require [clojure.string :as str]
            [clojure.java.io :as io]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.util :as u])
  (:import (java.net Socket InetSocketAddress)))

(def client-port 2181)

(def peer-ports
  "server.N=host:2888:3888: the quorum and election ports, the only server-to-server traffic
  (a partition drops exactly these)."
  [2888 3888])

(defn repo-root
  "The zabkit repository root: the parent of the jepsen/ directory lein runs in."
  []
  (.getCanonicalFile (io/file (System/getProperty "user.dir") "..")))

(defn zabkit-server-bin [] (io/file (repo-root) "bin" "zabkit-server"))

(defn bugzoo-switches
  "The names of zabkit's bug-zoo switches, read from the enum in this checkout's impl/ (the servers
  a campaign starts are built from it), so a misspelt --bugzoo fails before any server starts."
  []
  (let [f (io/file (repo-root) "impl/src/main/java/io/zabkit/zab/Bug.java")]
    (set (map second (re-seq #"(?m)^    ([A-Z0-9_]+)[(,;]" (slurp f))))))

(defn check-bugzoo!
  "Fails early on a --bugzoo name the server would refuse."
  [test]
  (when-let [bugs (:bugzoo test)]
    (let [known (bugzoo-switches)
          unknown (remove known (str/split bugs #","))]
      (when (seq unknown)
        (throw (ex-info (str "--bugzoo: no switch named " (str/join ", " unknown) " in impl's Bug.java; known: "
                             (str/join ", " (sort known)))
                        {:type :usage}))))))

(defn check-system!
  "Fails early, with what to do, when the system cannot be started here."
  [system]
  (case system
    :zookeeper nil
    :zabkit (let [f (zabkit-server-bin)]
              (when-not (.canExecute f)
                (throw (ex-info (str "--system zabkit: " f " does not exist or is not executable. "
                                     "The reference ensemble is started as `bin/zabkit-server zoo.cfg`; "
                                     "check out the whole repository, or run --system zookeeper.")
                                {:type :usage}))))
    (throw (ex-info (str "unknown --system " system) {:type :usage}))))

(defn prepare-system!
  "Runs on the launcher's side, before any node exists: builds the zabkit server if its sources
  changed (`bin/zabkit-server --build`), because the servers start where Maven cannot run (in the
  run's namespaces or containers) and with ZABKIT_SKIP_BUILD=1, so that three servers starting at
  once never race a build or wait out the election timeout behind one."
  [system]
  (check-system! system)
  (when (= system :zabkit)
    (let [r (u/sh! [(.getPath (zabkit-server-bin)) "--build"] :check? false :timeout-ms 900000)]
      (when-not (zero? (:exit r))
        (throw (ex-info (str "--system zabkit: `bin/zabkit-server --build` failed (exit " (:exit r) "):\n"
                             (str/trim (str (:out r) (:err r))))
                        {:type :setup}))))))

(defn zookeeper-classpath
  "Apache ZooKeeper's server classpath on this machine: the build --zookeeper-version or
  --server-jars picked (zabkit.campaign.sut), else the ZooKeeper, jute, netty, metrics, snappy
  and logging jars that this runner already resolved from Maven Central (3.9.4)."
  ([] (zookeeper-classpath nil))
  ([opts]
   (if-let [jars (seq (:server-jars-list opts))]
     (str/join ":" jars)
     (->> (str/split (System/getProperty "java.class.path") #":")
          (filter #(re-find #"zookeeper|netty|slf4j|logback|metrics-core|snappy|commons-io|audience-annotations" %))
          (str/join ":")))))

(defn zoo-cfg
  "The one zoo.cfg both systems read."
  [test node data-dir]
  (str/join "\n"
            (concat
             [(str "tickTime=" (:tick-time test))
              (str "initLimit=" (:init-limit test))
              (str "syncLimit=" (:sync-limit test))
              (str "dataDir=" data-dir)
              (str "clientPort=" client-port)
              "maxClientCnxns=0"
              "4lw.commands.whitelist=srvr,ruok,mntr"
              "admin.enableServer=false"
              "autopurge.purgeInterval=0"]
             ;; a planted bug (zabkit only; its server refuses the first key without the second)
             (when-let [bugs (:bugzoo test)]
               [(str "zabkit.bugzoo=" bugs) "zabkit.bugzoo.allow=true"])
             (when (:keep-connections test) ["keepConnections=true"])
             (for [[i n] (map-indexed vector (nodes/node-names (:nodes-impl test)))]
               (str "server." (inc i) "=" (nodes/node-host (:nodes-impl test) n) ":" (str/join ":" peer-ports)))
             [""])))

(defn myid [test node] (inc (.indexOf ^java.util.List (nodes/node-names (:nodes-impl test)) node)))

(defn node-dir ^java.io.File [test node] (io/file (:store test) node))

(defn- logback-xml [log-file]
  (str "<configuration><appender name=\"F\" class=\"ch.qos.logback.core.FileAppender\">"
       "<file>" log-file "</file><encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{30} - %msg%n"
       "</pattern></encoder></appender><root level=\"INFO\"><appender-ref ref=\"F\"/></root></configuration>\n"))

(defn- on-node
  "Where node sees a file of its store folder (the same path, except with the ssh backend)."
  [test node f]
  (nodes/node-path (:nodes-impl test) node f))

(defn disk-dir
  "With --disk-mb, the tmpfs of that size the launcher mounted for node (mount-disks!): its
  dataDir lives in it, so the disk fault can fill it."
  ^java.io.File [test node] (io/file (node-dir test node) "disk"))

(defn- data-dir ^java.io.File [test node]
  (if (:disk-mb test) (io/file (disk-dir test node) "data") (io/file (node-dir test node) "data")))

(defn disk-mount-source
  "The tmpfs source name of a run's data disks; `clean` finds a killed run's mounts by it."
  [run-id] (str "zbkdisk-" run-id))

(defn mount-disks!
  "Launcher side, before any server starts: a tmpfs of disk-mb MiB at <store>/<node>/disk for
  every node (netns backend only: its nodes share this machine's filesystem)."
  [store run-id node-names disk-mb]
  (doseq [node node-names
          :let [d (io/file store node "disk")]]
    (.mkdirs d)
    (u/sh! ["mount" "-t" "tmpfs" "-o" (str "size=" disk-mb "m") (disk-mount-source run-id) (.getPath d)])))

(defn umount-disks!
  "Unmounts every tmpfs of this run (by its source name); returns how many."
  [run-id]
  (let [mine (for [line (u/read-proc-lines "/proc/mounts")
                   :let [[src mnt] (str/split line #" ")]
                   :when (= src (disk-mount-source run-id))]
               mnt)]
    (doseq [mnt (distinct mine)] (u/sh! ["umount" "-l" mnt] :check? false))
    (count (distinct mine))))

(defn prepare-node!
  "Writes zoo.cfg, myid and the log configuration for node under the store folder (and copies
  them to the node if it does not share this filesystem)."
  [test node]
  (let [dir (node-dir test node)
        data (data-dir test node)]
    (when (:disk-mb test)
      (assert (.isDirectory (disk-dir test node)) "the launcher mounted the node's disk"))
    (.mkdirs data)
    (spit (io/file data "myid") (str (myid test node) "\n"))
    (spit (io/file dir "zoo.cfg") (zoo-cfg test node (on-node test node data)))
    (spit (io/file dir "logback.xml") (logback-xml (on-node test node (io/file dir "server.log"))))
    (nodes/push-node-files! (:nodes-impl test) node dir)))

(defn server-argv [test node]
  (let [dir (node-dir test node)
        cfg (on-node test node (io/file dir "zoo.cfg"))]
    (case (:system test)
      :zookeeper (if (:server-command test)
                   ;; the user's own start command (zabkit.campaign.sut): it must exec the server
                   ((requiring-resolve 'zabkit.campaign.sut/command-argv) test cfg)
                   ["java" "-Xmx256m" "-XX:+UseSerialGC"
                    (str "-Dlogback.configurationFile=" (on-node test node (io/file dir "logback.xml")))
                    "-Dzookeeper.admin.enableServer=false"
                    "-cp" (or (:server-classpath test) (zookeeper-classpath test))
                    "org.apache.zookeeper.server.quorum.QuorumPeerMain" cfg])
      ;; built by prepare-system! on the launcher's side; -ea stays on (bin/zabkit-server's default)
      :zabkit ["env" "ZABKIT_SKIP_BUILD=1" "ZABKIT_ASSERTIONS=1" "JAVA_OPTS=-Xmx256m -XX:+UseSerialGC"
               (.getPath (zabkit-server-bin)) cfg])))

(defn start-node!
  "Starts node's server unless it is running; returns its pid."
  [test node]
  (let [pids (:pids test)]
    (or (@pids node)
        (let [env (get @(:node-env test) node)
              ;; `env` execs the server, so the recorded pid stays the server's own
              argv (if (seq env)
                     (into (into ["env"] (for [[k v] env] (str k "=" v))) (server-argv test node))
                     (server-argv test node))
              pid (nodes/spawn! (:nodes-impl test) node argv
                                (on-node test node (io/file (node-dir test node) "console.log")))]
          (swap! pids assoc node pid)
          pid))))

(defn kill-node!
  "kill -9 of node's server (the pid we started); returns the pid or nil if it was not running."
  [test node]
  (when-let [pid (@(:pids test) node)]
    (nodes/signal! (:nodes-impl test) node pid "CONT") ; a paused server must die too
    (nodes/signal! (:nodes-impl test) node pid "KILL")
    (swap! (:pids test) dissoc node)
    pid))

(defn restart-exited!
  "Restarts every server we started that has exited on its own (e.g. on a full disk); returns
  their nodes. Only where the servers' pids are this machine's (netns backend)."
  [test]
  (when (= :netns (:backend test))
    (vec (for [[node pid] @(:pids test)
               :when (not (u/pid-alive? pid))]
           (do (swap! (:pids test) dissoc node)
               (start-node! test node)
               node)))))

(defn signal-node! [test node sig]
  (when-let [pid (@(:pids test) node)]
    (nodes/signal! (:nodes-impl test) node pid sig)
    pid))

(defn four-letter
  "Sends a four-letter command to node's client port; returns the reply or nil (bounded: 1 s)."
  [test node cmd]
  (try
    (with-open [s (Socket.)]
      (.connect s (InetSocketAddress. ^String (nodes/node-host (:nodes-impl test) node) (int client-port)) 500)
      (.setSoTimeout s 1000)
      (.write (.getOutputStream s) (.getBytes ^String cmd))
      (.flush (.getOutputStream s))
      (slurp (.getInputStream s)))
    (catch Exception _ nil)))

(defn mode
  "node's role as it reports it (:leader :follower :standalone), or nil if it does not answer."
  [test node]
  (when-let [r (four-letter test node "srvr")]
    (some-> (re-find #"Mode: (\w+)" r) second keyword)))

(defn modes [test]
  (into (sorted-map) (pmap (fn [n] [n (mode test n)]) (nodes/node-names (:nodes-impl test)))))

(defn leader [test] (some (fn [[n m]] (when (= m :leader) n)) (modes test)))

(defn await-ensemble!
  "Waits (bounded) until one leader and every other running node following. Returns modes or nil."
  [test timeout-ms]
  (u/await-cond timeout-ms 250
                (fn []
                  (let [ms (modes test)
                        vs (vals ms)]
                    (when (and (= 1 (count (filter #{:leader} vs)))
                               (every? #{:leader :follower} vs))
                      ms)))))

(defn setup! [test]
  (check-system! (:system test))
  (check-bugzoo! test)
  (doseq [node (nodes/node-names (:nodes-impl test))]
    (prepare-node! test node)
    (start-node! test node))
  (or (await-ensemble! test 60000)
      (throw (ex-info (str "the ensemble did not elect a leader within 60 s; modes: " (modes test)
                           "; see " (:store test) "/n*/server.log and console.log")
                      {:type :setup}))))

(defn teardown!
  "Kills every server, then brings their logs into the store folder (ssh: from the hosts), where
  scan-logs and the user read them."
  [test]
  (doseq [node (keys @(:pids test))] (kill-node! test node))
  (doseq [node (nodes/node-names (:nodes-impl test))]
    (try (nodes/pull-node-files! (:nodes-impl test) node (node-dir test node))
         (catch Exception e
           (println "[campaign] could not copy" node "'s logs into the store folder:" (.getMessage e))))))

(defn scan-logs
  "Server-side assertion failures: any AssertionError in a server's log fails the run."
  [test]
  (let [hits (for [node (nodes/node-names (:nodes-impl test))
                   f ["server.log" "console.log"]
                   :let [file (io/file (node-dir test node) f)]
                   :when (.exists file)
                   line (with-open [r (io/reader file)] (doall (line-seq r)))
                   :when (re-find #"AssertionError|java\.lang\.Error|OutOfMemoryError" line)]
               {:node node :file f :line (subs line 0 (min 300 (count line)))})]
    {:valid? (empty? hits) :count (count hits) :lines (vec (take 10 hits))}))

(ns zabkit.campaign.cli
  "Command line, as a Jepsen test's: `lein run test ...` runs one campaign, `lein run test-all`
  the matrix, `lein run clean` removes what killed runs left behind.

  A campaign runs in two processes. The launcher (this JVM) creates the nodes (namespaces and
  bridge, or containers), then runs the campaign itself in a second JVM inside the controller's
  environment (for netns: the controller's namespace, so clients reach the nodes' addresses and
  nothing else), and removes everything in a finally block and a shutdown hook (Ctrl-C)."
  (:gen-class)
  (:require [clojure.edn :as edn]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.tools.cli :as cli]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.sut :as sut]
            [zabkit.campaign.util :as u])
  (:import (java.time LocalDateTime)
           (java.time.format DateTimeFormatter)
           (java.util.concurrent TimeUnit)
           (java.lang ProcessBuilder$Redirect)))

(def workload-names
  "The matrix's workloads (test-all's default)."
  ["register" "sequential" "lock" "multi" "watch" "session"])

(def all-workload-names
  "Every workload --workload accepts: the matrix's and make soak's."
  (conj workload-names "soak"))

(defn- valid-node-count? [n] (and (int? n) (odd? n) (<= 3 n 9)))
(def ^:private node-count-rule "must be an odd number from 3 to 9 (a quorum needs a majority; 9 is what the nemeses were written for)")

(def opt-specs
  [[nil "--system SYSTEM" "zookeeper (Apache ZooKeeper; 3.9.4 unless one of the next three options) or zabkit (bin/zabkit-server)"
    :default :zookeeper :parse-fn keyword :validate [#{:zookeeper :zabkit} "must be zookeeper or zabkit"]]
   [nil "--zookeeper-version V" "--system zookeeper: this Apache ZooKeeper release from Maven Central instead of 3.9.4 (e.g. 3.8.4)"
    :default nil]
   [nil "--server-jars DIRS" "--system zookeeper: a local build's jars (directories, ':'-separated; the binary tarball's lib/)"
    :default nil]
   [nil "--server-command CMD" "--system zookeeper: a command that starts one server from the zoo.cfg path appended to it, and execs it"
    :default nil]
   [nil "--workload W" (str "one of " (str/join ", " all-workload-names))
    :default :register :parse-fn keyword :validate [(set (map keyword all-workload-names)) (str "must be one of " (str/join ", " all-workload-names))]]
   [nil "--nemesis LIST" "comma-separated faults, e.g. kill,partition (see README; none, all)"
    :default "none" :validate [#(try (nemesis/parse-nemesis %) true (catch Exception _ false))
                               (str "unknown nemesis; known: " (str/join ", " (nemesis/all-nemesis-names)) ", all")]]
   ;; no :default here: resolve-nodes gives 3, or the count of --nodes-file, and can tell a
   ;; --nodes the user typed from a default when the two disagree
   [nil "--nodes N" "servers: an odd number, 3 to 9 (default 3, or the number of hosts in --nodes-file)"
    :parse-fn parse-long :validate [valid-node-count? node-count-rule]]
   [nil "--time-limit S" "seconds of workload and faults" :default 30 :parse-fn parse-long
    :validate [#(and % (<= 5 % 3600)) "must be 5..3600"]]
   [nil "--rate R" "ops per second, all clients together" :default 50 :parse-fn parse-double
    :validate [#(and % (< 0 % 5000)) "must be in (0, 5000)"]]
   [nil "--concurrency C" "clients (worker threads, one session each)" :default 6 :parse-fn parse-long
    :validate [#(and % (<= 1 % 200)) "must be 1..200"]]
   [nil "--nemesis-interval S" "seconds between faults, and each fault's length" :default 5 :parse-fn parse-long
    :validate [#(and % (<= 1 % 600)) "must be 1..600"]]
   [nil "--seed N" "the fault schedule's seed (each fault's target and nodes); one seed gives every system of a test-all the same schedule; default: drawn, and recorded in results.edn"
    :parse-fn parse-long :validate [some? "must be an integer"]]
   [nil "--keys K" "registers (register workload)" :default 3 :parse-fn parse-long :validate [#(and % (<= 1 % 100)) "must be 1..100"]]
   [nil "--tick-time MS" "zoo.cfg tickTime" :default 1000 :parse-fn parse-long :validate [#(and % (<= 100 % 10000)) "must be 100..10000"]]
   [nil "--init-limit T" "zoo.cfg initLimit (ticks)" :default 10 :parse-fn parse-long :validate [#(and % (pos? %)) "must be > 0"]]
   [nil "--sync-limit T" "zoo.cfg syncLimit (ticks)" :default 2 :parse-fn parse-long :validate [#(and % (pos? %)) "must be > 0"]]
   [nil "--session-timeout MS" "client session timeout" :default 8000 :parse-fn parse-long :validate [#(and % (<= 1000 % 60000)) "must be 1000..60000"]]
   [nil "--loss-probability P" "packet loss nemesis: drop probability" :default 0.2 :parse-fn parse-double
    :validate [#(and % (< 0 % 1)) "must be in (0, 1)"]]
   [nil "--disk-mb MB" "netns backend: each node's dataDir on a tmpfs of MB MiB (the disk nemesis fills it; default 1024 when that nemesis is on)"
    :parse-fn parse-long :validate [#(and % (<= 16 % 65536)) "must be 16..65536"]]
   [nil "--controller-heap-mb MB" "heap of the JVM that runs the clients and the checkers (a soak's hour of history needs more than the default)"
    :default 1024 :parse-fn parse-long :validate [#(and % (<= 256 % 16384)) "must be 256..16384"]]
   [nil "--backend B" "netns (default), docker or ssh" :default :netns :parse-fn keyword
    :validate [#{:netns :docker :ssh} "must be netns, docker or ssh"]]
   [nil "--ssh-hosts LIST" "ssh backend: comma-separated host names (as many as --nodes)" :default nil]
   [nil "--nodes-file FILE" "ssh backend: the hosts, one per line (Jepsen's --nodes-file; blank lines and # comments skipped); --nodes defaults to their number"
    :default nil]
   [nil "--ssh-user U" "ssh backend: user (root: the nemesis needs iptables and kill)" :default "root"]
   [nil "--ssh-config FILE" "ssh backend: an ssh_config file (ssh -F), e.g. for ports, keys, known hosts" :default nil]
   [nil "--ssh-dir DIR" "ssh backend: where each host keeps the run's files (config, data, logs, jars; removed at the end)"
    :default "/tmp/zabkit-campaign" :validate [#(str/starts-with? % "/") "must be an absolute path"]]
   [nil "--bugzoo NAMES" "--system zabkit: plant these bug-zoo switches (comma-separated names of impl's zab/Bug.java) in every server, to measure what the campaign catches; test-all runs zookeeper rows without them"
    :default nil :validate [#(re-matches #"[A-Z0-9_]+(,[A-Z0-9_]+)*" %) "must be switch names such as ACK_BEFORE_FSYNC, comma-separated"]]
   [nil "--keep-connections" "--system zabkit: keepConnections=true in zoo.cfg (issue 20 item 7: clients keep their connections across the loss of the leader); test-all runs zookeeper rows without it"]
   [nil "--store DIR" "store root" :default "store"]
   [nil "--out DIR" "availability-report: where summary.md/.tsv and the CDF plots go" :default nil]
   [nil "--strict" "an unknown verdict fails too (exit 1), as CI wants: a check that could not decide is not a pass"]
   [nil "--systems LIST" "test-all: systems" :default "zookeeper,zabkit"]
   [nil "--workloads LIST" "test-all: workloads" :default (str/join "," workload-names)]
   [nil "--nemeses LIST" "test-all: nemesis sets, separated by ';'" :default "none;kill;pause;partition;kill,partition;loss"]
   ["-h" "--help"]])

(defn- usage [summary]
  (str "Usage: lein run test [OPTIONS]     one campaign\n"
       "       lein run test-all [OPTIONS] the matrix (--systems, --workloads, --nemeses)\n"
       "       lein run clean              remove namespaces left by killed runs\n"
       "       lein run curate             results/campaigns/TABLE.md from the latest run of each test\n"
       "       lein run availability-report --out DIR [--systems --workloads W --nemeses]\n"
       "                                   per fault family, both systems: waits as CDFs (PNG, SVG) and a table\n"
       "       lein run zookeeper-lib      resolve --zookeeper-version (default 3.9.4) and print its jars' directory\n\nOptions:\n" summary
       "\n\nNemeses: " (str/join ", " (nemesis/all-nemesis-names)) ", all\n"))

;; ---------------------------------------------------------------------------------------------
;; launcher

(defn- timestamp [] (.format (LocalDateTime/now) (DateTimeFormatter/ofPattern "yyyyMMdd'T'HHmmss.SSS")))

(defn- run-id [] (format "%04x" (rand-int 0x10000)))

(defn make-nodes
  "The node backend for opts; store is the run's store folder."
  [opts store]
  (case (:backend opts)
    :netns (nodes/->NetnsNodes (:run-id opts) (:nodes opts) (.getCanonicalPath (io/file store)))
    :ssh (let [hosts (remove str/blank? (str/split (str (:ssh-hosts opts)) #","))]
           (when-not (= (count hosts) (:nodes opts))
             (throw (ex-info (str "--backend ssh needs --ssh-hosts with exactly --nodes (" (:nodes opts) ") hosts")
                             {:type :usage})))
           (when-let [f (:ssh-config opts)]
             (when-not (.canRead (io/file f))
               (throw (ex-info (str "--ssh-config " f ": cannot read it") {:type :usage}))))
           ((requiring-resolve 'zabkit.campaign.ssh/map->SshNodes)
            {:hosts (vec hosts) :user (:ssh-user opts)
             :config (some-> (:ssh-config opts) io/file .getCanonicalPath)
             :ssh-dir (:ssh-dir opts) :run-id (:run-id opts)
             :store (.getCanonicalPath (io/file store))
             ;; ZooKeeper's jars go to the hosts; zabkit runs from the same checkout path there
             :ship-classpath (when (and (= :zookeeper (:system opts)) (not (:server-command opts)))
                               (db/zookeeper-classpath opts))}))
    :docker ((requiring-resolve 'zabkit.campaign.docker/->DockerNodes)
             (:run-id opts) (:nodes opts) (.getCanonicalPath (io/file store)))))

(defn- symlink! [^java.io.File link target]
  (try (java.nio.file.Files/deleteIfExists (.toPath link))
       (java.nio.file.Files/createSymbolicLink (.toPath link) (.toPath (io/file target))
                                               (make-array java.nio.file.attribute.FileAttribute 0))
       (catch Exception _)))

(defn- read-results [store]
  (let [f (io/file store "results.edn")]
    (when (.exists f) (edn/read-string (slurp f)))))

(def live-dir
  "One file per running campaign, holding its launcher's pid: `clean` leaves those runs alone."
  (io/file "/run/zabkit-campaign"))

(defn- live-run-file [run-id] (io/file live-dir run-id))

(defn- live-run! [run-id]
  (.mkdirs live-dir)
  (spit (live-run-file run-id) (str (.pid (java.lang.ProcessHandle/current)))))

(defn- run-alive? [run-id]
  (let [f (live-run-file run-id)]
    (and (.exists f)
         (some-> (parse-long (str/trim (slurp f))) u/pid-alive?))))

(defn run-campaign!
  "Creates the nodes, runs the campaign in the controller, removes the nodes. Returns
  {:exit code :store dir :results map-or-nil}."
  [opts]
  (db/prepare-system! (:system opts))
  (let [opts (-> opts (sut/resolve! (db/repo-root)) (assoc :run-id (run-id)))
        tname ((requiring-resolve 'zabkit.campaign.core/test-name) opts)
        store (io/file (:store opts) tname (timestamp))
        _ (.mkdirs store)
        store (.getCanonicalFile store)
        nodes-impl (make-nodes opts store)
        opts-file (io/file store "opts.edn")
        child (atom nil)
        cleaned (atom false)
        ;; called by the finally block and by the shutdown hook (Ctrl-C); the lock makes the
        ;; later caller wait until the first has finished, so the JVM cannot exit mid-cleanup
        cleanup! (fn []
                   (locking cleaned
                    (when (compare-and-set! cleaned false true)
                     (when-let [^Process p @child]
                       (when (.isAlive p)
                         (.destroy p)
                         (when-not (.waitFor p 15 TimeUnit/SECONDS) (.destroyForcibly p))))
                     (let [n (nodes/teardown-nodes! nodes-impl)
              disks (if (:disk-mb opts) (db/umount-disks! (:run-id opts)) 0)]
                       (println (format "[campaign] cleanup: killed the run's servers, removed %s%s"
                                        (case (:backend opts)
                                          :netns (str n " namespaces")
                                          :docker (str n " containers and networks")
                                          :ssh (str "the run's directory and iptables chains on " n " hosts"))
                                        (if (pos? disks) (format " and unmounted %d data disks" disks) "")))
                       (flush)))))
        hook (Thread. ^Runnable cleanup!)]
    (spit opts-file (pr-str (assoc opts :store (.getPath store))))
    (symlink! (io/file (:store opts) "latest") store)
    (symlink! (io/file (:store opts) tname "latest") store)
    (.addShutdownHook (Runtime/getRuntime) hook)
    (live-run! (:run-id opts))
    (try
      (println (format "[campaign] %s: run %s, store %s" tname (:run-id opts) store))
      (nodes/setup-nodes! nodes-impl)
      (when-let [mb (:disk-mb opts)]
        (db/mount-disks! store (:run-id opts) (nodes/node-names nodes-impl) mb))
      (let [argv (nodes/controller-argv nodes-impl
                                        ["java" (str "-Xmx" (:controller-heap-mb opts) "m") "-Djava.awt.headless=true"
                                         "-cp" (System/getProperty "java.class.path")
                                         "clojure.main" "-m" "zabkit.campaign.cli" "inside" (.getPath opts-file)])
            p (.start (doto (ProcessBuilder. ^java.util.List argv) (.inheritIO)))
            _ (reset! child p)
            limit-s (+ 300 (* 2 (:time-limit opts)))]
        (if (.waitFor p limit-s TimeUnit/SECONDS)
          {:exit (.exitValue p) :store store :results (read-results store)}
          (do (println (format "[campaign] the campaign did not finish within %d s; stopping it" limit-s))
              {:exit 3 :store store :results (read-results store)})))
      (finally
        (cleanup!)
        (io/delete-file (live-run-file (:run-id opts)) true)
        (try (.removeShutdownHook (Runtime/getRuntime) hook) (catch IllegalStateException _))))))

(defn- exit-code [results]
  (cond (nil? results) 2
        (false? (:valid? results)) 1
        :else 0))

(defn- strict-exit
  "With --strict, a run that finished with an :unknown verdict exits 1 like an invalid one."
  [opts r]
  (if (and (:strict opts) (zero? (:exit r)) (= :unknown (get-in r [:results :valid?])))
    (do (println "[campaign] --strict: the verdict is unknown; failing the run") (assoc r :exit 1))
    r))

(defn inside!
  "The campaign proper, in the controller's environment."
  [opts-file]
  (let [opts (edn/read-string (slurp opts-file))
        store (:store opts)
        nodes-impl (make-nodes opts store)
        core-run (requiring-resolve 'zabkit.campaign.core/run-test!)
        make-test (requiring-resolve 'zabkit.campaign.core/make-test)
        test (make-test opts nodes-impl)]
    ;; killed mid-run: stop the servers through the backend, since a pid is the node's own (a
    ;; container's or a remote host's), not necessarily one of this machine
    (.addShutdownHook (Runtime/getRuntime)
                      (Thread. ^Runnable #(doseq [[node pid] @(:pids test)]
                                            (try (nodes/signal! nodes-impl node pid "KILL")
                                                 (catch Exception _)))))
    (exit-code (core-run test))))

;; ---------------------------------------------------------------------------------------------

(defn test-all!
  "Every system x workload x nemesis set, one campaign each, then a table."
  [opts]
  (let [systems (map keyword (str/split (:systems opts) #","))
        wls (map keyword (str/split (:workloads opts) #","))
        nems (str/split (:nemeses opts) #";")
        ;; a system that cannot run here (zabkit before its ensemble lands) is said once
        unavailable (into {} (for [sys systems
                                   :let [why (try (db/check-system! sys) nil
                                                  (catch clojure.lang.ExceptionInfo e (.getMessage e)))]
                                   :when why]
                               (do (println "[campaign] skipping" (name sys) "-" why)
                                   [sys why])))
        rows (atom [])]
    (doseq [sys systems, wl wls, nem nems]
      (let [o (cond-> (assoc opts :system sys :workload wl :nemesis nem)
                ;; the build options pick the Apache ZooKeeper build; zabkit rows run as always
                (not= sys :zookeeper) (dissoc :zookeeper-version :server-jars :server-command)
                ;; the bug-zoo switches exist only in zabkit's server
                (not= sys :zabkit) (dissoc :bugzoo :keep-connections))
            r (if (unavailable sys)
                {:exit 2 :error "not run (see above)"}
                (try (strict-exit o (run-campaign! o))
                     (catch Exception e
                       (println "[campaign]" (.getMessage e))
                       {:exit 2 :error (.getMessage e)})))]
        (swap! rows conj (assoc r :system sys :workload wl :nemesis nem))))
    (println "\n== test-all ==")
    (println (format "%-10s %-11s %-16s %-8s %-12s %s" "system" "workload" "nemesis" "verdict" "ops (ok)" "store"))
    (doseq [r @rows]
      (println (format "%-10s %-11s %-16s %-8s %-12s %s" (name (:system r)) (name (:workload r)) (:nemesis r)
                       (case (:exit r) 0 (if (= :unknown (get-in r [:results :valid?])) "unknown" "valid")
                             1 (if (= :unknown (get-in r [:results :valid?])) "unknown" "INVALID")
                             (if (unavailable (:system r)) "skipped" "error"))
                       (if-let [st (get-in r [:results :stats])] (str (:count st) " (" (:ok-count st) ")") "-")
                       (or (:store r) (:error r)))))
    (if (some #(= 1 (:exit %)) @rows) 1 (if (every? #(zero? (:exit %)) @rows) 0 2))))

(defn availability-report!
  "The availability report (zabkit.campaign.availability) over the latest run of each system x
  nemesis set of one workload: what test-all just ran with the same options."
  [opts]
  (let [wls (str/split (:workloads opts) #",")
        _ (when-not (= 1 (count wls))
            (throw (ex-info "availability-report: give one workload (--workloads register)" {:type :usage})))
        _ (when-not (:out opts) (throw (ex-info "availability-report: --out DIR is required" {:type :usage})))
        tname (requiring-resolve 'zabkit.campaign.core/test-name)
        dirs (for [sys (str/split (:systems opts) #","), nem (str/split (:nemeses opts) #";")]
               (io/file (:store opts) (tname (assoc opts :system (keyword sys) :workload (keyword (first wls)) :nemesis nem))
                        "latest"))
        runs (mapv (requiring-resolve 'zabkit.campaign.availability/read-run) dirs)]
    ((requiring-resolve 'zabkit.campaign.availability/write-report!) runs (io/file (:out opts)))
    0))

(defn clean!
  "Removes namespaces left by campaigns that died without cleaning up (killing the processes
  inside them first: they were started by those campaigns)."
  []
  (let [run-of (fn [nsx] (second (re-find #"^zbkc([0-9a-f]+)-" nsx)))
        stale (remove #(run-alive? (run-of %)) (nodes/stale-netns))]
    (doseq [nsx stale]
      (doseq [pid (remove str/blank? (str/split-lines (:out (u/sh! ["ip" "netns" "pids" nsx] :check? false))))]
        (u/sh! ["kill" "-9" pid] :check? false))
      (u/sh! ["ip" "netns" "del" nsx] :check? false))
    (println (format "[campaign] clean: removed %d stale namespaces %s" (count stale) (vec stale)))
    ;; the data disks of runs that are gone (make soak's tmpfs mounts)
    (let [runs (distinct (for [line (u/read-proc-lines "/proc/mounts")
                               :let [[_ run] (re-find #"^zbkdisk-([0-9a-f]+) " line)]
                               :when (and run (not (run-alive? run)))]
                           run))]
      (println (format "[campaign] clean: unmounted %d data disks of stale runs"
                       (reduce + 0 (map db/umount-disks! runs)))))
    0))

(defn read-nodes-file
  "The host names in a Jepsen-style nodes file: one per line, surrounding blanks trimmed, blank
  lines and lines starting with # skipped."
  [path]
  (let [f (io/file path)]
    (when-not (.canRead f)
      (throw (ex-info (str "--nodes-file " path ": cannot read it") {:type :usage})))
    (let [hosts (->> (str/split-lines (slurp f)) (map str/trim) (remove #(or (str/blank? %) (str/starts-with? % "#"))) vec)]
      (when-let [bad (first (filter #(re-find #"[\s,]" %) hosts))]
        (throw (ex-info (str "--nodes-file " path ": \"" bad "\" is not one host name (one host per line)") {:type :usage})))
      (when-let [dup (first (for [[h n] (frequencies hosts) :when (> n 1)] h))]
        (throw (ex-info (str "--nodes-file " path ": host " dup " is listed twice") {:type :usage})))
      hosts)))

(defn resolve-nodes
  "Fills in :nodes (and, from --nodes-file, :ssh-hosts): 3 unless given; the nodes file's host
  count when there is one. Refuses a nodes file with another backend, with --ssh-hosts, with a
  --nodes that disagrees with it, or with a host count that is not a valid ensemble size."
  [opts]
  (if-let [path (:nodes-file opts)]
    (let [hosts (read-nodes-file path)
          n (count hosts)]
      (when-not (= :ssh (:backend opts))
        (throw (ex-info "--nodes-file names the ssh backend's hosts: add --backend ssh" {:type :usage})))
      (when (:ssh-hosts opts)
        (throw (ex-info "give the hosts once: --nodes-file or --ssh-hosts, not both" {:type :usage})))
      (when-not (valid-node-count? n)
        (throw (ex-info (str "--nodes-file " path ": " n " hosts; the number of hosts " node-count-rule) {:type :usage})))
      (when (and (:nodes opts) (not= n (:nodes opts)))
        (throw (ex-info (str "--nodes " (:nodes opts) " but --nodes-file " path " lists " n " hosts") {:type :usage})))
      (assoc opts :nodes n :ssh-hosts (str/join "," hosts)))
    (update opts :nodes #(or % 3))))

(defn resolve-disk
  "The disk nemesis needs each dataDir on a tmpfs of its own (--disk-mb, 1024 by default), which
  only the netns backend can give: its nodes share this machine's filesystem."
  [opts]
  (let [disk? (some #(= :disk (:family %)) (nemesis/parse-nemesis (:nemesis opts)))
        opts (cond-> opts (and disk? (nil? (:disk-mb opts))) (assoc :disk-mb 1024))]
    (when (and (:disk-mb opts) (not= :netns (:backend opts)))
      (throw (ex-info (str "--disk-mb and the disk nemesis need --backend netns (got " (name (:backend opts)) ")")
                      {:type :usage})))
    opts))

(defn resolve-seed
  "The fault schedule's seed: the one given, or a drawn one (said, so the run can be repeated)."
  [opts]
  (if (:seed opts)
    opts
    (let [seed (mod (System/nanoTime) 1000000)]
      (println (format "[campaign] fault schedule seed %d (repeat it with --seed %d)" seed seed))
      (assoc opts :seed seed))))

(defn -main [& args]
  (let [[cmd & more] args
        {:keys [options errors summary]} (cli/parse-opts more opt-specs)
        code (try
               (let [options (if (or (= cmd "inside") (seq errors)) options (cond-> (resolve-nodes options) (#{"test" "test-all"} cmd) (-> resolve-seed resolve-disk)))]
                 (cond
                   (= cmd "inside") (try (inside! (first more))
                                         (catch Exception e
                                           (binding [*out* *err*]
                                             (println "error:" (.getMessage e))
                                             (when-not (instance? clojure.lang.ExceptionInfo e) (.printStackTrace e)))
                                           2))
                   (or (:help options) (nil? cmd)) (do (println (usage summary)) 0)
                   (seq errors) (do (binding [*out* *err*]
                                      (println (str/join "\n" errors))
                                      (println (usage summary)))
                                    2)
                   (= cmd "test") (:exit (strict-exit options (run-campaign! options)))
                   (= cmd "test-all") (test-all! options)
                   (= cmd "clean") (clean!)
                   (= cmd "availability-report") (availability-report! options)
                   ;; for scripts that build on a release's jars (bin/fork-selftest): resolve it, say where
                   (= cmd "zookeeper-lib") (let [v (or (:zookeeper-version options) sut/pinned-version)
                                                 o (sut/resolve! {:system :zookeeper :zookeeper-version v} (db/repo-root))]
                                             (println (.getParent (io/file (first (:server-jars-list o)))))
                                             0)
                   (= cmd "curate") (do ((requiring-resolve 'zabkit.campaign.curate/curate!)
                                         (:store options) (io/file (db/repo-root) "results" "campaigns"))
                                        0)
                   :else (do (binding [*out* *err*] (println "unknown command" cmd) (println (usage summary))) 2)))
               (catch clojure.lang.ExceptionInfo e
                 (binding [*out* *err*] (println "error:" (.getMessage e)))
                 2))]
    (shutdown-agents)
    (System/exit code)))

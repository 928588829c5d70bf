(ns zabkit.campaign.sut
  "Which ZooKeeper build a `--system zookeeper` campaign runs, so a user can aim the same campaign
  at another release or at their own fork. At most one of:
    --zookeeper-version V   org.apache.zookeeper:zookeeper:V and its runtime dependencies from
                            Maven Central (resolved once by Maven into jepsen/target/zookeeper/V/lib)
    --server-jars DIRS      a local build: directories of jars (':'-separated), e.g. the lib/ of
                            the binary tarball `mvn -DskipTests package` makes
    --server-command CMD    a command that starts one server given zoo.cfg's path as its last
                            argument and execs it (its pid must be the server's, which the nemesis
                            kills and pauses), e.g. \"/opt/zk/bin/zkServer.sh start-foreground\"
  None: ZooKeeper 3.9.4, the jars this runner resolved (project.clj). The clients are always the
  runner's official 3.9.4 Java client, as for zabkit: only the servers change."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.util :as u]))

(def pinned-version "3.9.4")

(def version-pattern #"\d+\.\d+\.\d+(-[A-Za-z0-9.]+)?")

(defn kind
  "The option that picked the build: :maven, :jars, :command, or nil (the pinned one)."
  [opts]
  (let [given (filter #(some? (get opts %)) [:zookeeper-version :server-jars :server-command])]
    (when (> (count given) 1)
      (throw (ex-info (str "give at most one of --zookeeper-version, --server-jars, --server-command (got "
                           (str/join ", " (map #(str "--" (name %)) given)) ")")
                      {:type :usage})))
    (when (and (seq given) (not= :zookeeper (:system opts)))
      (throw (ex-info (str "--" (name (first given)) " picks an Apache ZooKeeper build: it needs --system zookeeper")
                      {:type :usage})))
    ({:zookeeper-version :maven :server-jars :jars :server-command :command} (first given))))

(defn label
  "How the build is named in the test name and the results: zookeeper, zookeeper-3.8.4,
  zookeeper-jars, zookeeper-command (zabkit: zabkit, zabkit+keep with --keep-connections, zabkit+ack_before_fsync with --bugzoo)."
  [opts]
  (when (and (:bugzoo opts) (not= :zabkit (:system opts)))
    (throw (ex-info "--bugzoo plants zabkit's bug-zoo switches: it needs --system zabkit" {:type :usage})))
  (when (and (:keep-connections opts) (not= :zabkit (:system opts)))
    (throw (ex-info "--keep-connections is zabkit's keepConnections switch: it needs --system zabkit" {:type :usage})))
  (case (kind opts)
    :maven (str "zookeeper-" (:zookeeper-version opts))
    :jars "zookeeper-jars"
    :command "zookeeper-command"
    (str (name (:system opts))
         (when (:keep-connections opts) "+keep")
         (when-let [bugs (:bugzoo opts)] (str "+" (str/lower-case (str/replace bugs "," "+")))))))

(defn- jar-files [dirs]
  (vec (sort (for [d dirs, ^java.io.File f (or (.listFiles (io/file d)) [])
                   :when (str/ends-with? (.getName f) ".jar")]
               (.getCanonicalPath f)))))

(defn- server-jar? [^String path]
  (re-find #"/zookeeper-\d[^/]*\.jar$" path))

(defn- check-jars!
  "A build's jars must hold the server (zookeeper-X.jar), else every node dies with
  ClassNotFoundException and the run reports no leader instead of the real cause."
  [what jars]
  (when-not (some #(re-find #"/metrics-core-[^/]*\.jar$" %) jars)
    ;; ZooKeeper 3.6+ needs it at start-up; older releases do not, so only a warning
    (println (str "[campaign] warning: " what ": no metrics-core jar; ZooKeeper 3.6 and later fail without it "
                  "(ClassNotFoundException com.codahale.metrics.Reservoir in n*/console.log)")))
  (when-not (some server-jar? jars)
    (throw (ex-info (str what ": no zookeeper-<version>.jar among " (count jars) " jars; "
                         "point it at the directory that holds the server jar and its dependencies "
                         "(the binary tarball's lib/)")
                    {:type :usage})))
  jars)

(defn- maven-pom
  "A pom whose parent is the release's own (org.apache.zookeeper:parent), so the versions of
  metrics-core and snappy-java are the ones that release was built with: the server needs them
  (ClassNotFoundException com.codahale.metrics.Reservoir without), yet the zookeeper artifact
  declares them `provided`, so they are not transitive."
  [version]
  (str "<project><modelVersion>4.0.0</modelVersion>"
       "<parent><groupId>org.apache.zookeeper</groupId><artifactId>parent</artifactId><version>" version
       "</version><relativePath/></parent>"
       "<groupId>zabkit.campaign</groupId><artifactId>zookeeper-server-" version "</artifactId>"
       "<version>0</version><packaging>pom</packaging><dependencies>"
       "<dependency><groupId>org.apache.zookeeper</groupId><artifactId>zookeeper</artifactId><version>" version "</version></dependency>"
       "<dependency><groupId>io.dropwizard.metrics</groupId><artifactId>metrics-core</artifactId></dependency>"
       "<dependency><groupId>org.xerial.snappy</groupId><artifactId>snappy-java</artifactId></dependency>"
       "</dependencies></project>\n"))

(defn maven-lib-dir ^java.io.File [repo-root version]
  (io/file repo-root "jepsen" "target" "zookeeper" version "lib"))

(defn- resolve-maven!
  "ZooKeeper `version` and its runtime dependencies (logback, netty, ...), copied by Maven into
  jepsen/target/zookeeper/<version>/lib once; a finished copy is marked and reused."
  [repo-root version]
  (when-not (re-matches version-pattern version)
    (throw (ex-info (str "--zookeeper-version " version ": not a version (e.g. 3.8.4, 3.9.3)") {:type :usage})))
  (let [lib (maven-lib-dir repo-root version)
        dir (.getParentFile lib)
        done (io/file dir "resolved")]
    (when-not (.exists done)
      (.mkdirs dir)
      (spit (io/file dir "pom.xml") (maven-pom version))
      (println (format "[campaign] resolving ZooKeeper %s from Maven Central into %s" version lib))
      (flush)
      (let [r (try (u/sh! ["mvn" "-q" "-B" "-f" (.getPath (io/file dir "pom.xml")) "dependency:copy-dependencies"
                           "-DincludeScope=runtime" (str "-DoutputDirectory=" (.getPath lib))]
                          :check? false :timeout-ms 600000)
                   (catch java.io.IOException e
                     (throw (ex-info (str "--zookeeper-version needs Maven (mvn) on the PATH to resolve the release: "
                                          (.getMessage e) "; `make campaign-deps` installs it")
                                     {:type :setup}))))]
        (when-not (zero? (:exit r))
          (throw (ex-info (str "--zookeeper-version " version ": Maven could not resolve org.apache.zookeeper:zookeeper:"
                               version " (exit " (:exit r) "):\n" (str/trim (str (:out r) (:err r))))
                          {:type :setup}))))
      (spit done (str version "\n")))
    (check-jars! (str "--zookeeper-version " version) (jar-files [lib]))))

(defn- visible-in-containers!
  "The docker backend's containers see this machine's files only under the checkout (mounted at
  the same path) and the store folder."
  [opts repo-root]
  (when (= :docker (:backend opts))
    (let [root (str (.getCanonicalPath (io/file repo-root)) "/")]
      (doseq [j (:server-jars-list opts) :when (not (str/starts-with? j root))]
        (throw (ex-info (str "--backend docker: " j " is outside the checkout " root
                             ", which is all the containers see; copy the build's jars under it")
                        {:type :usage})))))
  opts)

(defn- resolve-build [opts repo-root]
  (case (kind opts)
    :maven (assoc opts :server-jars-list (resolve-maven! repo-root (:zookeeper-version opts)))
    :jars (let [dirs (remove str/blank? (str/split (:server-jars opts) #":"))]
            (doseq [d dirs :when (not (.isDirectory (io/file d)))]
              (throw (ex-info (str "--server-jars: " d " is not a directory") {:type :usage})))
            (assoc opts :server-jars-list (check-jars! "--server-jars" (jar-files dirs))))
    :command (let [exe (first (str/split (str/trim (:server-command opts)) #"\s+"))]
               (when (and (str/includes? exe "/") (not (.canExecute (io/file exe))) (not= :ssh (:backend opts)))
                 (throw (ex-info (str "--server-command: " exe " is not executable here") {:type :usage})))
               opts)
    opts))

(defn resolve!
  "On the launcher's side, before any node exists: the opts with :server-jars-list (the jars a
  node's JVM runs, absolute paths) for --zookeeper-version and --server-jars. Fails with a usage
  error when the build cannot be had."
  [opts repo-root]
  (-> (resolve-build opts repo-root) (visible-in-containers! repo-root)))

(defn command-argv
  "--server-command's argv for one node: the command's words, then the node's zoo.cfg."
  [opts cfg]
  (conj (vec (str/split (str/trim (:server-command opts)) #"\s+")) cfg))

(defn description
  "What results.edn records about the build under test."
  [opts]
  (case (kind opts)
    :maven {:build :maven :version (:zookeeper-version opts) :jars (count (:server-jars-list opts))}
    :jars {:build :jars :dirs (:server-jars opts) :jars (count (:server-jars-list opts))
           :server-jar (some #(when (server-jar? %) %) (:server-jars-list opts))}
    :command {:build :command :command (:server-command opts)}
    (if (= :zookeeper (:system opts))
      {:build :pinned :version pinned-version}
      {:build :zabkit})))

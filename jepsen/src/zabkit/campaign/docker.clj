(ns zabkit.campaign.docker
  "The Docker node backend: one container per node, from the zabkit-node image (docker/), on an
  --internal network created for the run (no route out of it). Servers are started inside the
  containers with docker exec; pids, kill and pause are the containers' own. Container and
  network names carry the run id; both are removed at the end, also on failure or Ctrl-C.
  The controller (clients, nemesis) runs on the host and reaches the containers through the
  network's bridge."
  (:require [clojure.string :as str]
            [zabkit.campaign.nodes :as nodes]
            [zabkit.campaign.util :as u]))

(def image "zabkit-node:latest")

(defn- docker! [& args]
  (u/sh! (into ["docker"] args) :timeout-ms 60000))

(defn- subnet-octet
  "A /24 per run, from its id, so that concurrent runs do not collide."
  [run-id]
  (+ 16 (mod (Integer/parseInt run-id 16) 200)))

(defrecord DockerNodes [run-id n store]
  nodes/Nodes
  (node-names [_] (mapv #(str "n" %) (range 1 (inc n))))
  (node-host [_ node] (format "10.215.%d.%d" (subnet-octet run-id) (+ 10 (parse-long (subs node 1)))))
  (setup-nodes! [this]
    (when-not (zero? (:exit (u/sh! ["docker" "image" "inspect" image] :check? false)))
      (throw (ex-info (str "docker image " image " is missing: run `make docker-image` (docker/build-image.sh)")
                      {:type :usage})))
    (let [net (str nodes/netns-prefix run-id "-net")]
      (docker! "network" "create" "--internal" "--subnet" (format "10.215.%d.0/24" (subnet-octet run-id)) net)
      (doseq [node (nodes/node-names this)]
        (docker! "run" "-d" "--name" (str nodes/netns-prefix run-id "-" node) "--hostname" node
                 "--network" net "--ip" (nodes/node-host this node)
                 "--cap-add" "NET_ADMIN"
                 "-v" (str store ":" store)
                 "-v" (let [root (.getCanonicalPath (java.io.File. (System/getProperty "user.dir") ".."))]
                        (str root ":" root ":ro"))
                 image "sleep" "infinity")
        (doseq [chain ["ZBK-PART" "ZBK-LOSS"]]
          (let [c (str nodes/netns-prefix run-id "-" node)]
            (docker! "exec" c "iptables" "-w" "-N" chain)
            (docker! "exec" c "iptables" "-w" "-A" "INPUT" "-j" chain))))
      this))
  (teardown-nodes! [this]
    (let [names (map #(str nodes/netns-prefix run-id "-" %) (nodes/node-names this))]
      (u/sh! (into ["docker" "rm" "-f"] names) :check? false :timeout-ms 60000)
      (u/sh! ["docker" "network" "rm" (str nodes/netns-prefix run-id "-net")] :check? false)
      (inc (count names))))
  (exec! [_ node argv]
    (u/sh! (into ["docker" "exec" (str nodes/netns-prefix run-id "-" node)] argv) :check? false))
  (spawn! [_ node argv log-file]
    (let [cmd (str "nohup " (str/join " " (map u/shell-quote argv)) " >> " (u/shell-quote log-file)
                   " 2>&1 < /dev/null & echo $!")
          r (docker! "exec" (str nodes/netns-prefix run-id "-" node) "sh" "-c" cmd)
          pid (parse-long (str/trim (:out r)))]
      (nodes/record-pid! store node pid)
      pid))
  (signal! [this node pid sig]
    (nodes/exec! this node ["kill" (str "-" sig) (str pid)]))
  (controller-argv [_ argv] argv))

(def server-classpath "/opt/zookeeper/lib/*")

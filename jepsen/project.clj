(defproject zabkit/campaign "0.1.0-SNAPSHOT"
  :description "Jepsen-shaped fault campaigns against a ZooKeeper ensemble (zabkit or Apache ZooKeeper 3.9)."
  :license {:name "Apache-2.0"}
  ;; Clojars is unreachable here, so the "clojars" entry is pointed at Debian's local Maven
  ;; repository (it holds nrepl, which lein's default profile wants); everything else comes
  ;; from Maven Central, lein's other default repository.
  :repositories [["clojars" {:url "file:/usr/share/maven-repo" :checksum :ignore :snapshots false}]]
  :dependencies [[org.clojure/clojure "1.11.1"]
                 [org.clojure/tools.cli "1.0.219"]
                 [org.apache.zookeeper/zookeeper "3.9.4"]
                 [io.dropwizard.metrics/metrics-core "4.1.12.1"]
                 [org.xerial.snappy/snappy-java "1.1.10.5"]
                 [org.jfree/jfreechart "1.5.4"]
                 [org.jfree/org.jfree.svg "5.0.6"]
                 [ch.qos.logback/logback-classic "1.3.14"]]
  :main zabkit.campaign.cli
  :jvm-opts ["-Xmx1g" "-Djava.awt.headless=true"]
  :profiles {:uberjar {:aot :all}})

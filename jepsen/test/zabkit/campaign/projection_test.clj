(ns zabkit.campaign.projection-test
  "The Knossos/Elle projection (jepsen-history.edn) and the choice of the build under test."
  (:require [clojure.test :refer [deftest is testing]]
            [clojure.java.io :as io]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.projection :as projection]
            [zabkit.campaign.sut :as sut]))

(defn- indexed [ops] (vec (map-indexed (fn [i op] (assoc op :index i :time (* 10 i))) ops)))

(def register-history
  (indexed
   [{:type :invoke :process 1000000 :f :create :path "/register/k0" :value {:data "" :mode :persistent}}
    {:type :ok :process 1000000 :f :create :path "/register/k0" :value {:data "" :mode :persistent :created-path "/register/k0"} :stat {:version 0}}
    {:type :invoke :process 0 :f :cas :path "/register/k0" :version 0 :value [0 "1"]}
    {:type :info :process :nemesis :f :NodeCrash :jepsen-f :start :value {:fault :kill-leader :fault-id 0}}
    {:type :ok :process 0 :f :cas :path "/register/k0" :version 0 :value [0 "1"] :stat {:version 1} :zxid 5}
    {:type :invoke :process 1 :f :read :path "/register/k0" :value nil}
    {:type :ok :process 1 :f :read :path "/register/k0" :value "1" :stat {:version 1} :zxid 5}
    {:type :invoke :process 1 :f :cas :path "/register/k0" :version 1 :value [1 "2"]}
    {:type :info :process 1 :f :cas :path "/register/k0" :version 1 :value [1 "2"] :error :connection-loss}
    {:type :invoke :process 0 :f :sync :path "/register/k0" :value nil}
    {:type :ok :process 0 :f :sync :path "/register/k0" :value nil :zxid 6}
    {:type :info :process :nemesis :f :NodeStart :jepsen-f :stop :value {:fault :kill-leader :fault-id 0}}
    {:type :invoke :process 2 :f :cas :path "/register/k0" :version 7 :value [7 "3"]}
    {:type :fail :process 2 :f :cas :path "/register/k0" :version 7 :value [7 "3"] :error :bad-version :zxid 7}]))

(deftest register-projection
  (let [p (projection/project :register register-history (h/pairs register-history))
        by-index (into {} (map (juxt :index identity) p))]
    (testing "the setup create is the register's first write, of the empty data"
      (is (= [:write ["/register/k0" ""]] ((juxt :f :value) (by-index 0)))))
    (testing "a cas on a version becomes a cas on the data that version held"
      (is (= ["/register/k0" ["" "1"]] (:value (by-index 2))))
      (is (= ["/register/k0" ["1" "2"]] (:value (by-index 8))))
      (is (= :info (:type (by-index 8)))))
    (testing "a read carries what it read, as an independent-key tuple"
      (is (= [:read ["/register/k0" nil]] ((juxt :f :value) (by-index 5))))
      (is (= [:read ["/register/k0" "1"]] ((juxt :f :value) (by-index 6)))))
    (testing "a cas on a version no observation showed is marked, never guessed"
      (is (= ["/register/k0" [nil "3"]] (:value (by-index 13))))
      (is (:expected-data-unknown? (by-index 13))))
    (testing "syncs are left out; nemesis ops follow Jepsen's :start/:stop, the shared name kept"
      (is (not-any? #(#{9 10} (:index %)) p))
      (is (= [:start :NodeCrash] ((juxt :f (comp :event :value)) (by-index 3))))
      (is (= [:stop :NodeStart] ((juxt :f (comp :event :value)) (by-index 11)))))))

(deftest multi-projection
  (let [w [{:f :check :path "/multi/k0" :version 0} {:f :set-data :path "/multi/k0" :value "7" :version -1}
           {:f :set-data :path "/multi/k1" :value "7" :version -1}]
        r [{:f :get-data :path "/multi/k0"} {:f :get-data :path "/multi/k1"}]
        hist (indexed [{:type :invoke :process 0 :f :multi :value w}
                       {:type :ok :process 0 :f :multi :value [{:type :ok} {:type :ok :stat {:version 1}} {:type :ok :stat {:version 1}}]}
                       {:type :invoke :process 1 :f :multi :value r}
                       {:type :ok :process 1 :f :multi :value [{:type :ok :value "7"} {:type :ok :value "7"}]}])
        p (projection/project :multi hist (h/pairs hist))]
    (is (= [[:txn [[:w "/multi/k0" "7"] [:w "/multi/k1" "7"]]]
            [:txn [[:w "/multi/k0" "7"] [:w "/multi/k1" "7"]]]
            [:txn [[:r "/multi/k0" nil] [:r "/multi/k1" nil]]]
            [:txn [[:r "/multi/k0" "7"] [:r "/multi/k1" "7"]]]]
           (mapv (juxt :f :value) p)))))

(deftest other-workloads-have-no-projection
  (is (nil? (projection/project :lock [] []))))

(deftest the-build-under-test
  (testing "the pinned release unless an option picks another"
    (is (nil? (sut/kind {:system :zookeeper})))
    (is (= "zookeeper" (sut/label {:system :zookeeper})))
    (is (= "zookeeper-3.8.4" (sut/label {:system :zookeeper :zookeeper-version "3.8.4"})))
    (is (= {:build :pinned :version "3.9.4"} (sut/description {:system :zookeeper}))))
  (testing "a planted bug names the build, and only zabkit has the switches"
    (is (= "zabkit+ack_before_fsync+apply_before_commit"
           (sut/label {:system :zabkit :bugzoo "ACK_BEFORE_FSYNC,APPLY_BEFORE_COMMIT"})))
    (is (= "zabkit+keep+keep_reforward_without_check"
           (sut/label {:system :zabkit :keep-connections true :bugzoo "KEEP_REFORWARD_WITHOUT_CHECK"})))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"needs --system zabkit"
                          (sut/label {:system :zookeeper :bugzoo "ACK_BEFORE_FSYNC"})))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"needs --system zabkit"
                          (sut/label {:system :zookeeper :keep-connections true}))))
  (testing "at most one option, and only for --system zookeeper"
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"at most one"
                          (sut/kind {:system :zookeeper :zookeeper-version "3.8.4" :server-jars "/x"})))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"needs --system zookeeper"
                          (sut/kind {:system :zabkit :zookeeper-version "3.8.4"}))))
  (testing "a version that is not one, a directory without the server jar: usage errors, before any node exists"
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"not a version"
                          (sut/resolve! {:system :zookeeper :zookeeper-version "3.8; rm"} (io/file "."))))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"no zookeeper-<version>.jar"
                          (sut/resolve! {:system :zookeeper :server-jars (System/getProperty "java.io.tmpdir")} (io/file "."))))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"not a directory"
                          (sut/resolve! {:system :zookeeper :server-jars "/nonexistent-zk-build"} (io/file ".")))))
  (testing "a directory of jars: the runner's own ZooKeeper jars stand for a local build"
    (let [jar (some #(when (re-find #"/zookeeper-3[^/]*\.jar$" %) %)
                    (clojure.string/split (System/getProperty "java.class.path") #":"))
          o (sut/resolve! {:system :zookeeper :server-jars (.getParent (io/file jar))} (io/file "."))]
      (is (some #{(.getCanonicalPath (io/file jar))} (:server-jars-list o)))
      (is (= :jars (:build (sut/description o))))))
  (testing "a start command gets the node's zoo.cfg as its last argument"
    (is (= ["/opt/zk/bin/zkServer.sh" "start-foreground" "/s/n1/zoo.cfg"]
           (sut/command-argv {:server-command " /opt/zk/bin/zkServer.sh  start-foreground"} "/s/n1/zoo.cfg")))))

(ns zabkit.campaign.cli-test
  "The command line's node options: --nodes and Jepsen's --nodes-file."
  (:require [clojure.java.io :as io]
            [clojure.test :refer [deftest is testing]]
            [clojure.tools.cli :as tcli]
            [zabkit.campaign.cli :as cli]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.nemesis]))

(defn- parse [& args] (tcli/parse-opts args cli/opt-specs))

(defn- nodes-file [text]
  (let [f (java.io.File/createTempFile "nodes" ".txt")]
    (.deleteOnExit f)
    (spit f text)
    (.getPath f)))

(defn- usage-error [opts]
  (try (cli/resolve-nodes opts) nil
       (catch clojure.lang.ExceptionInfo e
         (is (= :usage (:type (ex-data e))))
         (.getMessage e))))

(deftest node-count
  (testing "3 unless given"
    (is (= 3 (:nodes (cli/resolve-nodes (:options (parse "--system" "zabkit")))))))
  (testing "odd sizes 3 to 9 parse; others are refused by the parser"
    (doseq [n [3 5 7 9]]
      (is (empty? (:errors (parse "--nodes" (str n))))))
    (doseq [n [1 2 4 6 11]]
      (is (seq (:errors (parse "--nodes" (str n)))) (str n " servers must be refused")))))

(deftest nodes-file-gives-hosts-and-count
  (let [f (nodes-file "# the cluster\nzk1\n  zk2  \n\nzk3\nzk4\nzk5\nzk6\nzk7\n")
        o (cli/resolve-nodes (:options (parse "--backend" "ssh" "--nodes-file" f)))]
    (is (= 7 (:nodes o)))
    (is (= "zk1,zk2,zk3,zk4,zk5,zk6,zk7" (:ssh-hosts o))))
  (testing "an explicit --nodes that agrees is fine"
    (let [f (nodes-file "a\nb\nc\nd\ne\n")]
      (is (= 5 (:nodes (cli/resolve-nodes (:options (parse "--backend" "ssh" "--nodes" "5" "--nodes-file" f)))))))))

(deftest nodes-file-refusals
  (let [seven (nodes-file "h1\nh2\nh3\nh4\nh5\nh6\nh7\n")]
    (is (re-find #"lists 7 hosts" (usage-error (:options (parse "--backend" "ssh" "--nodes" "5" "--nodes-file" seven)))))
    (is (re-find #"--backend ssh" (usage-error (:options (parse "--nodes-file" seven)))))
    (is (re-find #"not both" (usage-error (:options (parse "--backend" "ssh" "--ssh-hosts" "a,b,c" "--nodes-file" seven))))))
  (is (re-find #"4 hosts" (usage-error (:options (parse "--backend" "ssh" "--nodes-file" (nodes-file "a\nb\nc\nd\n"))))))
  (is (re-find #"listed twice" (usage-error (:options (parse "--backend" "ssh" "--nodes-file" (nodes-file "a\nb\na\n"))))))
  (is (re-find #"one host per line" (usage-error (:options (parse "--backend" "ssh" "--nodes-file" (nodes-file "a b\nc\nd\n"))))))
  (is (re-find #"cannot read" (usage-error (:options (parse "--backend" "ssh" "--nodes-file" "/nonexistent/nodes"))))))

(deftest one-seed-one-fault-schedule
  ;; the schedule's choices draw from the seeded generator only, so one seed gives one schedule;
  ;; :leader draws even when there is a leader, so a run without one stays aligned with one that has
  (let [pick-targets (fn [seed]
                       (let [test {:nemesis-rng (zabkit.campaign.nemesis/make-rng seed)}
                             pick @#'zabkit.campaign.nemesis/pick
                             shuffled @#'zabkit.campaign.nemesis/shuffled]
                         (vec (for [_ (range 20)]
                                [(pick test [:leader :halves :ring :bridge])
                                 (shuffled test ["n1" "n2" "n3" "n4" "n5"])]))))]
    (is (= (pick-targets 42) (pick-targets 42)))
    (is (not= (pick-targets 42) (pick-targets 43)))))

(deftest seed-option
  (is (= 7 (:seed (cli/resolve-seed (:options (parse "--seed" "7"))))))
  (is (int? (:seed (cli/resolve-seed (:options (parse))))) "drawn when not given")
  (is (seq (:errors (parse "--seed" "x")))))

(deftest bugzoo-names
  (testing "the option takes switch names, comma-separated"
    (is (= "ACK_BEFORE_FSYNC,TRUNC_NOT_APPLIED_ON_DISK"
           (:bugzoo (:options (parse "--bugzoo" "ACK_BEFORE_FSYNC,TRUNC_NOT_APPLIED_ON_DISK")))))
    (is (seq (:errors (parse "--bugzoo" "ack before fsync")))))
  (testing "names are checked against impl's Bug.java before any server starts"
    (is (contains? (db/bugzoo-switches) "ACK_BEFORE_FSYNC"))
    (is (contains? (db/bugzoo-switches) "OBSERVER_ACK_COUNTED"))
    (is (nil? (db/check-bugzoo! {:bugzoo "ACK_BEFORE_FSYNC"})))
    (is (thrown-with-msg? clojure.lang.ExceptionInfo #"no switch named NO_SUCH_BUG"
                          (db/check-bugzoo! {:bugzoo "ACK_BEFORE_FSYNC,NO_SUCH_BUG"})))))

(ns zabkit.campaign.soak-test
  "make soak's pieces: the read-back checker on hand-written histories (legal, a lost create, a
  phantom child, an unread bucket), the soak's nemesis names, the disk option's rules, and the
  slow client's raw bytes read back with ZooKeeper's own jute records."
  (:require [clojure.test :refer [deftest is testing]]
            [zabkit.campaign.cli :as cli]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.stray :as stray]
            [zabkit.campaign.workload.soak :as soak])
  (:import (org.apache.jute BinaryInputArchive)
           (org.apache.zookeeper.proto ConnectRequest RequestHeader GetDataRequest)
           (java.io ByteArrayInputStream DataInputStream)))

(defn- create [p path t] [{:type :invoke :process p :f :create :path path :value {:data "v"}}
                          {:type t :process p :f :create :path path :value {:data "v"}}])
(defn- listing [p bucket children]
  [{:type :invoke :process p :f :get-children :path bucket :value nil :final? true}
   {:type :ok :process p :f :get-children :path bucket :value children :final? true}])

(deftest read-back-verdicts
  (testing "every acknowledged create listed, an :info create listed or not: valid"
    (let [h (concat (create 0 "/soak/b1/w1" :ok) (create 1 "/soak/b1/w2" :info)
                    (create 2 "/soak/b2/w3" :ok) (listing 3 "/soak/b1" ["w1"]) (listing 4 "/soak/b2" ["w3"]))
          r (soak/read-back h)]
      (is (true? (:valid? r)))
      (is (= 2 (:acknowledged r)))
      (is (= 2 (:read-back r)))))
  (testing "an acknowledged create missing from its bucket's final listing is lost"
    (let [r (soak/read-back (concat (create 0 "/soak/b1/w1" :ok) (create 0 "/soak/b1/w2" :ok)
                                    (listing 3 "/soak/b1" ["w2"])))]
      (is (false? (:valid? r)))
      (is (= ["/soak/b1/w1"] (:lost r)))))
  (testing "a listed child nobody tried to create is a phantom"
    (let [r (soak/read-back (concat (create 0 "/soak/b1/w1" :ok) (listing 3 "/soak/b1" ["w1" "w9"])))]
      (is (false? (:valid? r)))
      (is (= ["/soak/b1/w9"] (:phantoms r)))))
  (testing "a failed create (Jepsen's :fail: it did not happen) is absent, or a phantom"
    (is (true? (:valid? (soak/read-back (concat (create 0 "/soak/b1/w1" :fail) (listing 3 "/soak/b1" []))))))
    (let [r (soak/read-back (concat (create 0 "/soak/b1/w1" :fail) (listing 3 "/soak/b1" ["w1"])))]
      (is (false? (:valid? r)))
      (is (= ["/soak/b1/w1"] (:phantoms r)))))
  (testing "an acknowledged create whose bucket was never read back: unknown, not valid"
    (let [r (soak/read-back (concat (create 0 "/soak/b1/w1" :ok) (listing 3 "/soak/b2" [])))]
      (is (= :unknown (:valid? r)))
      (is (= 1 (:unread-count r)))))
  (testing "a listing that is not the final read-back proves nothing"
    (let [h (concat (create 0 "/soak/b1/w1" :ok)
                    [{:type :invoke :process 3 :f :get-children :path "/soak/b1" :value nil}
                     {:type :ok :process 3 :f :get-children :path "/soak/b1" :value []}])]
      (is (= :unknown (:valid? (soak/read-back h)))))))

(deftest final-ops-cover-every-bucket-once
  (let [test {:concurrency 6}
        listed (for [w (range 6), op (soak/final-ops test w) :when (= :get-children (:f op))] (:path op))]
    (is (= (count listed) soak/buckets (count (set listed))))))

(deftest soak-nemesis-names
  (is (= [{:family :slow-client :targets [:leader :follower]} {:family :stray-peer :targets [:leader]}
          {:family :disk :targets [:follower]} {:family :kill :targets [:leader]}]
         (nemesis/parse-nemesis "slow-client,stray-peer-leader,disk-follower,kill-leader")))
  (is (thrown? Exception (nemesis/parse-nemesis "slow")))
  (is (thrown? Exception (nemesis/parse-nemesis "slow-client-everyone")))
  (testing "all stays the classic matrix"
    (is (= nemesis/families (mapv :family (nemesis/parse-nemesis "all"))))))

(deftest disk-option-rules
  (is (= 1024 (:disk-mb (cli/resolve-disk {:backend :netns :nemesis "kill,disk"}))))
  (is (= 64 (:disk-mb (cli/resolve-disk {:backend :netns :nemesis "disk" :disk-mb 64}))))
  (is (nil? (:disk-mb (cli/resolve-disk {:backend :netns :nemesis "kill"}))))
  (is (thrown-with-msg? Exception #"need --backend netns"
                        (cli/resolve-disk {:backend :ssh :nemesis "disk"}))))

(defn- unframe
  "Strips the 4-byte length, checking it."
  [^bytes b]
  (let [in (DataInputStream. (ByteArrayInputStream. b))
        n (.readInt in)]
    (is (= n (- (alength b) 4)))
    (BinaryInputArchive/getArchive (ByteArrayInputStream. b 4 n))))

(deftest slow-client-bytes-are-zookeeper-records
  (let [cr (ConnectRequest.)]
    (.deserialize cr (unframe (stray/connect-request 30000)) "connect")
    (is (= 30000 (.getTimeOut cr)))
    (is (= 0 (.getSessionId cr)))
    (is (= 16 (alength (.getPasswd cr)))))
  (let [a (unframe (stray/get-data-request 7 "/soak-big"))
        hdr (RequestHeader.)
        req (GetDataRequest.)]
    (.deserialize hdr a "header")
    (.deserialize req a "request")
    (is (= [7 4] [(.getXid hdr) (.getType hdr)]))
    (is (= "/soak-big" (.getPath req)))
    (is (false? (.getWatch req)))))

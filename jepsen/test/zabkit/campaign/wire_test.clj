(ns zabkit.campaign.wire-test
  "The reply zxids zabkit.campaign.wire records, against a real Apache ZooKeeper 3.9.4 standalone
  server (the runner's own jars, a child JVM on a free loopback port, killed at the end)."
  (:require [clojure.test :refer [deftest is testing use-fixtures]]
            [clojure.java.io :as io]
            [zabkit.campaign.wire :as wire]
            [zabkit.campaign.client :as c]
            [zabkit.campaign.checker :as checker]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.workload.watch :as watch])
  (:import (org.apache.zookeeper ZooKeeper Watcher WatchedEvent CreateMode ZooDefs$Ids Op
                                 KeeperException$Code Watcher$Event$KeeperState)
           (java.net ServerSocket Socket)
           (java.nio.file Files)
           (java.nio.file.attribute FileAttribute)
           (java.util.concurrent CountDownLatch LinkedBlockingQueue TimeUnit)))

(def ^:dynamic *port* nil)
(def acl ZooDefs$Ids/OPEN_ACL_UNSAFE)
(def t 10000)

(defn- free-port [] (with-open [s (ServerSocket. 0)] (.getLocalPort s)))

(defn- await-port [port ms]
  (let [deadline (+ (System/currentTimeMillis) ms)]
    (loop []
      (or (try (with-open [_ (Socket. "127.0.0.1" (int port))] true) (catch Exception _ false))
          (when (< (System/currentTimeMillis) deadline) (Thread/sleep 100) (recur))))))

(defn- with-server [f]
  (let [dir (.toFile (Files/createTempDirectory "wire-test" (make-array FileAttribute 0)))
        port (free-port)
        java (str (System/getProperty "java.home") "/bin/java")
        pb (doto (ProcessBuilder. [java "-Xmx256m" "-cp" (System/getProperty "java.class.path")
                                   "-Dzookeeper.admin.enableServer=false"
                                   "org.apache.zookeeper.server.ZooKeeperServerMain" (str port) (.getPath dir)])
             (.redirectErrorStream true)
             (.redirectOutput (io/file dir "server.log")))
        proc (.start pb)]
    (try
      (when-not (await-port port 30000) (throw (ex-info "ZooKeeper did not start" {:log (slurp (io/file dir "server.log"))})))
      (binding [*port* port] (f))
      (finally
        (.destroyForcibly proc)
        (.waitFor proc 10 TimeUnit/SECONDS)
        (doseq [x (reverse (file-seq dir))] (io/delete-file x true))))))

(use-fixtures :once with-server)

(defn- connect
  "A connected session; events (other than connection states) go to the queue."
  ([] (connect 4000 nil))
  ([timeout-ms ^LinkedBlockingQueue events]
   (let [l (CountDownLatch. 1)
         zk (ZooKeeper. (str "127.0.0.1:" *port*) (int timeout-ms)
                        (reify Watcher (process [_ e]
                                         (when (= (.getState e) Watcher$Event$KeeperState/SyncConnected) (.countDown l)))))]
     (assert (.await l 10 TimeUnit/SECONDS) "connected")
     zk)))

(defn- b [^String s] (.getBytes s "UTF-8"))

(deftest writes-carry-their-transaction-zxid
  (let [zk (connect)]
    (try
      (let [c (wire/create zk t "/w" (b "") acl CreateMode/PERSISTENT)
            s1 (wire/set-data zk t "/w" (b "1") -1)
            bad (wire/set-data zk t "/w" (b "2") 7)
            r (wire/get-data zk t "/w")]
        (testing "create2 and setData: the reply zxid is the transaction's (czxid, mzxid)"
          (is (nil? (:code c)))
          (is (= (:zxid c) (.getCzxid (:stat c))))
          (is (= (:zxid s1) (.getMzxid (:stat s1))))
          (is (< (:zxid c) (:zxid s1))))
        (testing "a failed conditional write: its error transaction has a zxid of its own"
          (is (= KeeperException$Code/BADVERSION (:code bad)))
          (is (< (:zxid s1) (:zxid bad))))
        (testing "a read: the server's last processed zxid, here the error transaction"
          (is (= "1" (String. ^bytes (:data r) "UTF-8")))
          (is (= (:zxid bad) (:zxid r))))
        (testing "exists of a missing node is an answer with a zxid, not an error"
          (let [e (wire/exists zk t "/absent")]
            (is (nil? (:code e)))
            (is (nil? (:stat e)))
            (is (= (:zxid bad) (:zxid e))))))
      (finally (.close zk)))))

(deftest pipelined-requests-each-get-their-own-reply-zxid
  (let [zk (connect)
        n 20]
    (try
      (wire/create zk t "/p" (b "") acl CreateMode/PERSISTENT)
      ;; writes and reads queued back to back, none awaited before the last is sent
      (let [ps (vec (for [i (range n)]
                      (if (even? i)
                        [:write (wire/send! zk org.apache.zookeeper.ZooDefs$OpCode/setData
                                            (org.apache.zookeeper.proto.SetDataRequest. "/p" (b (str i)) -1)
                                            (org.apache.zookeeper.proto.SetDataResponse.) :path "/p")]
                        [:read (wire/send! zk org.apache.zookeeper.ZooDefs$OpCode/getData
                                           (org.apache.zookeeper.proto.GetDataRequest. "/p" false)
                                           (org.apache.zookeeper.proto.GetDataResponse.) :path "/p")])))
            rs (mapv (fn [[k p]] [k (wire/await! p t)]) ps)
            zs (mapv (comp :zxid second) rs)]
        (testing "each write's zxid is its own mzxid; each read's is the write just before it"
          (doseq [[i [k r]] (map-indexed vector rs)]
            (case k
              :write (is (= (:zxid r) (.getMzxid ^org.apache.zookeeper.data.Stat (.getStat ^org.apache.zookeeper.proto.SetDataResponse (:response r)))))
              :read (is (= (:zxid r) (nth zs (dec i)))))))
        (testing "writes' zxids strictly increase in issue order"
          (is (apply < (take-nth 2 zs))))
        (testing "what the client's last seen zxid would have said instead: only the last reply's"
          (is (= (peek zs) (.getLastZxid ^org.apache.zookeeper.ClientCnxn
                                         (.get (doto (.getDeclaredField ZooKeeper "cnxn") (.setAccessible true)) zk))))
          (is (< (first zs) (peek zs)))))
      (finally (.close zk)))))

(deftest watches-set-through-wire-fire-and-notifications-leave-replies-alone
  (let [events (LinkedBlockingQueue.)
        watcher (reify Watcher (process [_ e] (.put events e)))
        reader (connect)
        writer (connect)]
    (try
      (wire/create writer t "/n" (b "") acl CreateMode/PERSISTENT)
      (let [e0 (wire/exists reader t "/n" :watcher watcher)
            w (wire/set-data writer t "/n" (b "x") -1)
            ^WatchedEvent ev (.poll events 10 TimeUnit/SECONDS)
            r (wire/get-data reader t "/n")]
        (testing "the exists watch was registered with the client (it fired once, at the write's zxid)"
          (is (some? ev))
          (is (= "NodeDataChanged" (str (.getType ev))))
          (is (= (:zxid w) (.getZxid ev))))
        (testing "the read after the notification has its own reply's zxid, the write's"
          (is (< (:zxid e0) (:zxid w)))
          (is (= (:zxid w) (:zxid r)))))
      (finally (.close reader) (.close writer)))))

(deftest pings-between-requests-change-nothing
  ;; session timeout 2000 ms: the client pings about every 670 ms while idle
  (let [zk (connect 2000 nil)]
    (try
      (let [c (wire/create zk t "/i" (b "") acl CreateMode/PERSISTENT)]
        (Thread/sleep 2500)
        (let [r (wire/get-data zk t "/i")
              s (wire/sync-path zk t "/i")]
          (is (= (:zxid c) (:zxid r)))
          (is (= (:zxid c) (:zxid s)))))
      (finally (.close zk)))))

(deftest multi-and-close-session
  (let [zk (connect) other (connect)]
    (try
      (wire/create zk t "/m" (b "") acl CreateMode/PERSISTENT)
      (let [ok (wire/multi zk t [(Op/check "/m" 0) (Op/setData "/m" (b "a") -1)])
            bad (wire/multi zk t [(Op/check "/m" 0) (Op/setData "/m" (b "b") -1)])
            rd (wire/multi zk t [(Op/getData "/m")])]
        (testing "an ok multi: one zxid, its set-data's mzxid"
          (is (nil? (:code ok)))
          (is (= (:zxid ok) (.getMzxid (.getStat ^org.apache.zookeeper.OpResult$SetDataResult (second (:results ok)))))))
        (testing "a failed multi: the failing op's code, its results, and a zxid (the error transaction)"
          (is (= KeeperException$Code/BADVERSION (:code bad)))
          (is (= 2 (count (:results bad))))
          (is (< (:zxid ok) (:zxid bad))))
        (testing "a read-only multi (multiRead): the last processed zxid"
          (is (nil? (:code rd)))
          (is (= (:zxid bad) (:zxid rd)))))
      (let [e (wire/create zk t "/m/e-" (b "") acl CreateMode/EPHEMERAL_SEQUENTIAL)
            closed (wire/close-session! zk t)
            seen (wire/exists other t (:created-path e))]
        (testing "close-session: the closeSession transaction's zxid, after which the ephemeral is gone"
          (is (nil? (:code closed)))
          (is (< (:zxid e) (:zxid closed)))
          (is (nil? (:stat seen)))
          (is (<= (:zxid closed) (:zxid seen))))
        (testing "a request on the closed client gets no zxid (the client answered it, not a server)"
          (let [r (wire/get-data zk t "/m")]
            (is (some? (:code r)))
            (is (nil? (:zxid r))))))
      (finally (.close zk) (.close other)))))

;; ---------------------------------------------------------------------------------------------
;; the watch workload's recording, against the same server: what zk-check is given

(deftest watch-workload-records-each-request-and-one-event-per-notification
  (let [dir (.toFile (Files/createTempDirectory "watch-wl" (make-array FileAttribute 0)))
        rec (h/recorder (io/file dir "history.edn") (System/nanoTime))
        test {:record! (partial h/append! rec) :setup-process (atom c/setup-process-base)
              :sub-process (atom c/sub-process-base) :session-timeout 4000 :keys 2
              :value-counter (atom 0) :workload (watch/workload {}) :store (.getPath dir)}
        worker (fn [i] {:worker i :process (atom i)})]
    (try
      (with-redefs [c/connect-string (fn [_ _] (str "127.0.0.1:" *port*))]
        (let [writer (c/open! (:client (:workload test)) test (worker 0))
              reader (c/open! (:client (:workload test)) test (worker 1))
              inv (fn [cl f v] (c/invoke! cl test {:f f :path "/cfg" :value v :process 0}))]
          (try
            (c/setup! writer test)
            ;; two reads before the write: the client holds two registrations of /cfg/ready's
            ;; watch, the server one; the notification must be recorded once
            (is (= :ok (:type (inv reader :read-config nil))))
            (is (= :ok (:type (inv reader :read-config nil))))
            (is (= :ok (:type (inv writer :write-config 1))))
            (Thread/sleep 500)
            (let [r (inv reader :read-config nil)]
              (is (= "1" (get-in r [:value :ready-gen])))
              (is (get-in r [:value :acted?])))
            (finally (c/close! writer test) (c/close! reader test)))))
      (h/close! rec)
      (let [hist (h/ops rec)
            parts (filter :part-of hist)
            events (filter #(= :watch-event (:f %)) hist)]
        (testing "each request inside the composites is an op of its own, completed with its reply zxid"
          (is (= (count (filter #(= :invoke (:type %)) parts)) (count (remove #(= :invoke (:type %)) parts))))
          (is (every? :zxid (remove #(= :invoke (:type %)) parts)))
          (is (= #{:exists :get-data :delete :set-data :create} (set (map :f parts))))
          (is (every? :watch (filter #(= :exists (:f %)) parts))))
        (testing "one :watch-event per notification: the delete of ready, then nothing twice"
          (is (= 1 (count events)) (pr-str events))
          (is (= [:node-deleted "/cfg/ready"] ((juxt (comp :event :value) :path) (first events))))
          (is (:session (first events))))
        (testing "zk-check, given the history, checks its watches and finds it valid"
          (let [r (checker/zk-check test hist)]
            (is (true? (:valid? r)) (pr-str (dissoc r :summary)))
            (is (pos? (get-in r [:properties :WatchOrdering :count] 0)) (pr-str (:properties r))))))
      (finally (doseq [x (reverse (file-seq dir))] (io/delete-file x true))))))

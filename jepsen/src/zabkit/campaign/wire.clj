(ns zabkit.campaign.wire
  "Requests on the official Java client's own connection that keep their reply header, so every
  completion can carry the zxid the server put in the reply (check/README.md's :zxid).

  Why this way. ZooKeeper's public API drops the ReplyHeader; two ways remain:
  - ClientCnxn.getLastZxid() after the call returns: the send thread sets it from every reply
    with a zxid > 0, including SetWatches replies after a reconnect, and from the reply of any
    other request of the session that is in flight (pipelined async calls, a timed-out request
    still answered later). Read after a call returns it may already belong to a later reply. Not
    exact.
  - Queue the request ourselves (ClientCnxn.queuePacket, public) with a ReplyHeader we own: the
    send thread copies the reply's xid, err and zxid into that header (readResponse) before it
    finishes the packet, and only for the reply whose xid matches this request. Pings
    (xid -2) and watch notifications (xid -1) are consumed before the pending queue is touched,
    so they never reach the header. The callback runs on the event thread after finishPacket
    (a LinkedBlockingQueue hand-off, so the header's fields are visible to it), and we read the
    header only there. Exact under pipelining, pings and notifications: this is what we use.
  A header the client finished itself (connection loss, session expired, closing) keeps zxid 0,
  and so does the rare server reply that carries none (an auth failure); :zxid is recorded only
  for a zxid > 0, i.e. only when a server answered this very request.

  The requests are the jute records the client itself builds (GetDataRequest, Create2, ...), with
  its WatchRegistration classes when a watch is set, so the server sees exactly what
  ZooKeeper.getData and friends send (no chroot: the campaign uses none)."
  (:import (org.apache.zookeeper ZooKeeper ClientCnxn ZooDefs$OpCode KeeperException$Code Watcher
                                 CreateMode MultiOperationRecord MultiResponse Op Op$OpKind
                                 AsyncCallback$StatCallback AsyncCallback$DataCallback
                                 AsyncCallback$Children2Callback AsyncCallback$Create2Callback
                                 AsyncCallback$MultiCallback AsyncCallback$VoidCallback)
           (org.apache.zookeeper.common PathUtils)
           (org.apache.zookeeper.data ACL Stat)
           (org.apache.zookeeper.proto RequestHeader ReplyHeader GetDataRequest GetDataResponse
                                       SetDataRequest SetDataResponse CreateRequest Create2Response
                                       DeleteRequest ExistsRequest ExistsResponse
                                       GetChildren2Request GetChildren2Response SyncRequest SyncResponse)
           (java.util.concurrent TimeUnit)))

(def ^:private cnxn-field
  (doto (.getDeclaredField ZooKeeper "cnxn") (.setAccessible true)))

(defn- cnxn ^ClientCnxn [^ZooKeeper zk] (.get ^java.lang.reflect.Field cnxn-field zk))

(defn- watch-registration
  "The client's own registration (ZooKeeper$ExistsWatchRegistration, ...), so the watch is kept
  and re-set after a reconnect (SetWatches) exactly as for zk.exists(path, watcher)."
  [^ZooKeeper zk kind ^Watcher watcher ^String path]
  (when watcher
    (let [cls (Class/forName (str "org.apache.zookeeper.ZooKeeper$" (case kind :exists "Exists" :data "Data" :child "Child")
                                  "WatchRegistration"))
          ctor (doto (.getDeclaredConstructor cls (into-array Class [ZooKeeper Watcher String])) (.setAccessible true))]
      (.newInstance ctor (object-array [zk watcher path])))))

(defn- done-callback
  "A callback of the type the event thread casts to for this response record (ClientCnxn's
  EventThread.processEvent dispatches on the response's class); it only signals completion:
  the response record and the ReplyHeader we passed hold the result."
  [response done]
  (cond
    (or (instance? ExistsResponse response) (instance? SetDataResponse response))
    (reify AsyncCallback$StatCallback (processResult [_ _ _ _ _] (done)))
    (instance? GetDataResponse response) (reify AsyncCallback$DataCallback (processResult [_ _ _ _ _ _] (done)))
    (instance? GetChildren2Response response) (reify AsyncCallback$Children2Callback (processResult [_ _ _ _ _ _] (done)))
    (instance? Create2Response response) (reify AsyncCallback$Create2Callback (processResult [_ _ _ _ _ _] (done)))
    (instance? MultiResponse response) (reify AsyncCallback$MultiCallback (processResult [_ _ _ _ _] (done)))
    :else (reify AsyncCallback$VoidCallback (processResult [_ _ _ _] (done)))))

(defn code-of
  "The KeeperException$Code of a reply's err, nil for OK."
  [err]
  (when-not (zero? (long err)) (KeeperException$Code/get (int err))))

(defn send!
  "Queues one request on zk's connection; returns a promise of {:code Code-or-nil :zxid z-or-nil
  :response record}, delivered on the client's event thread when the reply (or the client's own
  connection-loss verdict) is in. :watch [kind watcher path] registers a watch as the client does;
  :on-reply (fn [reply] map) is merged into the reply on the event thread."
  [^ZooKeeper zk op-type request response & {:keys [^String path watch on-reply]}]
  (let [hdr (ReplyHeader.)
        p (promise)
        done (fn []
               (let [z (.getZxid hdr)
                     r {:code (code-of (.getErr hdr)) :zxid (when (pos? z) z)
                        :response (when (zero? (.getErr hdr)) response)}]
                 ;; on-reply runs on the event thread, in order with watch events
                 (deliver p (cond-> r on-reply (merge (on-reply r))))))
        wreg (when watch (apply watch-registration zk watch))]
    (.queuePacket (cnxn zk) (RequestHeader. 0 (int op-type)) hdr request response
                  (done-callback response done) path path nil wreg)
    p))

(defn await!
  "Waits for a send! result; a reply later than timeout-ms comes back as :operation-timeout with
  no zxid (the request may still take effect: a write's caller records :info)."
  [p timeout-ms]
  (let [r (deref p (long timeout-ms) ::timeout)]
    (if (= r ::timeout) {:code KeeperException$Code/OPERATIONTIMEOUT :zxid nil :timeout? true} r)))

(defn call!
  "send! then await!."
  [zk timeout-ms op-type request response & opts]
  (await! (apply send! zk op-type request response opts) timeout-ms))

;; ---- the requests the campaign uses, as the official client builds them

(defn- parse-reply
  "The reply of an op named by its history :f, with the response's fields as data. exists is
  as ZooKeeper.exists: no-node is an answer (:stat nil), not an error."
  [f r]
  (let [rsp (:response r)]
    (case f
      :exists (cond (= (:code r) KeeperException$Code/NONODE) (assoc r :code nil :stat nil)
                    rsp (assoc r :stat (.getStat ^ExistsResponse rsp))
                    :else r)
      :get-data (if rsp (assoc r :data (.getData ^GetDataResponse rsp) :stat (.getStat ^GetDataResponse rsp)) r)
      :set-data (if rsp (assoc r :stat (.getStat ^SetDataResponse rsp)) r)
      :create (if rsp (assoc r :created-path (.getPath ^Create2Response rsp) :stat (.getStat ^Create2Response rsp)) r)
      r)))

(defn send-op!
  "One request named by its history :f (:exists :get-data :set-data :delete :create), queued
  without waiting (pipelined); returns a promise of the parsed reply. on-reply (fn [parsed]
  map-or-nil) runs first, on the event thread, in order with the session's watch events.
  :watcher sets a watch as the client does (exists: a data watch if the node is there, an exist
  watch if not; get-data: a data watch). create is create2 (the reply has the Stat); its path is
  the name, or for a sequential mode the prefix."
  [zk f ^String path & {:keys [^bytes data version watcher acl ^CreateMode mode on-reply]}]
  (PathUtils/validatePath path (boolean (and mode (.isSequential mode))))
  (let [[op-type req rsp wkind]
        (case f
          :exists [ZooDefs$OpCode/exists (ExistsRequest. path (some? watcher)) (ExistsResponse.) :exists]
          :get-data [ZooDefs$OpCode/getData (GetDataRequest. path (some? watcher)) (GetDataResponse.) :data]
          :set-data [ZooDefs$OpCode/setData (SetDataRequest. path data (int version)) (SetDataResponse.) nil]
          :delete [ZooDefs$OpCode/delete (DeleteRequest. path (int version)) nil nil]
          :create [ZooDefs$OpCode/create2 (CreateRequest. path data acl (.toFlag mode)) (Create2Response.) nil])]
    (assert (or (nil? watcher) wkind) (str f " takes no watch"))
    (send! zk op-type req rsp :path path :watch (when watcher [wkind watcher path])
           :on-reply (fn [r] (let [pr (parse-reply f r)] (merge pr (when on-reply (on-reply pr))))))))

(defn get-data [zk timeout-ms ^String path & {:keys [watcher]}]
  (await! (send-op! zk :get-data path :watcher watcher) timeout-ms))

(defn set-data [zk timeout-ms ^String path ^bytes data version]
  (await! (send-op! zk :set-data path :data data :version version) timeout-ms))

(defn create
  "create2 (the reply has the Stat). path is the name, or for a sequential mode the prefix."
  [zk timeout-ms ^String path ^bytes data acl ^CreateMode mode]
  (await! (send-op! zk :create path :data data :acl acl :mode mode) timeout-ms))

(defn delete [zk timeout-ms ^String path version]
  (await! (send-op! zk :delete path :version version) timeout-ms))

(defn exists
  "As ZooKeeper.exists: no-node is an answer (:stat nil), not an error."
  [zk timeout-ms ^String path & {:keys [watcher]}]
  (await! (send-op! zk :exists path :watcher watcher) timeout-ms))

(defn get-children
  "getChildren2 (the parent's Stat with the children)."
  [zk timeout-ms ^String path & {:keys [watcher]}]
  (PathUtils/validatePath path)
  (let [r (call! zk timeout-ms ZooDefs$OpCode/getChildren2 (GetChildren2Request. path (some? watcher)) (GetChildren2Response.)
                 :path path :watch (when watcher [:child watcher path]))]
    (if-let [^GetChildren2Response rsp (:response r)]
      (assoc r :children (vec (.getChildren rsp)) :stat (.getStat rsp))
      r)))

(defn sync-path [zk timeout-ms ^String path]
  (PathUtils/validatePath path)
  (call! zk timeout-ms ZooDefs$OpCode/sync (SyncRequest. path) (SyncResponse.) :path path))

(defn multi
  "A multi (multiRead when every op reads, as ZooKeeper.multi picks). :results are the OpResults;
  a failed multi has the failing op's :code and its results, as KeeperException.getResults."
  [zk timeout-ms ops]
  (let [rec (MultiOperationRecord. ^Iterable ops)
        op-type (if (= Op$OpKind/READ (.getOpKind rec)) ZooDefs$OpCode/multiRead ZooDefs$OpCode/multi)
        r (call! zk timeout-ms op-type rec (MultiResponse.))]
    (if-let [^MultiResponse rsp (:response r)]
      (let [results (vec (.getResultList rsp))
            failed (first (keep #(when (instance? org.apache.zookeeper.OpResult$ErrorResult %)
                                   (code-of (.getErr ^org.apache.zookeeper.OpResult$ErrorResult %)))
                                results))]
        (assoc r :results results :code failed))
      r)))

(defn close-session!
  "Sends closeSession and keeps its reply (the zxid of the closeSession transaction), then lets
  the client shut its threads down as ZooKeeper.close does. queuePacket marks the connection as
  closing on a closeSession, so the server's hang-up is not taken for a connection loss.
  Returns the reply map."
  [^ZooKeeper zk timeout-ms]
  (let [c (cnxn zk)
        r (if (.isAlive (.getState zk))
            (call! zk timeout-ms ZooDefs$OpCode/closeSession nil nil)
            {:code KeeperException$Code/SESSIONEXPIRED :zxid nil})]
    (.disconnect c)
    (.close zk 1000)
    r))

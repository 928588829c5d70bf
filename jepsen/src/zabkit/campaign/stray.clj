(ns zabkit.campaign.stray
  "Hostile connections for the soak's faults, opened from the controller (never from a node):
  - a slow client: a raw ZooKeeper session that pipelines getData requests for the soak's big
    znode and never reads a reply, so its replies pile up in the server (issue 23, finding 2);
  - a stray peer: connections to a server's quorum and election ports that claim to be another
    member of the ensemble and announce a 256 MiB frame (finding 1: a claimed server id must not
    displace the real member, and an announced length must not be allocated up front).
  The bytes are each system's own handshakes, written from their published formats: ZooKeeper's
  election port (QuorumCnxManager's initial message: protocol version -65536, server id, the
  address as a length-prefixed string) and quorum port (a jute QuorumPacket: type, zxid, buffer);
  zabkit's peer port (magic, codec version, server id, then [length][type] frames).
  Every socket is closed by stop!, and each open is bounded by a connect timeout."
  (:import (java.net Socket InetSocketAddress SocketTimeoutException)
           (java.io DataOutputStream ByteArrayOutputStream)))

(def connect-timeout-ms 2000)
(def announced-frame-bytes (* 256 1024 1024))

(defn- open-socket ^Socket [^String host port]
  (doto (Socket.)
    (.connect (InetSocketAddress. host (int port)) connect-timeout-ms)
    (.setSoTimeout 200)))

(defn- frame
  "A 4-byte big-endian length, then the bytes (ZooKeeper's client framing)."
  ^bytes [^bytes body]
  (let [bo (ByteArrayOutputStream.)
        o (DataOutputStream. bo)]
    (.writeInt o (alength body))
    (.write o body)
    (.toByteArray bo)))

(defn- record-bytes ^bytes [f]
  (let [bo (ByteArrayOutputStream.)
        o (DataOutputStream. bo)]
    (f o)
    (.flush o)
    (.toByteArray bo)))

(defn- jute-string [^DataOutputStream o ^String s]
  (let [b (.getBytes s "UTF-8")] (.writeInt o (alength b)) (.write o b)))

(defn connect-request
  "ConnectRequest (protocolVersion 0, lastZxidSeen 0, timeOut, sessionId 0, 16-byte password,
  readOnly false), framed."
  ^bytes [timeout-ms]
  (frame (record-bytes (fn [^DataOutputStream o]
                         (.writeInt o 0) (.writeLong o 0) (.writeInt o (int timeout-ms)) (.writeLong o 0)
                         (.writeInt o 16) (.write o (byte-array 16)) (.writeBoolean o false)))))

(defn get-data-request
  "RequestHeader (xid, type 4 = getData) + GetDataRequest (path, watch false), framed."
  ^bytes [xid ^String path]
  (frame (record-bytes (fn [^DataOutputStream o]
                         (.writeInt o (int xid)) (.writeInt o 4) (jute-string o path) (.writeBoolean o false)))))

(defn- closed-by-server?
  "True once the server has closed s (a read returns -1 or the connection was reset)."
  [^Socket s]
  (try (let [in (.getInputStream s)
             buf (byte-array 65536)]
         ;; drain what the server sent (a slow client never does this during the fault)
         (loop [i 0]
           (let [n (.read in buf)]
             (cond (neg? n) true
                   (< i 64) (recur (inc i))
                   :else false))))
       (catch SocketTimeoutException _ false)
       (catch java.io.IOException _ true)))

(defn start-slow-client!
  "Opens a session on host:client-port and writes requests getData requests of path without
  ever reading; returns the state stop-slow-client! needs. The writes happen on a thread of
  their own, because a server that stops reading makes them block (that is its defence)."
  [^String host client-port ^String path requests]
  (let [s (open-socket host client-port)
        sent (atom 0)
        out (.getOutputStream s)
        writer (doto (Thread. ^Runnable
                              (fn []
                                (try
                                  (.write out (connect-request 30000))
                                  (dotimes [i requests]
                                    (.write out (get-data-request (inc i) path))
                                    (swap! sent inc))
                                  (.flush out)
                                  (catch Exception _)))
                              "slow-client")
                 (.setDaemon true) (.start))]
    {:socket s :sent sent :writer writer :requests requests}))

(defn stop-slow-client!
  "Closes the slow client; returns what it saw: requests written, whether the server closed it."
  [{:keys [^Socket socket sent ^Thread writer requests]}]
  (let [closed? (closed-by-server? socket)]
    (.close socket)
    (.join writer 2000)
    (assert (not (.isAlive writer)) "the writer ends once its socket is closed")
    {:requests requests :requests-written @sent :closed-by-server closed?}))

(defn- zookeeper-election-hello
  "QuorumCnxManager's initial message (protocol version 1): version, claimed id, address."
  ^bytes [claimed-id ^String claimed-address]
  (record-bytes (fn [^DataOutputStream o]
                  (.writeLong o -65536) (.writeLong o claimed-id) (jute-string o claimed-address)
                  (.writeInt o (int announced-frame-bytes)))))

(defn- zookeeper-quorum-hello
  "A QuorumPacket (FOLLOWERINFO = 11) whose data buffer announces 256 MiB."
  ^bytes [claimed-id]
  (record-bytes (fn [^DataOutputStream o]
                  (.writeInt o 11) (.writeLong o (bit-shift-left (long claimed-id) 32))
                  (.writeInt o (int announced-frame-bytes)))))

(defn- zabkit-peer-hello
  "zabkit's peer handshake (PeerLink: magic 0x5a41424b, codec version 1, server id), then a SNAP
  frame (type 7) announcing 256 MiB."
  ^bytes [claimed-id]
  (record-bytes (fn [^DataOutputStream o]
                  (.writeInt o 0x5a41424b) (.writeInt o 1) (.writeLong o claimed-id)
                  (.writeInt o (int announced-frame-bytes)) (.writeByte o 7))))

(defn start-stray-peer!
  "Connects to both peer ports of host claiming to be claimed-id (another member, whose real
  address is claimed-address) and announces a 256 MiB frame on each; a trickle of 64 KiB follows,
  so a server that allocated the announced length would hold it. Ports that refuse the connection
  are recorded, not fatal."
  [system ^String host [quorum-port election-port] claimed-id ^String claimed-address]
  (let [hellos (case system
                 :zabkit {quorum-port (zabkit-peer-hello claimed-id)
                          election-port (zookeeper-election-hello claimed-id claimed-address)}
                 {quorum-port (zookeeper-quorum-hello claimed-id)
                  election-port (zookeeper-election-hello claimed-id claimed-address)})]
    {:claimed-id claimed-id
     :links (vec (for [[port hello] (sort hellos)]
                   (if-let [s (try (open-socket host port) (catch Exception e (.getMessage e)))]
                     (if (instance? Socket s)
                       (try (let [out (.getOutputStream ^Socket s)]
                              (.write out ^bytes hello)
                              (.write out (byte-array (* 64 1024)))
                              (.flush out)
                              {:port port :socket s})
                            ;; the server closed it mid-write: still a socket to close at stop
                            (catch Exception e {:port port :socket s :write-error (.getMessage e)}))
                       {:port port :error s})
                     {:port port :error "connect failed"})))}))

(defn stop-stray-peer!
  "Closes the stray connections; returns per port whether the server had closed it first."
  [{:keys [claimed-id links]}]
  {:claimed-id claimed-id
   :ports (vec (for [{:keys [port ^Socket socket error]} links]
                 (if socket
                   (let [closed? (closed-by-server? socket)]
                     (.close socket)
                     {:port port :closed-by-server closed?})
                   {:port port :refused error})))})

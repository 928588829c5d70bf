(ns zabkit.campaign.history
  "The history recorder: every op is appended, with its :index and :time (ns since test start),
  to an in-memory vector for the checkers and streamed to history.edn, one EDN map per line
  (the format agreed with the checkers: /work/wt/HISTORY-FORMAT.md, check/README.md)."
  (:require [clojure.java.io :as io]))

(defn recorder
  "A recorder writing to file. t0-nanos is the test's zero."
  [file t0-nanos]
  {:ops (atom []) :writer (io/writer (io/file file)) :t0 t0-nanos :lock (Object.)})

(defn now-ns [rec] (- (System/nanoTime) (:t0 rec)))

(defn- edn-line ^String [op]
  (binding [*print-namespace-maps* false *print-length* nil *print-level* nil]
    (pr-str op)))

(defn append!
  "Stamps op with :index and :time (unless it has one) and records it; returns the stamped op."
  [rec op]
  (locking (:lock rec)
    (let [op (-> op
                 (assoc :index (count @(:ops rec)))
                 (update :time #(or % (now-ns rec))))]
      (swap! (:ops rec) conj op)
      (doto ^java.io.Writer (:writer rec)
        (.write (edn-line op))
        (.write "\n")
        (.flush))
      op)))

(defn close! [rec] (locking (:lock rec) (.close ^java.io.Writer (:writer rec))))

(defn ops [rec] @(:ops rec))

(defn pairs
  "[invoke completion] for every client op (completion nil if the op never completed);
  watch events and nemesis ops are left out."
  [history]
  (let [open (volatile! {})
        out (volatile! [])]
    (doseq [op history :when (and (integer? (:process op)) (not= :watch-event (:f op)))]
      (case (:type op)
        :invoke (vswap! open assoc (:process op) op)
        (when-let [inv (@open (:process op))]
          (vswap! open dissoc (:process op))
          (vswap! out conj [inv op]))))
    (into @out (map (fn [[_ inv]] [inv nil]) @open))))

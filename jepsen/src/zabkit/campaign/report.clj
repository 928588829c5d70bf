(ns zabkit.campaign.report
  "What a person sees: progress lines while the campaign runs, and the store folder after it:
  results.edn, timeline.html, latency-raw.png and rate.png (fault intervals shaded), and a
  one-screen summary."
  (:require [clojure.java.io :as io]
            [clojure.pprint :as pp]
            [clojure.string :as str]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.util :as u]
            [zabkit.campaign.plot :as plot]
            [zabkit.campaign.projection :as projection]
            [zabkit.campaign.timeline :as timeline]))

(defn say [fmt & args]
  (locking say
    (println (apply format (str "[campaign] " fmt) args))
    (flush)))

(defn progress-thread
  "Every 5 s: elapsed, op counts, the active fault and each node's role."
  [test rec deadline-ms]
  (doto (Thread.
         ^Runnable
         (fn []
           (try
             (loop []
               (Thread/sleep 5000)
               (let [ops (h/ops rec)
                     comps (remove #(#{:invoke} (:type %)) (filter #(integer? (:process %)) ops))
                     fr (frequencies (map :type comps))
                     left (max 0 (quot (- deadline-ms (System/currentTimeMillis)) 1000))]
                 (say "t=%3ds (%3ds left)  ok %5d  fail %4d  info %4d  fault: %-18s nodes: %s"
                      (long (u/ns->s (h/now-ns rec))) left (fr :ok 0) (fr :fail 0) (fr :info 0)
                      (or (some-> @(:active-fault test) name) "-")
                      (str/join " " (for [[n m] (db/modes test)]
                                      (str n ":" (case m :leader "L" :follower "F" nil "-" (name m))))))
                 (when (pos? left) (recur))))
             (catch InterruptedException _))))
    (.setDaemon true)
    (.start)))

(defn- fmt-dist [d]
  (cond
    (nil? d) "-"
     (pos? (:count d 0))
    (format "n=%-3d med %5.2f  p90 %5.2f  max %5.2f%s" (:count d) (:median d) (:p90 d) (:max d)
            (if (pos? (:censored d 0)) (format "  (%d never)" (:censored d)) ""))
    :else (if (pos? (:censored d 0)) (format "none (%d never)" (:censored d)) "-")))

(defn summary
  "The one-screen summary."
  [results store]
  (let [st (:stats results)
        av (:availability results)
        wc (:workload-check results)]
    (str/join
     "\n"
     (concat
      [""
       (str "== " (:name results) " ==")
       (str "store:     " store)
       (str "build:     " (pr-str (:sut results)))
       (format "ops:       %d completed, %d ok   %s" (:count st) (:ok-count st)
               (str/join "  " (for [[f m] (:by-f st)]
                                (format "%s %d/%d/%d" (name f) (:ok m) (:fail m) (:info m)))))
       "           (per :f: ok/fail/info)"
       (str "workload:  " (if (contains? wc :valid?) (pr-str (:valid? wc)) "n/a") "  " (or (:checks wc) "")
            (when (pos? (:error-count wc 0)) (str "  errors: " (:error-count wc))))
       (str "stats:     " (pr-str (:valid? st)) (when (seq (:never-ok st)) (str "  never ok: " (:never-ok st))))
       (str "logs:      " (pr-str (:valid? (:server-logs results)))
            (when (pos? (:count (:server-logs results))) (str "  " (:count (:server-logs results)) " assertion lines")))
       (let [n (:nemesis-check results)]
         (str "nemesis:   " (pr-str (:valid? n)) "  " (:faults n) " faults"
              (when (:seed results) (str " (schedule seed " (:seed results) ")"))
              (when (pos? (:error-count n 0))
                (str ", " (:error-count n) " failed: " (pr-str (:error (first (:errors n))))))))
       (str "zk-check:  " (pr-str (:valid? (:zk-check results)))
            (let [z (:zk-check results)]
              (str (when-let [r (:reason z)] (str "  (" r ")"))
                   (when (:available? z)
                     (str "  exit " (:exit z) ", " (:ops z) " ops"
                          (when (seq (:failures z)) (str ", violated " (pr-str (:failures z))))
                          (when (seq (:excluded z)) (str ", not given to it " (pr-str (:excluded z))))
                          "  (" (:results z) ")")))))
       (let [ps (get-in results [:zk-check :properties])]
         (if (seq ps)
           (str "           checked per property (ops, violations): "
                (str/join ", " (for [[k v] ps] (format "%s %d/%d%s" (name k) (:count v 0) (:violations v 0)
                                                       (if (true? (:valid? v)) "" (str " " (pr-str (:valid? v))))))))
           ""))
       (if-let [rs (:resources results)]
         (str "memory:    resident MiB per server, first/peak/last: "
              (str/join ", " (for [[n r] rs] (format "%s %d/%d/%d" n (:first-rss-mb r) (:peak-rss-mb r) (:last-rss-mb r)))))
         "")
       "availability, seconds from fault start until each client's next ok (reads / writes):"]
      (for [[f g] (:by-fault av)]
        (str (format "  %-18s x%-2d read  %s" (name f) (:faults g) (fmt-dist (:read-after-start g)))
             "\n" (format "  %-22s write %s" "" (fmt-dist (:write-after-start g)))
             (when-let [wd (:watch-unavailable g)]
               (str "\n" (format "  %-22s watch %s" "" (fmt-dist wd))))))
      [(str "VERDICT:   " (case (:valid? results) true "VALID" false "INVALID" "UNKNOWN"))
       ""]))))

(defn- write-edn-vector!
  "One EDN vector, one op per line (Jepsen's history.edn layout: read whole or line by line)."
  [file ops]
  (binding [*print-namespace-maps* false *print-length* nil *print-level* nil]
    (with-open [w (io/writer file)]
      (.write w "[")
      (doseq [[i op] (map-indexed vector ops)]
        (when (pos? i) (.write w "\n "))
        (.write w (pr-str op)))
      (.write w "]\n"))))

(defn write-store!
  "results.edn, timeline.html and the plots, next to history.edn."
  [test history results]
  (let [store (io/file (:store test))
        safe-results results]
    (with-open [w (io/writer (io/file store "results.edn"))]
      (binding [*out* w *print-namespace-maps* false] (pp/pprint safe-results)))
    (try (when-let [ops (projection/project (:workload-name test) history (h/pairs history))]
           (write-edn-vector! (io/file store "jepsen-history.edn") ops))
         (catch Exception e (say "jepsen-history.edn failed: %s" e)))
    (try (timeline/write! (io/file store "timeline.html") test history)
         (catch Exception e (say "timeline.html failed: %s" e)))
    (try (plot/write-plots! store test history)
         (catch Exception e (say "plots failed: %s" e)))
    (let [s (summary results (.getPath store))]
      (spit (io/file store "summary.txt") s)
      (println s)
      (flush))))

(ns zabkit.campaign.util
  "Small helpers shared by every namespace: shelling out with a deadline, bounded waits, time."
  (:require [clojure.string :as str]
            [clojure.java.io :as io])
  (:import (java.util.concurrent TimeUnit)))

(defn- drain
  "Reads a stream to a string on a thread of its own; deref the result."
  [^java.io.InputStream in]
  (let [result (promise)]
    (doto (Thread. ^Runnable (fn [] (deliver result (try (slurp in) (catch Exception _ "")))))
      (.setDaemon true)
      (.start))
    result))

(defn sh!
  "Runs argv (strings), waits at most timeout-ms, returns {:exit :out :err}. Throws with the command
  and its stderr on a non-zero exit unless :check? false."
  [argv & {:keys [timeout-ms check? in] :or {timeout-ms 20000 check? true}}]
  (let [pb (ProcessBuilder. ^java.util.List (mapv str argv))
        p (.start pb)]
    (when in (with-open [w (io/writer (.getOutputStream p))] (.write w ^String in)))
    (.close (.getOutputStream p))
    ;; plain threads, not futures: cleanup runs this from shutdown hooks, after shutdown-agents
    (let [out (drain (.getInputStream p))
          err (drain (.getErrorStream p))]
      (when-not (.waitFor p timeout-ms TimeUnit/MILLISECONDS)
        (.destroyForcibly p)
        (throw (ex-info (str "command timed out after " timeout-ms " ms: " (str/join " " argv))
                        {:argv argv})))
      (let [r {:exit (.exitValue p) :out @out :err @err}]
        (when (and check? (not (zero? (:exit r))))
          (throw (ex-info (str "command failed (exit " (:exit r) "): " (str/join " " argv)
                               "\n" (str/trim (:err r)))
                          (assoc r :argv argv))))
        r))))

(defn await-cond
  "Polls (f) every poll-ms until it returns truthy or timeout-ms passes; returns the last value."
  [timeout-ms poll-ms f]
  (let [deadline (+ (System/currentTimeMillis) timeout-ms)]
    (loop []
      (let [v (try (f) (catch Exception _ nil))]
        (cond v v
              (> (System/currentTimeMillis) deadline) nil
              :else (do (Thread/sleep (long poll-ms)) (recur)))))))

(defn read-proc-lines
  "The lines of a /proc file. slurp cannot read /proc (BufferedInputStream asks available(), which
  /proc files answer with EINVAL); NIO reads them."
  [path]
  (vec (java.nio.file.Files/readAllLines (.toPath (io/file path)))))

(defn pid-alive? [pid] (.exists (io/file (str "/proc/" pid))))

(defn pid-cmdline
  "The command line of a live process, NULs as spaces, or nil."
  [pid]
  (try (str/replace (slurp (str "/proc/" pid "/cmdline")) "\u0000" " ")
       (catch Exception _ nil)))

(defn shell-quote
  "s as one word for sh, whatever it contains."
  [s]
  (str "'" (str/replace (str s) "'" "'\\''") "'"))

(defn ms->s [ms] (/ (double ms) 1000.0))
(defn ns->s [ns] (/ (double ns) 1e9))

(defn percentile
  "q-th percentile (0..1) of a sorted vector, nearest rank."
  [sorted q]
  (when (seq sorted)
    (nth sorted (min (dec (count sorted)) (int (Math/floor (* q (count sorted))))))))

(defn distribution
  "Summary of a collection of numbers: count, min, median, p90, p99, max."
  [xs]
  (let [s (vec (sort xs))]
    (if (empty? s)
      {:count 0}
      {:count (count s) :min (first s) :median (percentile s 0.5) :p90 (percentile s 0.9)
       :p99 (percentile s 0.99) :max (peek s)})))

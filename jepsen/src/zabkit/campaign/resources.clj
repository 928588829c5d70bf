(ns zabkit.campaign.resources
  "What the servers hold over time, for long runs (make soak): every node's resident memory
  sampled every few seconds from /proc (netns backend: the servers are this machine's processes),
  and, from the history, client latency per window. Written as resources.edn and plotted
  (memory.png/.svg, latency-windows.png/.svg) with the faults shaded, so a leak or a slow drift
  shows as a line that does not come back down."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.plot :as plot]
            [zabkit.campaign.util :as u])
  (:import (org.jfree.chart.axis NumberAxis LogarithmicAxis)
           (org.jfree.data.xy XYSeries XYSeriesCollection)))

(def sample-interval-ms 5000)
(def latency-window-s 30)

(defn rss-mb
  "Resident memory of a local pid in MiB (VmRSS), or nil if it is gone."
  [pid]
  (try (some->> (u/read-proc-lines (str "/proc/" pid "/status"))
                (some #(re-find #"^VmRSS:\s+(\d+) kB" %)) second parse-long (* (/ 1.0 1024)))
       (catch Exception _ nil)))

(defn sampler
  "Starts a daemon thread sampling every running server's RSS until (stop!) is called; returns
  {:samples atom :stop! fn}. Samples: {:time-s :node :rss-mb}."
  [test now-ns]
  (let [samples (atom [])
        running (atom (= :netns (:backend test)))
        t (doto (Thread. ^Runnable
                         (fn []
                           (while @running
                             (doseq [[node pid] @(:pids test)
                                     :let [mb (rss-mb pid)]
                                     :when mb]
                               (swap! samples conj {:time-s (u/ns->s (now-ns)) :node node :rss-mb mb}))
                             (try (Thread/sleep sample-interval-ms) (catch InterruptedException _ (reset! running false)))))
                         "resources")
            (.setDaemon true) (.start))]
    {:samples samples
     :stop! (fn [] (reset! running false) (.interrupt t) (.join t 2000) @samples)}))

(defn summary
  "Per node: first, last and peak RSS; nil without samples."
  [samples]
  (when (seq samples)
    (into (sorted-map)
          (for [[node ss] (group-by :node samples)
                :let [ss (sort-by :time-s ss)]]
            [node {:samples (count ss)
                   :first-rss-mb (Math/round (double (:rss-mb (first ss))))
                   :last-rss-mb (Math/round (double (:rss-mb (last ss))))
                   :peak-rss-mb (Math/round (double (apply max (map :rss-mb ss))))}]))))

(defn latency-windows
  "Completed ok client ops bucketed by completion time: [{:t-s :n :p50-ms :p99-ms :max-ms}]."
  [history]
  (let [lat (for [[inv comp] (h/pairs history)
                  :when (and comp (= :ok (:type comp)) (not= :connect (:f inv)))]
              [(long (quot (u/ns->s (:time comp)) latency-window-s))
               (/ (- (:time comp) (:time inv)) 1e6)])]
    (vec (for [[w xs] (sort-by key (group-by first lat))
               :let [ms (vec (sort (map second xs)))]]
           {:t-s (* w latency-window-s) :n (count ms)
            :p50-ms (u/percentile ms 0.5) :p99-ms (u/percentile ms 0.99) :max-ms (peek ms)}))))

(defn write!
  "resources.edn and the two plots into store."
  [store test history samples]
  (let [end-s (u/ns->s (or (:time (peek history)) 0))
        intervals (plot/fault-intervals history end-s)
        windows (latency-windows history)]
    (spit (io/file store "resources.edn")
          (with-out-str (binding [*print-length* nil]
                          (prn {:sample-interval-ms sample-interval-ms :rss samples
                                :latency-window-s latency-window-s :latency windows}))))
    (when (seq samples)
      (let [data (XYSeriesCollection.)]
        (doseq [[node ss] (sort-by key (group-by :node samples))
                :let [s (XYSeries. ^Comparable (str node " RSS") true false)]]
          (doseq [{:keys [time-s rss-mb]} ss] (.add s (double time-s) (double rss-mb)))
          (.addSeries data s))
        (let [c (plot/chart (str (:name test) ": server memory") data (NumberAxis. "resident memory (MiB)") true)]
          (plot/shade! (.getXYPlot c) intervals)
          (plot/save-chart! c store "memory" 1000 450))))
    (when (seq windows)
      (let [data (XYSeriesCollection.)]
        (doseq [[k label] [[:p50-ms "p50"] [:p99-ms "p99"] [:max-ms "max"]]
                :let [s (XYSeries. ^Comparable (str label " per " latency-window-s " s") true false)]]
          (doseq [w windows] (.add s (double (:t-s w)) (max 0.1 (double (k w)))))
          (.addSeries data s))
        (let [y (doto (LogarithmicAxis. "latency of ok ops (ms)") (.setAllowNegativesFlag false))
              c (plot/chart (str (:name test) ": latency over time") data y true)]
          (plot/shade! (.getXYPlot c) intervals)
          (plot/save-chart! c store "latency-windows" 1000 450))))))

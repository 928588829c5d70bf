(ns zabkit.campaign.availability
  "Availability at Jepsen's scale (issue 20, item 6): one campaign per fault family, each with
  many faults, on both systems with one fault schedule (--seed), read back from the runs'
  results.edn and drawn as one CDF per family with both systems on the figure.

  A sample is one client's wait after one fault: seconds from the fault's start until that
  client's next successful read (or write), as checker/availability measures it. A client that
  never succeeded again before the history ended is censored: it stays in the CDF's
  denominator, so a curve that tops out below 1 says how many never came back."
  (:require [clojure.edn :as edn]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.plot :as plot]
            [zabkit.campaign.util :as u])
  (:import (org.jfree.chart JFreeChart LegendItem)
           (org.jfree.chart.axis LogarithmicAxis NumberAxis)
           (org.jfree.chart.plot XYPlot)
           (org.jfree.chart.renderer.xy XYLineAndShapeRenderer)
           (org.jfree.data.xy XYSeries XYSeriesCollection)
           (java.awt BasicStroke Color)))

(def op-kinds
  "The two waits checker/availability measures from a fault's start."
  {:read :read-after-start :write :write-after-start})

(defn fault-family
  "The family of a fault keyword (:kill-leader -> :kill, :slow-client-leader -> :slow-client)."
  [fault]
  (let [n (name fault)
        fam (->> (keys nemesis/targets) (map name)
                 (filter #(or (= n %) (str/starts-with? n (str % "-"))))
                 (sort-by count) last)]
    (assert fam (str "no fault family for " fault))
    (keyword fam)))

(defn samples
  "{[family op] {:delays [s ...] :censored n :faults n}} over the faults of one run's results."
  [results]
  (let [faults (get-in results [:availability :faults])]
    (reduce (fn [acc f]
              (let [fam (fault-family (:fault f))]
                (reduce-kv (fn [acc op k]
                             (let [d (get f k)]
                               (-> acc
                                   (update-in [[fam op] :delays] (fnil into []) (:delays d))
                                   (update-in [[fam op] :censored] (fnil + 0) (:censored d 0))
                                   (update-in [[fam op] :faults] (fnil inc 0)))))
                           acc op-kinds)))
            {} faults)))

(defn cdf-points
  "[[s fraction] ...]: the empirical CDF of delays, with censored samples in the denominator
  (they never arrive, so the curve ends at (n - censored) / n)."
  [delays censored]
  (let [xs (vec (sort delays))
        n (+ (count xs) censored)]
    (assert (every? #(>= % 0) xs) "a delay before its fault's start")
    (vec (map-indexed (fn [i x] [x (/ (double (inc i)) n)]) xs))))

;; ---- reading the runs

(defn read-run
  "{:system :nemesis :store :results} of a run's store folder (the test's `latest`)."
  [^java.io.File dir]
  (let [f (io/file dir "results.edn")]
    (when-not (.exists f)
      (throw (ex-info (str "no results.edn in " dir ": did its campaign finish? (run it again, or leave it out)")
                      {:type :usage})))
    (let [r (edn/read-string (slurp f))]
      {:system (name (:system r)) :nemesis (:nemesis r) :store (.getCanonicalPath dir)
       :results r})))

;; ---- the report

(def ^:private shapes
  "One marker shape per series, so the curves read in grey print too."
  [(java.awt.geom.Ellipse2D$Double. -3 -3 6 6) (java.awt.Rectangle. -3 -3 6 6)
   (java.awt.Polygon. (int-array [-4 0 4]) (int-array [3 -4 3]) 3)
   (java.awt.Polygon. (int-array [0 4 0 -4]) (int-array [-4 0 4 0]) 4)])

(defn- cdf-chart ^JFreeChart [family runs]
  (let [data (XYSeriesCollection.)
        series-styles (atom [])]
    (doseq [[si run] (map-indexed vector (sort-by :system runs))
            [oi op] (map-indexed vector [:read :write])
            :let [{:keys [delays censored]} (get (samples (:results run)) [family op])]
            :when (seq delays)]
      (let [s (XYSeries. ^Comparable (format "%s %s (%d waits, %d never)" (:system run) (name op)
                                             (count delays) (or censored 0))
                         false true)]
        ;; the log axis cannot show 0: a client that was never disturbed waited under 1 ms
        (reduce (fn [prev-y [x y]]
                  (let [x (max 0.001 (double x))]
                    (.add s x (double prev-y))
                    (.add s x (double y))
                    y))
                0.0 (cdf-points delays (or censored 0)))
        (.addSeries data s)
        (swap! series-styles conj [si oi])))
    (let [x (doto (LogarithmicAxis. "seconds from the fault's start to the client's next ok") (.setAllowNegativesFlag false))
          y (doto (NumberAxis. "fraction of waits") (.setRange 0.0 1.0))
          ;; a step curve: each wait is a riser (hidden point) and a marked point on top of it
          r (proxy [XYLineAndShapeRenderer] [true true]
              (getItemShapeVisible [_ item] (odd? item))
              ;; the legend shows the series' marker and line, like the curve's marked points
              (getLegendItem [_ series]
                (let [^XYLineAndShapeRenderer this this
                      label (str (.getSeriesKey data (int series)))
                      paint (.lookupSeriesPaint this (int series))
                      stroke (.lookupSeriesStroke this (int series))]
                  (LegendItem. label label nil nil true (.lookupLegendShape this (int series)) true paint
                               false paint stroke true (java.awt.geom.Line2D$Double. -7.0 0.0 7.0 0.0)
                               stroke paint))))
          p (XYPlot. data x y r)]
      (doseq [[i [si oi]] (map-indexed vector @series-styles)]
        (.setSeriesPaint r i (nth plot/palette si))
        (.setSeriesShape r i (nth shapes (+ (* 2 (mod si 2)) oi)))
        (.setSeriesStroke r i (if (zero? oi)
                                (BasicStroke. 1.5)
                                (BasicStroke. 1.5 BasicStroke/CAP_BUTT BasicStroke/JOIN_MITER 10.0
                                              (float-array [6.0 4.0]) 0.0))))
      (.setBackgroundPaint p Color/WHITE)
      (.setDomainGridlinePaint p Color/LIGHT_GRAY)
      (.setRangeGridlinePaint p Color/LIGHT_GRAY)
      (JFreeChart. (str (name family) ": each client's wait after each fault, CDF")
                   JFreeChart/DEFAULT_TITLE_FONT p true))))

(defn- cell [{:keys [delays censored]}]
  (let [d (u/distribution delays)]
    (if (pos? (:count d))
      (format "%.3f | %.3f | %.3f | %.3f" (double (:min d)) (double (:median d)) (double (:p90 d)) (double (:max d)))
      "- | - | - | -")))

(defn- verdict [results]
  (let [v (:valid? results)] (cond (= true v) "valid" (= false v) "INVALID" :else (str v))))

(def min-faults
  "Faults per run the report is meant for (issue 20: at least 10 of each kind per run)."
  10)

(defn short-runs
  "A sentence for each run with fewer than min-faults faults: its figures rest on too few."
  [runs]
  (for [run runs
        :let [n (count (get-in run [:results :availability :faults]))]
        :when (< n min-faults)]
    (format "%s under %s had %d faults, fewer than %d" (:system run) (:nemesis run) n min-faults)))

(defn- relative
  "A store path as the repository names it (jepsen/store/...): the report is committed."
  [path]
  (let [root (str (.getCanonicalPath (io/file (db/repo-root))) "/")]
    (if (str/starts-with? path root) (subs path (count root)) path)))

(defn write-report!
  "summary.md, summary.tsv and cdf-<family>.png/.svg into out-dir from the runs. Returns out-dir."
  [runs ^java.io.File out-dir]
  (assert (seq runs) "no runs to report")
  (.mkdirs out-dir)
  (let [families (sort (distinct (for [run runs [[fam _] _] (samples (:results run))] fam)))
        rows (for [fam families, run (sort-by :system runs), op [:read :write]
                   :let [s (get (samples (:results run)) [fam op])]
                   :when s]
               {:family fam :run run :op op :s s})
        load-avg (first (str/split (first (u/read-proc-lines "/proc/loadavg")) #" "))]
    (spit (io/file out-dir "summary.tsv")
          (str "family\tsystem\top\tfaults\twaits\tnever\tmin_s\tmedian_s\tp90_s\tmax_s\tverdict\tseed\tstore\n"
               (str/join (for [{:keys [family run op s]} rows
                               :let [d (u/distribution (:delays s)) r (:results run)]]
                           (str (str/join "\t" [(name family) (:system run) (name op) (:faults s)
                                                (count (:delays s)) (:censored s)
                                                (:min d "") (:median d "") (:p90 d "") (:max d "")
                                                (verdict r) (:seed r) (relative (:store run))])
                                "\n")))))
    (doseq [fam families]
      (plot/save-chart! (cdf-chart fam (filter #(seq (get (samples (:results %)) [fam :read])) runs))
                        out-dir (str "cdf-" (name fam)) 900 500))
    (spit (io/file out-dir "summary.md")
          (str "# Availability per fault family, both systems (written by `lein run availability-report`)\n\n"
               "Seconds from each fault's start until each client's next successful read or write; "
               "'never' counts clients with no success before the history ended. Load average when "
               "written: " load-avg ".\n\n"
               (str/join (for [w (short-runs runs)] (str "**" w ".**\n\n")))
               "| family | system | op | faults | waits | never | min s | median s | p90 s | max s | verdict | seed |\n"
               "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n"
               (str/join (for [{:keys [family run op s]} rows]
                           (format "| %s | %s | %s | %d | %d | %d | %s | %s | %s |\n" (name family) (:system run)
                                   (name op) (:faults s) (count (:delays s)) (:censored s) (cell s)
                                   (verdict (:results run)) (get-in run [:results :seed]))))
               "\nPer fault target (the schedule draws a target per fault; the same seed gives both "
               "systems the same targets in the same order):\n\n"
               "| system | fault | count | read median s | write median s |\n|---|---|---:|---:|---:|\n"
               (str/join (for [run (sort-by :system runs)
                               [fault fs] (sort-by key (group-by :fault (get-in run [:results :availability :faults])))
                               :let [med (fn [k] (let [d (u/distribution (mapcat #(get-in % [k :delays]) fs))]
                                                   (if (pos? (:count d)) (format "%.3f" (double (:median d))) "-")))]]
                           (format "| %s | %s | %d | %s | %s |\n" (:system run) (name fault) (count fs)
                                   (med :read-after-start) (med :write-after-start))))
               "\nFigures: " (str/join ", " (for [f families] (str "[cdf-" (name f) "](cdf-" (name f) ".png)")))
               " (SVG beside each). Runs:\n\n"
               (str/join (for [run (sort-by (juxt :nemesis :system) runs)]
                           (format "- %s, %s: %s\n" (:system run) (:nemesis run) (relative (:store run)))))))
    (doseq [w (short-runs runs)] (println "[campaign] warning:" w))
    (println (format "[campaign] availability report: %d runs, %d families -> %s" (count runs) (count families) out-dir))
    out-dir))

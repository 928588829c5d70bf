(ns zabkit.campaign.curate
  "results/campaigns/: the curated table (system x workload x nemesis: verdict, operations,
  failures found, availability) built from the latest run of each test in the store, with its
  plots copied next to it and the command that reproduces each row."
  (:require [clojure.edn :as edn]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.sut :as sut])
  (:import (org.jfree.chart ChartFactory ChartUtils)
           (org.jfree.chart.plot PlotOrientation)
           (org.jfree.chart.renderer.category BarRenderer StandardBarPainter)
           (org.jfree.data.category DefaultCategoryDataset)
           (java.awt Color)))

(defn- latest-runs [store-root]
  (for [d (sort (.listFiles (io/file store-root)))
        :let [latest (io/file d "latest")
              results (io/file latest "results.edn")
              opts (io/file latest "opts.edn")]
        :when (and (.isDirectory d) (.exists results) (.exists opts))]
    {:dir (.getCanonicalFile latest)
     :results (edn/read-string (slurp results))
     :opts (edn/read-string (slurp opts))}))

(defn- fmt-avail [d]
  (cond (pos? (:count d 0)) (str (format "%.2f / %.2f" (double (:median d)) (double (:max d)))
                                 (if (pos? (:censored d 0)) (format " (+%d never)" (:censored d)) ""))
        (pos? (:censored d 0)) (format "never (%d)" (:censored d))
        :else "-"))

(defn- reproduce [o]
  (str (format "lein run test --system %s --workload %s --nemesis %s --nodes %d --time-limit %d --nemesis-interval %d --rate %s --concurrency %d"
               (name (:system o)) (name (:workload o)) (:nemesis o) (:nodes o) (:time-limit o)
               (:nemesis-interval o 5)
               (let [r (:rate o)] (if (== r (Math/rint r)) (str (long r)) (str r))) (:concurrency o))
       (when-not (= :netns (:backend o :netns)) (str " --backend " (name (:backend o))))
       ;; the ZooKeeper build under test, when not the pinned one (zabkit.campaign.sut)
       (apply str (for [k [:zookeeper-version :server-jars :server-command] :when (get o k)]
                    (str " --" (name k) " " (pr-str (get o k)))))))

(defn- verdict
  "valid / INVALID / unknown, with the checkers that were not valid, so a red or unknown row says why."
  [r]
  (let [parts {"workload" (get-in r [:workload-check :valid?]) "stats" (get-in r [:stats :valid?])
               "server-logs" (get-in r [:server-logs :valid?]) "zk-check" (get-in r [:zk-check :valid?])}
        blame (fn [v] (sort (for [[k x] parts :when (= x v)] k)))]
    (case (:valid? r)
      true "valid"
      false (str "INVALID (" (str/join ", " (blame false)) ")")
      (str "unknown (" (str/join ", " (blame :unknown)) ")"))))

(defn- run-stamp
  "The run's store timestamp (yyyyMMddTHHmmss) from its folder name."
  [^java.io.File dir]
  (subs (.getName dir) 0 (min 15 (count (.getName dir)))))

(defn- row [{:keys [dir results opts]}]
  (let [r results
        wc (:workload-check r)
        av (get-in r [:availability :all])]
    ;; another ZooKeeper build is a row of its own (zookeeper-3.8.4), never mixed with 3.9.4's
    {:system (sut/label (merge opts (select-keys r [:system]))) :workload (name (:workload r)) :nemesis (:nemesis r) :nodes (:nodes r)
     :verdict (verdict r)
     :ops (get-in r [:stats :count])
     :ok (get-in r [:stats :ok-count])
     :failures (+ (:error-count wc 0) (get-in r [:server-logs :count] 0)
                  (count (get-in r [:zk-check :failures])))
     :faults (:faults av 0)
     :read (fmt-avail (:read-after-start av))
     :write (fmt-avail (:write-after-start av))
     :watch (some-> (:watch-unavailable av) fmt-avail)
     :zk-check (pr-str (get-in r [:zk-check :valid?]))
     :name (:name r)
     :cmd (reproduce opts)
     :run (run-stamp dir)}))

(def systems ["zookeeper" "zabkit"])

(defn- row-key [r] [(:system r) (:workload r) (:nemesis r) (:nodes r)])

(defn- not-run-rows
  "For every (workload, nemesis, nodes) that one system ran and another did not, a row saying so,
  so that the table stays system x workload x nemesis."
  [rows]
  (let [have (set (map row-key rows))]
    (for [[wl nem nodes] (distinct (map (juxt :workload :nemesis :nodes) rows))
          sys systems
          :when (not (have [sys wl nem nodes]))]
      {:system sys :workload wl :nemesis nem :nodes nodes :verdict "not run"})))

(defn- read-rows [^java.io.File f]
  (if (.exists f) (edn/read-string (slurp f)) []))

(defn merge-rows
  "The curated rows (rows.edn) updated with the store's runs: per system x workload x nemesis x
  nodes, the newer run wins (so an old store folder never replaces a newer curated row)."
  [curated fresh]
  (vals (reduce (fn [m r] (update m (row-key r)
                                 #(cond (nil? %) r
                                        (pos? (compare (:run %) (:run r))) %
                                        ;; the same run again: a note added to its row stays
                                        (= (:run %) (:run r)) (merge r (select-keys % [:note]))
                                        :else r)))
                (into {} (map (juxt row-key identity) curated))
                fresh)))

(defn- fmt-run [s]
  (if-let [[_ y mo d h mi] (re-find #"^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)" (str s))]
    (str y "-" mo "-" d " " h ":" mi)
    "?"))

(defn- write-rows! [^java.io.File f rows]
  (spit f (str ";; Curated campaign rows: `lein run curate` merges them with jepsen/store's latest runs (the newer\n"
               ";; run of a system x workload x nemesis x nodes wins) and writes TABLE.md from them. :run is the\n"
               ";; run's store timestamp (for rows carried over from an earlier table, the time of that commit).\n[\n"
               (str/join (for [r rows] (str (pr-str r) "\n")))
               "]\n")))

(defn- table-md [rows]
  (let [notes (vec (distinct (keep :note rows)))
        mark (fn [r] (if-let [n (:note r)] (str " [" (inc (.indexOf notes n)) "]") ""))]
  (str "# Campaign results (generated by `make campaign-curate` from rows.edn and jepsen/store; do not edit)\n\n"
       "Availability: seconds from a fault's start until a client's next successful read / write, "
       "median / max over every fault and client of the run; `never (n)`: n client-fault pairs with no such success before the run ended; `-`: no such op in the workload. "
       "Failures: violations the workload's checker found, plus properties zk-check found violated, plus assertion lines in server logs. "
       "zk-check: the project's history checker (`:unknown` = not available when the row ran). "
       "Verdict: a red or unknown verdict names the checkers that were not valid. Run: UTC start of the run.\n\n"
       "| system | workload | nemesis | nodes | verdict | ops (ok) | failures | faults | read med/max s | write med/max s | watch med/max s | zk-check | run | plots |\n"
       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
       (str/join
        (for [r rows]
          (if-not (:ops r)
            (format "| %s | %s | %s | %d | %s | | | | | | | | | |\n"
                    (:system r) (:workload r) (:nemesis r) (:nodes r) (:verdict r))
            (format "| %s | %s | %s | %d | %s | %d (%d) | %d | %d | %s | %s | %s | %s | %s%s | [latency](plots/%s-latency-raw.png) [rate](plots/%s-rate.png) |\n"
                    (:system r) (:workload r) (:nemesis r) (:nodes r) (:verdict r) (:ops r) (:ok r)
                    (:failures r) (:faults r) (:read r) (:write r) (or (:watch r) "-") (:zk-check r)
                    (fmt-run (:run r)) (mark r)
                    (:name r) (:name r)))))
       (when (seq notes)
         (str "\nNotes (the run column's [n]):\n\n"
              (str/join (map-indexed (fn [i n] (str (inc i) ". " n "\n")) notes))))
       "\nThe medians side by side: [reads](plots/availability-read.png), [writes](plots/availability-write.png) "
       "(rows that both systems ran, 3 nodes).\n"
       "\n## Reproduce a row\n\nFrom `jepsen/` (as root):\n\n"
       (str/join (for [r rows :when (:ops r)] (format "- %s: `%s`\n" (:name r) (:cmd r)))))))

(defn- median-s
  "The median of an availability cell (\"1.53 / 9.54 (+2 never)\"), or nil (\"-\", \"never (n)\")."
  [cell]
  (some->> (str cell) (re-find #"^([0-9.]+) /") second parse-double))

(defn- availability-chart!
  "A grouped bar chart, one group per workload x nemesis (3 nodes) that both systems ran, one bar
  per system: the median seconds from a fault's start to a client's next successful op of kind k."
  [rows k ^java.io.File file]
  (let [by-key (group-by (juxt :workload :nemesis :nodes) (filter :ops rows))
        ds (DefaultCategoryDataset.)]
    (doseq [[[wl nem nodes] rs] (sort by-key)
            :when (and (= 3 nodes) (= (set systems) (set (map :system rs))))
            r (sort-by :system rs)
            :let [v (median-s (k r))]
            :when v]
      (.addValue ds (double v) ^Comparable (:system r) ^Comparable (str wl " " nem)))
    (when (pos? (.getColumnCount ds))
      (let [chart (ChartFactory/createBarChart
                   (str "median s from fault start to a client's next ok " (name k) " (3 nodes)")
                   "workload, nemesis" "seconds" ds PlotOrientation/HORIZONTAL true false false)
            plot (.getCategoryPlot chart)
            ^BarRenderer bars (.getRenderer plot)]
        (.setBackgroundPaint plot Color/WHITE)
        (.setRangeGridlinePaint plot Color/GRAY)
        (.setBarPainter bars (StandardBarPainter.))
        (.setShadowVisible bars false)
        (.setSeriesPaint bars 0 (Color. 200 60 60))
        (.setSeriesPaint bars 1 (Color. 60 90 200))
        (ChartUtils/saveChartAsPNG file chart 900 (+ 120 (* 28 (.getColumnCount ds))))
        file))))

(defn curate!
  "Merges the store's latest runs into results/campaigns/rows.edn, copies their plots, writes
  TABLE.md; returns the number of rows."
  [store-root out-dir]
  (let [runs (latest-runs store-root)
        rows-file (io/file out-dir "rows.edn")
        ran (sort-by (juxt :workload :nemesis :nodes :system)
                     (merge-rows (read-rows rows-file) (map row runs)))
        rows (sort-by (juxt :workload :nemesis :nodes :system) (concat ran (not-run-rows ran)))
        plots (io/file out-dir "plots")]
    (.mkdirs plots)
    (doseq [{:keys [dir results]} runs, f ["latency-raw.png" "latency-raw.svg" "rate.png" "rate.svg"]
            :let [src (io/file dir f)]
            :when (and (.exists src) (= (run-stamp dir) (:run (some #(when (= (:name %) (:name results)) %) ran))))]
      (io/copy src (io/file plots (str (:name results) "-" f))))
    (write-rows! rows-file ran)
    (availability-chart! ran :read (io/file plots "availability-read.png"))
    (availability-chart! ran :write (io/file plots "availability-write.png"))
    (spit (io/file out-dir "TABLE.md") (table-md rows))
    (println (format "[campaign] curate: %d rows (%d run, %d from this store) -> %s"
                     (count rows) (count ran) (count runs) (io/file out-dir "TABLE.md")))
    (count rows)))

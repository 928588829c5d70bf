(ns zabkit.campaign.plot
  "Plots with JFreeChart, PNG and SVG, Jepsen's perf plots in spirit: latency of every op over
  time (latency-raw, log scale, colour by :f and marker by outcome: ok a dot, fail a cross, info a
  triangle, as Jepsen's) and throughput per second (rate), both with every fault interval shaded
  and labelled."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.util :as u])
  (:import (org.jfree.chart JFreeChart ChartUtils)
           (org.jfree.chart.plot XYPlot IntervalMarker)
           (org.jfree.chart.axis NumberAxis LogarithmicAxis)
           (org.jfree.chart.renderer.xy XYLineAndShapeRenderer)
           (org.jfree.data.xy XYSeries XYSeriesCollection)
           (org.jfree.chart.ui RectangleAnchor TextAnchor)
           (org.jfree.svg SVGGraphics2D)
           (org.jfree.chart.util ShapeUtils)
           (java.awt Color BasicStroke Font Rectangle Shape)
           (java.awt.geom Ellipse2D$Double)))

(defn save-chart!
  "chart as base.png and base.svg in dir."
  [^JFreeChart chart dir base width height]
  (assert (and (pos? width) (pos? height)))
  (ChartUtils/saveChartAsPNG (io/file dir (str base ".png")) chart (int width) (int height))
  (let [g (SVGGraphics2D. (int width) (int height))]
    (.draw chart g (Rectangle. 0 0 (int width) (int height)))
    (spit (io/file dir (str base ".svg")) (.getSVGDocument g))))

(def outcome-shapes
  "Jepsen's markers: the outcome reads from the shape, not only from the colour."
  {:ok (Ellipse2D$Double. -1.5 -1.5 3 3)
   :fail (ShapeUtils/createDiagonalCross 3.0 0.7)
   :info (ShapeUtils/createUpTriangle 3.0)})

(def fault-colors
  {:kill (Color. 255 120 120 70) :pause (Color. 255 200 80 70) :partition (Color. 120 160 255 70)
   :loss (Color. 160 220 120 70) :clock (Color. 200 120 255 70)
   :disk (Color. 140 140 140 70) :slow-client (Color. 120 220 220 70) :stray-peer (Color. 240 130 200 70)})

(defn fault-intervals
  "[[family fault-keyword start-s stop-s]] from the nemesis ops."
  [history end-s]
  (let [starts (into {} (for [[fam [s _]] nemesis/fault-names] [s fam]))
        nem (filter #(= :nemesis (:process %)) history)]
    (for [[_ ops] (group-by (comp :fault-id :value) nem)
          :let [s (first (filter #(starts (:f %)) ops))
                e (first (remove #(starts (:f %)) ops))]
          :when s]
      [(starts (:f s)) (get-in s [:value :fault]) (u/ns->s (:time s)) (if e (u/ns->s (:time e)) end-s)])))

(defn shade! [^XYPlot plot intervals]
  (doseq [[fam fault a b] intervals]
    (let [m (IntervalMarker. a b (fault-colors fam (Color. 200 200 200 70)))]
      (.setLabel m (name fault))
      (.setLabelFont m (Font. "SansSerif" Font/PLAIN 9))
      (.setLabelAnchor m RectangleAnchor/TOP_LEFT)
      (.setLabelTextAnchor m TextAnchor/TOP_LEFT)
      (.addDomainMarker plot m))))

(def palette
  "Distinct colours that stay readable on white (matplotlib's tab10)."
  (mapv #(Color. (int %)) [0x1f77b4 0xd62728 0x2ca02c 0xff7f0e 0x9467bd 0x8c564b 0xe377c2 0x7f7f7f 0xbcbd22 0x17becf]))

(defn chart ^JFreeChart [title ^XYSeriesCollection data y-axis lines?]
  (let [x (NumberAxis. "time (s)")
        r (XYLineAndShapeRenderer. (boolean lines?) (not lines?))
        plot (XYPlot. data x y-axis r)]
    (dotimes [i (.getSeriesCount data)]
      (.setSeriesShape r i (Ellipse2D$Double. -1.5 -1.5 3 3))
      (.setSeriesStroke r i (BasicStroke. 1.2))
      (.setSeriesPaint r i (nth palette (mod i (count palette)))))
    (.setBackgroundPaint plot Color/WHITE)
    (.setDomainGridlinePaint plot Color/LIGHT_GRAY)
    (.setRangeGridlinePaint plot Color/LIGHT_GRAY)
    (JFreeChart. ^String title JFreeChart/DEFAULT_TITLE_FONT plot true)))

(defn write-plots! [store test history]
  (let [pairs (filter second (h/pairs history))
        end-s (u/ns->s (or (:time (peek history)) 0))
        intervals (fault-intervals history end-s)
        lat (XYSeriesCollection.)
        series (into (sorted-map)
                     (for [k (distinct (map (fn [[i c]] (str (name (:f i)) " " (name (:type c)))) pairs))]
                       [k (XYSeries. ^Comparable k false true)]))]
    (doseq [[inv comp] pairs]
      (.add ^XYSeries (series (str (name (:f inv)) " " (name (:type comp))))
            (u/ns->s (:time inv))
            (max 0.1 (/ (- (:time comp) (:time inv)) 1e6))))
    (doseq [s (vals series)] (.addSeries lat s))
    (let [y (doto (LogarithmicAxis. "latency (ms)") (.setAllowNegativesFlag false))
          c (chart (str (:name test) " latency") lat y false)
          r (.getRenderer (.getXYPlot c))
          fs (vec (distinct (map #(first (str/split (str %) #" ")) (keys series))))]
      ;; colour by :f, shape by outcome ("read ok", "read fail", "read info")
      (doseq [[i k] (map-indexed vector (keys series))
              :let [[f outcome] (str/split k #" ")]]
        (.setSeriesPaint r i (nth palette (mod (.indexOf ^java.util.List fs f) (count palette))))
        (.setSeriesShape r i ^Shape (outcome-shapes (keyword outcome) (outcome-shapes :ok))))
      (shade! (.getXYPlot c) intervals)
      (save-chart! c store "latency-raw" 1000 500))
    ;; throughput: completions per second, by :f (ok only) and all failures
    (let [rate (XYSeriesCollection.)
          bucket (fn [comp] (long (u/ns->s (:time comp))))
          groups (group-by (fn [[i c]] (if (= :ok (:type c)) (str (name (:f i)) " ok") "fail/info"))
                           pairs)]
      (doseq [[k ps] (sort-by key groups)]
        (let [s (XYSeries. ^Comparable k true false)
              counts (frequencies (map (comp bucket second) ps))]
          (doseq [t (range 0 (inc (long end-s)))] (.add s (double t) (double (counts t 0))))
          (.addSeries rate s)))
      (let [c (chart (str (:name test) " throughput") rate (NumberAxis. "ops/s") true)]
        (shade! (.getXYPlot c) intervals)
        (save-chart! c store "rate" 1000 500)))))

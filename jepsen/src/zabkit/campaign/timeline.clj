(ns zabkit.campaign.timeline
  "timeline.html, as Jepsen's: one column per process, one box per op from invocation to
  completion, coloured by outcome, fault intervals as bands; hover for the op."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.plot :as plot]
            [zabkit.campaign.util :as u]))

(defn- esc [s] (-> (str s) (str/replace "&" "&amp;") (str/replace "<" "&lt;") (str/replace "\"" "&quot;")))

(def px-per-s 40)
(def col-px 110)

(def max-ops
  "Ops drawn at most: a soak's hour is 250,000 of them, more than a browser or the controller's heap
  takes as one page. The rest is counted in the page's heading."
  20000)

(defn- title
  "An op as its box's hover text, long values cut (the soak's 512 KiB znode)."
  [op]
  (let [s (pr-str (dissoc op :stat))]
    (if (> (count s) 400) (str (subs s 0 400) " ...") s)))

(defn write! [file test history]
  (let [all-pairs (h/pairs history)
        pairs (take max-ops all-pairs)
        end-s (u/ns->s (or (:time (peek history)) 0))
        procs (vec (sort (distinct (map (comp :process first) pairs))))
        col (zipmap procs (range))
        y (fn [t-ns] (* px-per-s (u/ns->s t-ns)))
        width (* col-px (inc (count procs)))]
    ;; streamed to the file, box by box: the page of a long run never exists as one string
    (with-open [w (io/writer file)]
      (.write w (str "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" (esc (:name test)) " timeline</title><style>"
                     "body{font:11px sans-serif;margin:0} .wrap{position:relative;margin-top:24px}"
                     ".op{position:absolute;width:" (- col-px 6) "px;overflow:hidden;border-radius:2px;padding:0 2px;box-sizing:border-box;white-space:nowrap}"
                     ".ok{background:#9be59b}.fail{background:#f3a7a7}.info{background:#f5d77d}"
                     ".fault{position:absolute;left:0;background:rgba(120,160,255,.15);border-top:1px solid #88a;color:#446}"
                     ".fault.kill{background:rgba(255,120,120,.15)}.fault.pause{background:rgba(255,200,80,.15)}"
                     ".tick{position:absolute;left:4px;color:#888}.head{position:fixed;top:0;background:#fff;font-weight:bold}"
                     "</style></head><body>"))
      (let [n (count all-pairs)]
        (when (> n max-ops)
          (.write w (format "<p>The first %d of %d ops (timeline/max-ops); history.edn has them all.</p>" max-ops n))))
      (.write w "<div class=\"wrap\">")
      (doseq [p procs]
        (.write w (format "<div class=\"head\" style=\"left:%dpx\">%s</div>" (* col-px (inc (col p))) p)))
      (doseq [s (range 0 (inc (long end-s)) 5)]
        (.write w (format "<div class=\"tick\" style=\"top:%dpx\">%ds</div>" (* px-per-s s) s)))
      (doseq [[fam fault a b] (plot/fault-intervals history end-s)]
        (.write w (format "<div class=\"fault %s\" style=\"top:%.1fpx;height:%.1fpx;width:%dpx\">%s</div>"
                          (name fam) (* px-per-s a) (* px-per-s (- b a)) width (name fault))))
      (doseq [[inv comp] pairs
              :let [t (or (:type comp) :info)
                    top (y (:time inv))
                    bottom (if comp (y (:time comp)) (* px-per-s end-s))]]
        (.write w (format "<div class=\"op %s\" style=\"left:%dpx;top:%.1fpx;height:%.1fpx\" title=\"%s\">%s %s</div>"
                          (name t) (* col-px (inc (col (:process inv)))) top (max 2.0 (- bottom top))
                          (esc (title (merge inv comp)))
                          (name (:f inv)) (esc (str/join " " (remove nil? [(:path inv)]))))))
      (.write w "</div></body></html>\n"))))

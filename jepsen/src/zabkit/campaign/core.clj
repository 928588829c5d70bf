(ns zabkit.campaign.core
  "One campaign, Jepsen-shaped: a test map (options + db + nodes + workload + nemesis), then
  phases: setup, the workload and the nemesis at a rate under a time limit, heal, quiesce, final
  reads, teardown, checkers, store folder. Runs in the controller's environment (for netns, inside
  the controller's namespace; see zabkit.campaign.launcher)."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [zabkit.campaign.client :as c]
            [zabkit.campaign.db :as db]
            [zabkit.campaign.history :as h]
            [zabkit.campaign.nemesis :as nemesis]
            [zabkit.campaign.checker :as checker]
            [zabkit.campaign.report :as report]
            [zabkit.campaign.resources :as resources]
            [zabkit.campaign.sut :as sut]
            [zabkit.campaign.workload.register :as register]
            [zabkit.campaign.workload.sequential :as sequential]
            [zabkit.campaign.workload.lock :as lock]
            [zabkit.campaign.workload.multi :as multi]
            [zabkit.campaign.workload.watch :as watch]
            [zabkit.campaign.workload.session :as session]
            [zabkit.campaign.workload.soak :as soak]))

(def workloads
  "Workload name -> (fn [opts] {:client :generator :final-ops :checker :reads :writes ...})."
  {:register register/workload
   :sequential sequential/workload
   :lock lock/workload
   :multi multi/workload
   :watch watch/workload
   :session session/workload
   :soak soak/workload})

;; ---------------------------------------------------------------------------------------------
;; workers: one thread, one ZooKeeper session at a time, one op outstanding

(defn- open-client!
  "Opens the worker's session, logged as a :connect op. Bounded retries: the ensemble may be
  mid-election. Returns the open client or nil."
  [test w]
  (loop [tries 0]
    (let [p @(:process w)
          inv ((:record! test) {:type :invoke :process p :f :connect :value nil})
          res (try {:client (c/open! (:client-proto test) test w)}
                   (catch Exception e {:error (or (:error (ex-data e)) :connection-loss)
                                       :message (.getMessage e)}))]
      (if-let [cl (:client res)]
        (do ((:record! test) (assoc inv :type :ok :session (get-in cl [:conn :session])
                                    :time nil :index nil))
            cl)
        (do ((:record! test) (assoc inv :type :fail :error (:error res) :time nil :index nil))
            (when (and (< tries 30) (< (System/currentTimeMillis) (:hard-deadline-ms test)))
              (Thread/sleep 500)
              (recur (inc tries))))))))

(defn- reopen? [completion]
  (or (#{:session-expired :reopen} (:error completion)) (:reopen? completion)))

(defn- invoke-one!
  "Records op's invocation and completion; retires the process on :info (Jepsen's rule)."
  [test w client op]
  (let [p @(:process w)
        sid (get-in client [:conn :session])
        inv ((:record! test) (cond-> (assoc op :type :invoke :process p) sid (assoc :session sid)))
        comp (try (c/invoke! client test (dissoc inv :index :time))
                  (catch Exception e
                    (assoc inv :type :info :error :exception
                           :exception (str (.getName (class e)) ": " (.getMessage e)))))
        again? (reopen? comp)
        comp ((:record! test) (-> comp (dissoc :index :time :reopen?) (assoc :process p)))]
    (when (= :info (:type comp)) (swap! (:process w) + (:concurrency test)))
    (when-let [obs (:observe (:workload test))] (obs (:state w) comp))
    (assoc comp :reopen? again?)))

(defn- close-quietly! [test client]
  (try (c/close! client test) (catch Exception _)))

(defn- worker-loop
  "Ops at the worker's share of --rate until the deadline, bounded in count as well."
  [test w deadline-ms]
  (let [gen (:generator (:workload test))
        mean-gap-ms (/ (* 1000.0 (:concurrency test)) (:rate test))
        max-ops (+ 10 (long (* 2 (/ (* (:rate test) (:time-limit test)) (:concurrency test)))))]
    (let [last-client
          (loop [client (open-client! test w) n 0]
            (if (and client (< n max-ops) (< (System/currentTimeMillis) deadline-ms))
              (do
                (Thread/sleep (long (* mean-gap-ms (+ 0.5 (rand)))))
                (if-let [op (and (< (System/currentTimeMillis) deadline-ms) (gen test (:state w)))]
                  (let [comp (invoke-one! test w client op)]
                    (if (:reopen? comp)
                      (do (close-quietly! test client)
                          (recur (open-client! test w) (inc n)))
                      (recur client (inc n))))
                  (recur client (inc n))))
              client))]
      (when last-client
        ;; ops that end what a client still holds (the lock workload's release), recorded, so a
        ;; hold does not silently end with the session
        (when-let [exit-ops (:exit-ops (:workload test))]
          (doseq [op (exit-ops test (:state w))]
            (invoke-one! test w last-client op)))
        ;; the session ends with the phase: its ephemerals must go (the session workload checks it)
        (close-quietly! test last-client)))))

(defn- final-phase!
  "Each worker's final ops (e.g. sync + read), on a fresh session."
  [test w]
  (when-let [ops (seq (some-> (:final-ops (:workload test)) (apply [test (:worker w)])))]
    (when-let [client (open-client! test w)]
      (try
        (doseq [op ops]
          (invoke-one! test w client op))
        (finally (close-quietly! test client))))))

;; ---------------------------------------------------------------------------------------------

(defn test-name [opts]
  (str (sut/label opts) "-" (name (:workload opts)) "-"
       (if (str/blank? (:nemesis opts)) "none" (str/replace (:nemesis opts) "," "+"))
       "-n" (:nodes opts)))

(defn make-test
  "The test map. opts come from the command line; nodes-impl from the launcher."
  [opts nodes-impl]
  (let [wl ((workloads (:workload opts)) opts)]
    (merge opts
           {:name (test-name opts)
            :workload-name (:workload opts)
            :nodes-impl nodes-impl
            ;; containers carry ZooKeeper's jars in the image; elsewhere the runner's own are used
            ;; (ssh: the launcher shipped the runner's jars to each host's run directory)
            :server-classpath (case (:backend opts)
                                ;; a build of the user's own is seen at the same path: the
                                ;; containers mount the checkout, and sut resolves under it
                                :docker (if (seq (:server-jars-list opts))
                                          (db/zookeeper-classpath opts)
                                          "/opt/zookeeper/lib/*")
                                :ssh (str ((requiring-resolve 'zabkit.campaign.ssh/run-dir) nodes-impl) "/lib/*")
                                nil)
            :sut (sut/description opts)
            :workload wl
            :client-proto (:client wl)
            :nemesis-faults (nemesis/parse-nemesis (:nemesis opts))
            :nemesis-rng (nemesis/make-rng (:seed opts))
            :pids (atom {})
            :live-faults (atom {})
            :node-env (atom {})
            :active-fault (atom nil)
            :setup-process (atom c/setup-process-base)
            :sub-process (atom c/sub-process-base)
            :value-counter (atom 0)})))

(defn- start-thread [name f]
  (doto (Thread. ^Runnable f ^String name) (.setDaemon true) (.start)))

(defn run-test!
  "Runs the campaign; returns the results map (also written to results.edn)."
  [test]
  (let [store (io/file (:store test))
        t0 (System/nanoTime)
        rec (h/recorder (io/file store "history.edn") t0)
        test (assoc test
                    :record! (partial h/append! rec)
                    :now-ns #(h/now-ns rec)
                    :hard-deadline-ms (+ (System/currentTimeMillis) (* 1000 (+ 120 (* 2 (:time-limit test))))))
        workers (vec (for [i (range (:concurrency test))]
                       {:worker i :process (atom i) :state (atom {:worker i}) :client (atom nil)}))
        phases (atom {})
        phase! (fn [k] (swap! phases assoc k (h/now-ns rec)))
        sampler (resources/sampler test #(h/now-ns rec))]
    (try
      (report/say "setup: starting %d %s servers" (:nodes test) (name (:system test)))
      (let [ms (db/setup! test)]
        (report/say "setup: ensemble up %s" (pr-str ms)))
      (phase! :setup-done)
      ;; the workload's znodes are created by a process of its own, every create in the history
      (when-let [cl (open-client! test {:worker 0 :process (:setup-process test) :state (atom {:worker 0})})]
        (try (c/setup! cl test) (finally (close-quietly! test cl))))
      (let [deadline (+ (System/currentTimeMillis) (* 1000 (:time-limit test)))
            progress (report/progress-thread test rec deadline)
            threads (mapv (fn [w] (start-thread (str "worker-" (:worker w))
                                                #(worker-loop test w deadline)))
                          workers)
            nem (start-thread "nemesis" #(nemesis/nemesis-loop test deadline))]
        (phase! :main-start)
        (doseq [^Thread t (conj threads nem)] (.join t (+ 60000 (* 1000 (:time-limit test)))))
        (.interrupt ^Thread progress)
        (phase! :main-end))
      (report/say "heal: stopping every fault, restarting stopped servers")
      (nemesis/heal-all! test)
      (let [ms (db/await-ensemble! test 60000)]
        (report/say "quiesce: %s" (if ms (pr-str ms) "ensemble did NOT recover within 60 s")))
      (phase! :healed)
      (let [threads (mapv (fn [w] (start-thread (str "final-" (:worker w)) #(final-phase! test w))) workers)]
        (doseq [^Thread t threads] (.join t 60000)))
      (phase! :final-done)
      (finally
        ((:stop! sampler))
        (db/teardown! test)
        (h/close! rec)))
    (let [history (h/ops rec)
          samples @(:samples sampler)
          results (cond-> (checker/check test history @phases)
                    (seq samples) (assoc :resources (resources/summary samples)))]
      (report/write-store! test history results)
      (when (= :soak (:workload-name test))
        (try (resources/write! store test history samples)
             (catch Exception e (report/say "resources: could not write the plots: %s" (.getMessage e)))))
      results)))

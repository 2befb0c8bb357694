/**
 * The demo's agent questions, each answered by one PTC-Lisp program against the Observatory (OpenAPI) and, for the
 * runbook questions, the runbooks MCP server in the same program. Dates come from the fixture's fixed data window, so
 * the programs read like an agent's on the day the data ends.
 * @module
 */
import { DATASET_END } from "../../fixtures/observatory/mod.ts";

/** One question and the program an agent would write for it. */
export interface DemoQuestion {
  id: string;
  question: string;
  program: string;
  /** The program writes: the demo runs it with writes enabled for it alone (see `demo_writes.ts`). */
  writes?: boolean;
}

/** Facts about the running fixture that a question may quote (e.g. an id seen in a log line). */
export interface DemoFacts {
  /** An external (OpenTelemetry) trace id of a failed trace, as an application log would show it. */
  externalTraceId: string;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The questions, in the order the demo asks them. */
export function demoQuestions(facts: DemoFacts): DemoQuestion[] {
  const now = iso(DATASET_END);
  const weekAgo = iso(DATASET_END - 7 * DAY);
  const twoWeeksAgo = iso(DATASET_END - 14 * DAY);
  return [
    {
      id: "error-rate-rise",
      question: "Which org's error rate rose most this week, compared with the week before?",
      program: `
(defn error-rate [org since until]
  (let [total (get-in (tool/call 'observatory/get-cost-analytics
                        {:org_id org :group_by "environment" :since since :until until})
                      [:value :total])]
    (/ (:error_count total) (max 1 (:trace_count total)))))

(->> ["acme" "globex" "initech" "umbrella"]
     (pmap (fn [org]
             (let [now    (error-rate org "${weekAgo}" "${now}")
                   before (error-rate org "${twoWeeksAgo}" "${weekAgo}")]
               {:org org :this_week (round (* 100 now)) :week_before (round (* 100 before))
                :rise_pct_points (round (* 100 (- now before)))})))
     (sort-by :rise_pct_points >)
     first)`,
    },
    {
      id: "why-failing",
      question: "What is behind globex's failures this week: which error classes, on which models?",
      program: `
(let [errors (get-in (tool/call 'observatory/list-errors
                       {:org_id "globex" :since "${weekAgo}" :limit 500})
                     [:value :errors])]
  {:failures (count errors)
   :top (->> errors
             (map (juxt :error_class :model))
             frequencies
             (sort-by val >)
             (take 3)
             (into []))})`,
    },
    {
      id: "runbook-for-top-error",
      question: "globex's most common error class this week, and what does our runbook say to do about it?",
      program: `
(let [report (:value (tool/call 'observatory/list-errors
                       {:org_id "globex" :since "${weekAgo}" :limit 1}))
      top    (first (:by_class report))
      page   (get-in (tool/call 'runbooks/read-text-file {:path (str (:error_class top) ".md")})
                     [:value :content])]
  {:error_class (:error_class top)
   :count (:count top)
   :of_failures (:total_errors report)
   :mitigation (->> (split-lines page)
                    (drop-while #(not= % "## Mitigation"))
                    rest
                    (take-while #(not (starts-with? % "## ")))
                    (filter #(starts-with? % "- "))
                    (mapv #(subs % 2)))})`,
    },
    {
      id: "triage-sheet",
      question:
        "A triage sheet for acme this week: per error class, how many failures, the app hit hardest, and the runbook's first check.",
      program: `
(defn runbook-section [page heading]
  (->> (split-lines page)
       (drop-while #(not= % (str "## " heading)))
       rest
       (take-while #(not (starts-with? % "## ")))
       (filter #(starts-with? % "- "))
       (mapv #(subs % 2))))

(let [errors (get-in (tool/call 'observatory/list-errors
                       {:org_id "acme" :since "${weekAgo}" :limit 500})
                     [:value :errors])]
  (->> (group-by :error_class errors)
       (pmap (fn [[cls es]]
               (let [page (get-in (tool/call 'runbooks/read-text-file {:path (str cls ".md")})
                                  [:value :content])]
                 {:error_class cls
                  :count (count es)
                  :worst_app (ffirst (sort-by val > (frequencies (map :app es))))
                  :check_first (first (runbook-section page "What to check"))})))
       (sort-by :count >)))`,
    },
    {
      id: "expensive-failures",
      question: "Top 5 most expensive failing traces across all orgs, and the first failing step of each.",
      program: `
(defn failed-traces [org]
  (tool/pages 'observatory/list-traces {:org_id org :status "error" :limit 100} {:max-pages 20}))

(let [listings (pmap failed-traces ["acme" "globex" "initech" "umbrella"])
      _   (when-not (every? :complete listings) (fail (str "listing incomplete: " (some :message listings))))
      top (->> listings
               (mapcat :items)
               (sort-by :cost_usd >)
               (take 5))]
  (pmap (fn [t]
          (let [steps (get-in (tool/call 'observatory/get-trace-steps {:trace_id (:id t)}) [:value :steps])
                bad   (first (filter #(= "error" (:status %)) steps))]
            {:trace (:id t) :org (:org_id t) :cost_usd (:cost_usd t)
             :first_failing_step (select-keys bad [:index :kind :name :error_class])}))
        top))`,
    },
    {
      id: "library-step-story",
      question:
        "acme's newest failing trace: its steps, where it broke, and what the runbook says (through the oncall library).",
      // The operator's library (fixtures/observatory/lib/oncall.clj) does the paging, the steps and the runbook join.
      program: `(oncall/step-story (:id (first (oncall/failing-traces "acme" nil))))`,
    },
    {
      id: "cost-per-model",
      question: "Cost per model for acme over the last 30 days.",
      program: `
(->> (tool/call 'observatory/get-cost-analytics {:org_id "acme" :group_by "model"})
     :value :groups
     (map (juxt :key :cost_usd))
     (into {}))`,
    },
    {
      id: "tool-error-output",
      question: "acme's most recent tool failure: which tool, called with what, and what did it return?",
      program: `
(let [t    (first (get-in (tool/call 'observatory/list-traces
                            {:org_id "acme" :error_class "tool_error" :limit 1})
                          [:value :traces]))
      bad  (->> (tool/call 'observatory/get-trace-steps {:trace_id (:id t)})
                :value :steps (filter #(= "error" (:status %))) first)
      step (:value (tool/call 'observatory/get-trace-step {:trace_id (:id t) :step_id (:step_id bad)}))]
  {:trace (:id t) :app (:app t) :tool (:name step)
   :query (get-in step [:input :arguments :query])
   :error (get-in step [:output :error])})`,
    },
    {
      id: "tokens-per-app",
      question: "Which of umbrella's apps uses the most tokens per trace this week?",
      program: `
(defn traces-since [org since]
  (let [r (tool/pages 'observatory/list-traces {:org_id org :since since :limit 100} {:max-pages 20})]
    (if (:complete r) (:items r) (fail (str org ": listing incomplete: " (:message r))))))

(->> (traces-since "umbrella" "${weekAgo}")
     (group-by :app)
     (map (fn [[app ts]] {:app app :traces (count ts) :avg_tokens (round (avg-by :total_tokens ts))}))
     (sort-by :avg_tokens >))`,
    },
    {
      id: "log-line-trace",
      question: `A log line says trace ${facts.externalTraceId} failed. What happened, step by step?`,
      program: `
(let [t    (:value (tool/call 'observatory/search-traces {:trace_id "${facts.externalTraceId}"}))
      full (tool/call 'observatory/get-trace-steps {:trace_id (:id t) :mode "full"})
      steps (if (:ok full)
              (get-in full [:value :steps])
              (get-in (tool/call 'observatory/get-trace-steps {:trace_id (:id t)}) [:value :steps]))]
  {:trace (:id t) :org (:org_id t) :app (:app t) :error (:error_message t)
   :full_payloads (if (:ok full) :read (:reason full))
   :steps (mapv (juxt :kind :name :status :duration_ms) steps)})`,
    },
  ];
}

/**
 * The question that writes: flag the most expensive failed trace of the week for review. The annotation carries an
 * `Idempotency-Key` derived from the trace, so running the program again returns the same annotation instead of
 * adding a second one (the demo runs it twice to show it). The query is `query-traces`, a POST that only reads.
 */
export function demoWriteQuestion(): DemoQuestion {
  const weekAgo = iso(DATASET_END - 7 * DAY);
  return {
    id: "annotate-for-review",
    question: "Flag the most expensive failed trace this week, across all orgs, for review (safe to re-run).",
    writes: true,
    program: `
(let [t (first (get-in (tool/call 'observatory/query-traces
                         {:org_ids ["acme" "globex" "initech" "umbrella"] :status "error"
                          :since "${weekAgo}" :order_by "cost_usd" :limit 1})
                       [:value :traces]))
      r (tool/call 'observatory/create-trace-annotation
          {:trace_id (:id t) :idempotency_key (str "review-" (:id t))
           :label "needs-review"
           :note (str "most expensive failure this week: " (:error_class t) ", $" (:cost_usd t))})]
  {:trace (:id t) :org (:org_id t) :cost_usd (:cost_usd t) :error_class (:error_class t)
   :annotation (get-in r [:value :id]) :mutation_state (:mutation_state r)
   :annotations_on_trace (count (get-in (tool/call 'observatory/list-trace-annotations {:trace_id (:id t)})
                                        [:value :annotations]))})`,
  };
}

/**
 * Natural-language Observatory questions, each with the program an agent writes from the `lisp_eval` description and
 * discovery (`doc` output) alone, and its expected answer computed here, in TypeScript, straight from the fixture's
 * seeded data module — never through ptc. Programs return plain data; the test compares the structured value.
 * @module
 */
import type { Dataset } from "../../fixtures/observatory/data.ts";
import { ANALYTICS_OPERATIONS } from "../../fixtures/observatory/routes/analytics.ts";
import { STEP_OPERATIONS } from "../../fixtures/observatory/routes/steps.ts";
import { ORG_IDS } from "../../fixtures/observatory/world.ts";
import type { TraceSummary } from "../../fixtures/observatory/types.ts";

/** One question. `context` is passed as lisp_eval's `context` (readable as data/<key>). */
export interface Question {
  q: string;
  program: string;
  context?: Record<string, unknown>;
  expect: (ds: Dataset) => unknown;
  /** Extra checks on the whole MCP result text (e.g. a budget warning). */
  text?: RegExp;
  /** The program must print nothing (a `(doc …)` is a value, never output). */
  noPrints?: boolean;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const count = <T>(xs: readonly T[], p: (x: T) => boolean) => xs.filter(p).length;
const org = (ds: Dataset, id: string) => ds.tracesOfOrg(id);
const freq = <T>(xs: readonly T[], key: (x: T) => string) => {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
};
const sortedMid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** An error trace of acme with at least two steps (deterministic pick: the newest such). */
const errorTrace = (ds: Dataset) => org(ds, "acme").find((t) => t.status === "error" && t.step_count >= 2)!;

/** Every page of an org's traces, as an agent writes it with the paging form. */
const ALL = (orgId: string, filters = "") =>
  `(:items (tool/pages 'observatory/list-traces {:org-id "${orgId}" :limit 100${filters}} {:max-pages 20}))`;

/** The scope an operation of the fixture requires (its OpenAPI description says "Requires scope `…`"). */
const scopeOf = (operationId: string) =>
  [...ANALYTICS_OPERATIONS, ...STEP_OPERATIONS].find((o) => o.operationId === operationId)!.scope;

/** The questions. */
export const QUESTIONS: Question[] = [
  {
    q: "How many production traces do acme and globex have together (query-traces, every page)?",
    // query-traces declares no pagination: tool/pages follows it from its cursor argument and next_cursor field
    program: `(let [r (tool/pages 'observatory/query-traces {:org-ids ["acme" "globex"] :environment "production"
                                                          :limit 100} {:max-pages 30})]
               [(:complete r) (count (:items r)) (count (distinct (map :id (:items r))))])`,
    expect: (ds) => {
      const n = count(ds.traces, (t) => ["acme", "globex"].includes(t.org_id) && t.environment === "production");
      return [true, n, n];
    },
  },
  {
    q: "Read acme's error traces 7 at a time, resuming from :next: are they all there, each once?",
    program: `(loop [args {:org-ids ["acme"] :status "error" :limit 5} seen [] rounds 0]
               (let [r (tool/pages 'observatory/query-traces args {:max-items 7})
                     seen (into seen (map :id (:items r)))]
                 (if (or (:complete r) (> rounds 40))
                   [(count seen) (count (distinct seen))]
                   (recur (assoc args :cursor (:next r)) seen (inc rounds)))))`,
    expect: (ds) => {
      const n = count(org(ds, "acme"), (t) => t.status === "error");
      return [n, n];
    },
  },
  {
    q: "Which scopes do list-errors and get-trace-steps require (read from their docs, in one program)?",
    program: `(let [docs [(doc 'observatory/list-errors) (doc 'observatory/get-trace-steps)]]
               (mapv #(second (re-find #"Requires scope \x60([a-z_:]+)\x60" %)) docs))`,
    expect: () => [scopeOf("list_errors"), scopeOf("get_trace_steps")],
    noPrints: true,
  },
  {
    q: "What did hooli spend? (an org the service does not have)",
    program: `(let [r (tool/call 'observatory/get-cost-analytics {:org-id "hooli"})]
               (if (:ok r) (:cost_usd (:total (:value r))) [(name (:reason r)) (boolean (re-find #"org 'hooli' not found" (:message r)))]))`,
    expect: (ds) => ORG_IDS.includes("hooli") ? sum(org(ds, "hooli").map((t) => t.cost_usd)) : ["not_found", true],
  },
  {
    q: "What is acme's error rate in production only?",
    program:
      `(let [t (:total (:value (tool/call 'observatory/get-cost-analytics {:org-id "acme" :environment "production"})))]
               (/ (:error_count t) (double (:trace_count t))))`,
    expect: (ds) => {
      const prod = org(ds, "acme").filter((t) => t.environment === "production");
      return count(prod, (t) => t.status === "error") / prod.length;
    },
  },
  {
    q: "How many traces does acme have?",
    program: `(count ${ALL("acme")})`,
    expect: (ds) => org(ds, "acme").length,
  },
  {
    q: "How many of acme's traces failed?",
    program: `(count ${ALL("acme", ' :status "error"')})`,
    expect: (ds) => count(org(ds, "acme"), (t) => t.status === "error"),
  },
  {
    q: "What is acme's error rate?",
    program: `(let [ts ${ALL("acme")}] (/ (count (filter #(= "error" (:status %)) ts)) (double (count ts))))`,
    expect: (ds) => count(org(ds, "acme"), (t) => t.status === "error") / org(ds, "acme").length,
  },
  {
    q: "What did acme's production traces cost in total?",
    program: `(sum-by :cost_usd ${ALL("acme", ' :environment "production"')})`,
    expect: (ds) => sum(org(ds, "acme").filter((t) => t.environment === "production").map((t) => t.cost_usd)),
  },
  {
    q: "How many acme traces did each model serve?",
    program: `(frequencies (map :model ${ALL("acme")}))`,
    expect: (ds) => freq(org(ds, "acme"), (t) => t.model),
  },
  {
    q: "Which acme trace was the most expensive, and what did it cost?",
    program: `(let [t (max-by :cost_usd ${ALL("acme")})] [(:id t) (:cost_usd t)])`,
    expect: (ds) => {
      const t = org(ds, "acme").reduce((a, b) => (b.cost_usd > a.cost_usd ? b : a));
      return [t.id, t.cost_usd];
    },
  },
  {
    q: "What is the median duration of globex's traces (upper median)?",
    program: `(let [ds (sort (map :duration_ms ${ALL("globex")}))] (nth ds (quot (count ds) 2)))`,
    expect: (ds) => sortedMid(org(ds, "globex").map((t) => t.duration_ms)),
  },
  {
    q: "How many distinct users does initech have?",
    program: `(count (distinct (map :user_id ${ALL("initech")})))`,
    expect: (ds) => new Set(org(ds, "initech").map((t) => t.user_id)).size,
  },
  {
    q: "What is the average step count of umbrella's traces?",
    program: `(avg-by :step_count ${ALL("umbrella")})`,
    expect: (ds) => sum(org(ds, "umbrella").map((t) => t.step_count)) / org(ds, "umbrella").length,
  },
  {
    q: "How many acme failures are there per error class?",
    program: `(frequencies (map :error_class ${ALL("acme", ' :status "error"')}))`,
    expect: (ds) => freq(org(ds, "acme").filter((t) => t.status === "error"), (t) => t.error_class!),
  },
  {
    q: "How many acme traces did each app produce?",
    program: `(frequencies (map :app ${ALL("acme")}))`,
    expect: (ds) => freq(org(ds, "acme"), (t) => t.app),
  },
  {
    q: "Per model, what did acme spend (server-side analytics)?",
    program: `(let [r (tool/call 'observatory/get-cost-analytics {:org-id "acme" :group-by "model"})]
               (into {} (map (fn [g] [(:key g) (:cost_usd g)]) (:groups (:value r)))))`,
    expect: (ds) => {
      const out: Record<string, number> = {};
      for (const t of org(ds, "acme")) out[t.model] = (out[t.model] ?? 0) + t.cost_usd;
      return out;
    },
  },
  {
    q: "How many traces did acme have on its busiest day?",
    program: `(let [r (tool/call 'observatory/get-cost-analytics {:org-id "acme" :group-by "day"})]
               (apply max (map :trace_count (:groups (:value r)))))`,
    expect: (ds) => Math.max(...Object.values(freq(org(ds, "acme"), (t) => t.started_at.slice(0, 10)))),
  },
  {
    q: "How many errors did globex have in the dataset window?",
    program: `(:total_errors (:value (tool/call 'observatory/list-errors {:org-id "globex"})))`,
    expect: (ds) => count(org(ds, "globex"), (t) => t.status === "error"),
  },
  {
    q: "Per environment, what is acme's error count (analytics)?",
    program: `(let [r (tool/call 'observatory/get-cost-analytics {:org-id "acme" :group-by "environment"})]
               (into {} (map (fn [g] [(:key g) (:error_count g)]) (:groups (:value r)))))`,
    expect: (ds) => {
      const out: Record<string, number> = {};
      for (const t of org(ds, "acme")) out[t.environment] = (out[t.environment] ?? 0) + (t.status === "error" ? 1 : 0);
      return out;
    },
  },
  {
    q: "Which model ran acme's newest trace?",
    program: `(:model (first (:traces (:value (tool/call 'observatory/list-traces {:org-id "acme" :limit 1})))))`,
    expect: (ds) => org(ds, "acme")[0].model,
  },
  {
    q: "Which Observatory trace has the external trace id I logged?",
    program: `(:id (:value (tool/call 'observatory/search-traces {:trace-id data/ext})))`,
    context: { ext: "" },
    expect: (ds) => org(ds, "acme")[5].id,
  },
  {
    q: "How many steps does this trace have?",
    program: `(count (:steps (:value (tool/call 'observatory/get-trace-steps {:trace-id data/id}))))`,
    context: { id: "" },
    expect: (ds) => ds.summarySteps(org(ds, "acme")[3].id)!.length,
  },
  {
    q: "How many steps of each kind does this trace have?",
    program: `(frequencies (map :kind (:steps (:value (tool/call 'observatory/get-trace-steps {:trace-id data/id})))))`,
    context: { id: "" },
    expect: (ds) => freq(ds.summarySteps(org(ds, "acme")[3].id)!, (s) => s.kind),
  },
  {
    q: "In this failed trace, which step failed first?",
    program: `(:name (first (filter #(= "error" (:status %))
                                  (:steps (:value (tool/call 'observatory/get-trace-steps {:trace-id data/id}))))))`,
    context: { id: "" },
    expect: (ds) => ds.summarySteps(errorTrace(ds).id)!.find((s) => s.status === "error")?.name ?? null,
  },
  {
    q: "How many top-level keys does the input payload of this trace's first step have?",
    program: `(let [steps (:steps (:value (tool/call 'observatory/get-trace-steps {:trace-id data/id})))
                    s (tool/call 'observatory/get-trace-step {:trace-id data/id :step-id (:step_id (first steps))})]
                (count (keys (:input (:value s)))))`,
    context: { id: "" },
    expect: (ds) => {
      const id = org(ds, "acme")[3].id;
      return Object.keys(ds.fullStep(id, ds.summarySteps(id)![0].step_id)!.input).length;
    },
  },
  {
    q: "How many acme traces cost at least $0.05?",
    program: `(count ${ALL("acme", " :min-cost-usd 0.05")})`,
    expect: (ds) => count(org(ds, "acme"), (t) => t.cost_usd >= 0.05),
  },
  {
    q: "How many of umbrella's staging traces ran on claude-sonnet-4?",
    program: `(count ${ALL("umbrella", ' :environment "staging" :model "claude-sonnet-4"')})`,
    expect: (ds) => count(org(ds, "umbrella"), (t) => t.environment === "staging" && t.model === "claude-sonnet-4"),
  },
  {
    q: "How many tokens did globex's failed traces use in total?",
    program: `(sum-by :total_tokens ${ALL("globex", ' :status "error"')})`,
    expect: (ds) => sum(org(ds, "globex").filter((t) => t.status === "error").map((t) => t.total_tokens)),
  },
  {
    q: "What is the most output tokens a single initech trace produced?",
    program: `(apply max (map :output_tokens ${ALL("initech")}))`,
    expect: (ds) => Math.max(...org(ds, "initech").map((t) => t.output_tokens)),
  },
  {
    q: "What share of acme's traces took longer than 10 seconds?",
    program: `(let [ts ${ALL("acme")}] (/ (count (filter #(> (:duration_ms %) 10000) ts)) (double (count ts))))`,
    expect: (ds) => count(org(ds, "acme"), (t) => t.duration_ms > 10000) / org(ds, "acme").length,
  },
  {
    q: "If I only read three pages of 20, is the listing of acme complete, and why did it stop?",
    program: `(let [r (tool/pages 'observatory/list-traces {:org-id "acme" :limit 20} {:max-pages 3})]
               [(:complete r) (count (:items r)) (:pages r) (name (:stopped r))])`,
    expect: (ds) => org(ds, "acme").length > 60 ? [false, 60, 3, "max_pages"] : [true, org(ds, "acme").length, 3, ""],
  },
  {
    q: "How many steps do globex's five newest traces have together?",
    program: `(let [ids (map :id (:traces (:value (tool/call 'observatory/list-traces {:org-id "globex" :limit 5}))))]
               (sum-by #(count (:steps (:value %))) (pmap #(tool/call 'observatory/get-trace-steps {:trace-id %}) ids)))`,
    expect: (ds) => sum(org(ds, "globex").slice(0, 5).map((t) => ds.summarySteps(t.id)!.length)),
  },
  {
    q: "How many acme users have two or more traces?",
    program: `(count (filter #(>= % 2) (vals (frequencies (map :user_id ${ALL("acme")})))))`,
    expect: (ds) => count(Object.values(freq(org(ds, "acme"), (t) => t.user_id)), (n) => n >= 2),
  },
  {
    q: "How many tool calls do I have left after listing acme's first page twice?",
    program: `(do (tool/call 'observatory/list-traces {:org-id "acme"})
                  (tool/call 'observatory/list-traces {:org-id "acme"})
                  (:tool_calls (budget/remaining)))`,
    expect: () => 48,
  },
  {
    q: "Fetch 60 of acme's traces one by one — how many came back (the budget is 50 calls)?",
    program: `(let [ids (map :id ${ALL("acme")})
                    rs (pmap #(tool/call 'observatory/get-trace {:trace-id %}) (take 60 ids))]
                [(count (filter :ok rs)) (count (remove :ok rs))])`,
    // 2 pages of listing + 48 fetches fit in 50 calls; the other 12 fetches are refused
    expect: (ds) => (org(ds, "acme").length > 100 ? [48, 12] : [49, 11]),
    text:
      /\[warning: budget exhausted — 12 tool call\(s\) refused: tool call budget exhausted: at most 50 calls per run\. The answer may be partial\.\]/,
  },
  {
    q: "Which error class is most frequent in acme, by the analytics' own ranking?",
    program: `(:error_class (first (:by_class (:value (tool/call 'observatory/list-errors {:org-id "acme"})))))`,
    expect: (ds) => {
      const f = freq(org(ds, "acme").filter((t: TraceSummary) => t.status === "error"), (t) => t.error_class!);
      return Object.entries(f).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
    },
  },
];

/** Fill the context values that depend on the data (ids picked from the dataset, not from ptc). */
export function contextFor(q: Question, ds: Dataset): Record<string, unknown> | undefined {
  if (!q.context) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(q.context)) {
    if (key === "ext") out.ext = org(ds, "acme")[5].external_trace_id;
    else if (key === "id") out.id = q.q.includes("failed") ? errorTrace(ds).id : org(ds, "acme")[3].id;
  }
  return out;
}

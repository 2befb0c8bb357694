/**
 * The six Observatory-style benchmark programs, each written once in PTC-Lisp (the same text runs in nbb: there the
 * data is keywordized, in PTC keyword access finds the JSON string keys) and once in plain JavaScript.
 * @module
 */
import type { Step, Trace } from "./dataset.ts";
import { NEEDLE } from "./dataset.ts";

/** One benchmark program. */
export interface BenchProgram {
  id: string;
  title: string;
  /** PTC-Lisp source; `data` is the vector of traces. Also valid ClojureScript. */
  lisp: string;
  /** The same computation in plain JavaScript over the parsed JSON. */
  js: (data: Trace[]) => unknown;
}

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/** The six programs (a)–(f). */
export const BENCH_PROGRAMS: BenchProgram[] = [
  {
    id: "a",
    title: "failing traces by error class",
    lisp: `(->> data (filter #(= (:status %) "error")) (group-by :error_class)
     (map (fn [[k v]] [k (count v)])) (into {}))`,
    js: (data) => {
      const out: Record<string, number> = {};
      for (const t of data) if (t.status === "error") out[t.error_class!] = (out[t.error_class!] ?? 0) + 1;
      return out;
    },
  },
  {
    id: "b",
    title: "top-10 by cost, selected keys",
    lisp: `(->> data (sort-by :cost_usd >) (take 10) (mapv #(select-keys % [:id :model :cost_usd])))`,
    js: (data) =>
      [...data].sort((x, y) => y.cost_usd - x.cost_usd).slice(0, 10).map((t) => ({
        id: t.id,
        model: t.model,
        cost_usd: t.cost_usd,
      })),
  },
  {
    id: "c",
    title: "per-model cost and tokens (reduce)",
    lisp: `(reduce (fn [acc t]
          (let [m (:model t) cur (get acc m {:cost 0 :tokens 0})]
            (assoc acc m {:cost (+ (:cost cur) (:cost_usd t))
                          :tokens (+ (:tokens cur) (:tokens_in t) (:tokens_out t))})))
        {} data)`,
    js: (data) =>
      data.reduce((acc, t) => {
        const cur = acc[t.model] ?? { cost: 0, tokens: 0 };
        acc[t.model] = { cost: cur.cost + t.cost_usd, tokens: cur.tokens + t.tokens_in + t.tokens_out };
        return acc;
      }, {} as Record<string, { cost: number; tokens: number }>),
  },
  {
    id: "d",
    title: "p95 duration per org",
    lisp: `(->> data (group-by :org_id)
     (map (fn [[org ts]]
            (let [ds (vec (sort (map :duration_ms ts)))]
              [org (nth ds (int (* 0.95 (dec (count ds)))))])))
     (into {}))`,
    js: (data) => {
      const out: Record<string, number> = {};
      for (const [org, ts] of groupBy(data, (t) => t.org_id)) {
        const ds = ts.map((t) => t.duration_ms).sort((x, y) => x - y);
        out[org] = ds[Math.trunc(0.95 * (ds.length - 1))];
      }
      return out;
    },
  },
  {
    id: "e",
    title: "step-kind frequencies in failing traces",
    lisp: `(->> data (filter #(= (:status %) "error")) (mapcat :steps) (map :kind) frequencies)`,
    js: (data) => {
      const out: Record<string, number> = {};
      for (const t of data) {
        if (t.status !== "error") continue;
        for (const s of t.steps) out[s.kind] = (out[s.kind] ?? 0) + 1;
      }
      return out;
    },
  },
  {
    id: "f",
    title: "substring search over step payloads",
    lisp: `(->> data (filter (fn [t] (some #(includes? (:payload %) "${NEEDLE}") (:steps t)))) (mapv :id))`,
    js: (data) => data.filter((t) => t.steps.some((s: Step) => s.payload.includes(NEEDLE))).map((t) => t.id),
  },
];

/** Collection-building programs that must stay cheap (amortized O(1)/O(log n) updates). */
export const BUILD_PROGRAMS: { id: string; lisp: string }[] = [
  { id: "conj-100k", lisp: "(count (reduce conj [] (range 100000)))" },
  { id: "into-map-100k", lisp: "(count (into {} (map (fn [i] [i i]) (range 100000))))" },
  { id: "assoc-100k", lisp: "(count (reduce (fn [m i] (assoc m i i)) {} (range 100000)))" },
];

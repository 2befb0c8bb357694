/**
 * Building the nbb driver script for the conformance table and parsing its output (used by derive.ts).
 * @module
 */
import type { NbbAnswer, Program } from "../../tests/lisp/conformance/programs.ts";

/** Marker that starts a result line in nbb's stdout (program output never contains it). */
export const MARKER = "\u0001PTC-RESULT\u0001";

/**
 * The namespace header every program is evaluated under: PTC's flat builtin environment exposes the clojure.string,
 * clojure.set and clojure.walk functions unqualified and under the `str/`, `set/`, `walk/` aliases, so the nbb side
 * refers the ones whose names do not clash with clojure.core (`replace`, `reverse` do; programs qualify those).
 */
const NS_HEADER = "(ns %NS% (:require [clojure.string :as str :refer [join split split-lines trim triml trimr " +
  "trim-newline blank? upper-case lower-case starts-with? ends-with? includes? index-of last-index-of]] " +
  "[clojure.set :as set :refer [union intersection difference subset? superset?]] " +
  "[clojure.walk :as walk :refer [walk prewalk postwalk keywordize-keys stringify-keys]]))\n";

/** Returns the ClojureScript driver evaluating every program sequentially and printing one result line each. */
export function buildCljs(programs: Program[]): string {
  const table = programs.map((p) => `[${JSON.stringify(p.id)} ${JSON.stringify(p.src)}]`).join("\n  ");
  return `(ns ptc-conformance-driver (:require [nbb.core :refer [load-string]]))
(def marker ${JSON.stringify(MARKER)})
(def header ${JSON.stringify(NS_HEADER)})
(def programs [
  ${table}])
(defn emit [m] (println (str marker (js/JSON.stringify (clj->js m)))))
(defn run-one [[id src] n]
  (let [p (try (load-string (str (.replace header "%NS%" (str "ptc-prog-" n)) src))
               (catch :default e (js/Promise.reject e)))]
    (-> p
        (.then (fn [v] (emit {:id id :ok true :printed (pr-str v)})))
        (.catch (fn [e] (emit {:id id :ok false :error (str (or (.-message e) e))}))))))
(defn run-all [ps n]
  (when (seq ps)
    (.then (run-one (first ps) n) (fn [_] (run-all (rest ps) (inc n))))))
(run-all programs 0)
`;
}

/** Parses the driver's stdout into answers keyed by program id (prints before a result line belong to it). */
export function parseNbbOutput(stdout: string, programs: Program[]): Record<string, NbbAnswer> {
  const srcById = new Map(programs.map((p) => [p.id, p.src]));
  const results: Record<string, NbbAnswer> = {};
  let pending: string[] = [];
  const lines = stdout.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const at = line.indexOf(MARKER);
    if (at < 0) {
      pending.push(line);
      continue;
    }
    if (at > 0) pending.push(line.slice(0, at));
    const raw = JSON.parse(line.slice(at + MARKER.length)) as {
      id: string;
      ok: boolean;
      printed?: string;
      error?: string;
    };
    const src = srcById.get(raw.id);
    if (src === undefined) throw new Error(`nbb answered for an unknown program id '${raw.id}'`);
    const base = raw.ok
      ? { src, ok: true as const, printed: raw.printed ?? "" }
      : { src, ok: false as const, error: raw.error ?? "" };
    results[raw.id] = pending.length > 0 ? { ...base, prints: pending } : base;
    pending = [];
  }
  return results;
}

/**
 * Times the benchmark programs in nbb: ONE nbb process loads the data file once (JSON.parse + keywordized js->clj,
 * not timed), compiles each program once as `(fn [data] …)`, runs it once to warm up, then `repeat` times, and
 * reports the median wall time per program (the result is realized with `pr-str`, as PTC prints its result).
 * @module
 */

/** Median milliseconds per program id, measured in nbb. */
export async function timeNbb(
  nbbCli: string,
  dataFile: string | null,
  programs: { id: string; lisp: string }[],
  repeat: number,
): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-bench-nbb-" });
  try {
    const table = programs.map((p) => `[${JSON.stringify(p.id)} ${JSON.stringify(p.lisp)}]`).join("\n  ");
    const load = dataFile
      ? `(js->clj (js/JSON.parse (.readFileSync (js/require "fs") ${JSON.stringify(dataFile)} "utf8")) ` +
        `:keywordize-keys true)`
      : "nil";
    const script = `(ns bench (:require [nbb.core :refer [load-string]]))
(def data ${load})
(def programs [${table}])
(defn median [xs] (let [s (vec (sort xs))] (nth s (quot (count s) 2))))
(defn time-one [f]
  (let [t0 (js/performance.now)] (count (pr-str (f data))) (- (js/performance.now) t0)))
(defn run [ps acc]
  (if (empty? ps)
    (println (js/JSON.stringify (clj->js acc)))
    (let [[id src] (first ps)]
      (.then (load-string (str "(ns bench-programs (:require [clojure.string :refer [join split includes? starts-with? ends-with? upper-case lower-case]])) (fn [data] " src ")"))
             (fn [f] (time-one f)
               (run (rest ps) (assoc acc id (median (vec (for [_ (range ${repeat})] (time-one f)))))))))))
(run programs {})
`;
    const file = `${dir}/bench.cljs`;
    await Deno.writeTextFile(file, script);
    const out = await new Deno.Command("node", {
      args: ["--max-old-space-size=8192", nbbCli, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout).trim();
    if (!out.success) throw new Error(`nbb failed (${out.code}): ${new TextDecoder().decode(out.stderr)}`);
    return JSON.parse(stdout.split("\n").at(-1)!);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Times PTC-Lisp programs, warm, over a data file: through `ptc eval --repeat N --data FILE --format json` (the CLI
 * reports the median evaluation time, data parsing excluded) or, when the CLI is not usable, in-process through
 * `createSession()` (data converted once on a warm-up run, then the program evaluated N times; median of the eval calls).
 * @module
 */
import { createSession } from "../../src/lisp/mod.ts";
import type { JsonValue } from "../../src/core/json.ts";
import type { EvalOptions } from "../../src/lisp/api.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** How PTC was timed. */
export type PtcMode = "cli" | "api";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs `ptc eval` with the given arguments; returns the parsed JSON object or null on any failure. */
async function ptcEval(args: string[], root = ROOT): Promise<Record<string, unknown> | null> {
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      // node_modules is already installed by the parent `deno task`; `manual` skips re-resolving npm packages.
      args: [
        "run",
        "--node-modules-dir=manual",
        "-A",
        `${root}main.ts`,
        "eval",
        "--format",
        "json",
        ...args,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    return text.startsWith("{") ? JSON.parse(text.split("\n").at(-1)!) : null;
  } catch {
    return null;
  }
}

/** True when `ptc eval --repeat --format json` works (the CLI exists and reports elapsed_ms). */
export async function cliReady(): Promise<boolean> {
  const r = await ptcEval(["--repeat", "2", "(+ 1 2)"]);
  return r !== null && r.ok === true && typeof r.elapsed_ms === "number";
}

/**
 * Median ms per program via the CLI (one process per program, as a user would run it); `root` (a directory ending in
 * `/`) runs another checkout's `main.ts`, e.g. a baseline tree.
 */
export async function timePtcCli(
  dataFile: string | null,
  programs: { id: string; lisp: string }[],
  repeat: number,
  root = ROOT,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of programs) {
    const r = await ptcEval([...(dataFile ? ["--data", dataFile] : []), "--repeat", String(repeat), p.lisp], root);
    if (!r || r.ok !== true) throw new Error(`ptc eval failed on program ${p.id}: ${JSON.stringify(r)}`);
    out[p.id] = r.elapsed_ms as number;
  }
  return out;
}

/** Median ms per program of `session.eval(source(p), options)`, after one warm-up run each. */
function timeSession(
  session: ReturnType<typeof createSession>,
  programs: { id: string; lisp: string }[],
  source: (lisp: string) => string,
  options: EvalOptions,
  repeat: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of programs) {
    const src = source(p.lisp);
    const times: number[] = [];
    for (let i = -1; i < repeat; i++) {
      const t0 = performance.now();
      const r = session.eval(src, options);
      if (i >= 0) times.push(performance.now() - t0);
      if (!r.ok) throw new Error(`ptc failed on program ${p.id}: ${r.reason}: ${r.message}`);
    }
    out[p.id] = median(times);
  }
  return out;
}

/** Median ms per program in-process (`data` passed as a global, converted once). */
export function timePtcApi(
  data: JsonValue | null,
  programs: { id: string; lisp: string }[],
  repeat: number,
): Record<string, number> {
  // One options object for every run: the language converts `globals` once per object (the warm-up run), as
  // `ptc eval --data` converts the file once.
  const globals: Record<string, JsonValue> = data === null ? {} : { data };
  return timeSession(createSession(), programs, (lisp) => lisp, { globals }, repeat);
}

/**
 * Median ms per program in-process over keyword-keyed maps: the data is converted once with `keywordize-keys` into a
 * session var `kw-data` that each program binds as `data` (the shape nbb's data has), then each program runs `repeat`
 * times. This is the language's best case; the decoded-JSON column is what users run.
 */
export function timePtcKeywords(
  data: JsonValue,
  programs: { id: string; lisp: string }[],
  repeat: number,
): Record<string, number> {
  const session = createSession();
  const conv = session.eval("(def kw-data (keywordize-keys data)) nil", { globals: { data } });
  if (!conv.ok) throw new Error(`ptc keywordize failed: ${conv.reason}: ${conv.message}`);
  return timeSession(session, programs, (lisp) => `(let [data kw-data] ${lisp})`, {}, repeat);
}

/** Median ms per program in plain JavaScript (result serialized, as the others print theirs). */
export function timeJs<D>(data: D, programs: { id: string; js: (d: D) => unknown }[], repeat: number) {
  const out: Record<string, number> = {};
  for (const p of programs) {
    JSON.stringify(p.js(data));
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      JSON.stringify(p.js(data));
      times.push(performance.now() - t0);
    }
    out[p.id] = median(times);
  }
  return out;
}

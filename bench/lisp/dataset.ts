/**
 * Deterministic Observatory-style trace dataset for the Lisp benchmarks (seeded PRNG: same seed, same bytes).
 *
 * Each trace: `id, org_id, model, status, error_class, cost_usd, tokens_in, tokens_out, started_at, duration_ms`
 * and 0–30 `steps` of `{name, kind, duration_ms, cost_usd, payload}` with a 200–2,000-char payload.
 * @module
 */

/** One generated step. */
export interface Step {
  name: string;
  kind: string;
  duration_ms: number;
  cost_usd: number;
  payload: string;
}

/** One generated trace. */
export interface Trace {
  id: string;
  org_id: string;
  model: string;
  status: "ok" | "error";
  error_class: string | null;
  cost_usd: number;
  tokens_in: number;
  tokens_out: number;
  started_at: string;
  duration_ms: number;
  steps: Step[];
}

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODELS = ["gpt-5", "gpt-5-mini", "claude-sonnet", "claude-haiku", "gemini-pro", "llama-70b"];
const ERROR_CLASSES = ["timeout", "rate_limited", "tool_error", "invalid_response", "upstream_unavailable"];
const KINDS = ["llm", "tool", "retrieval", "parse", "guardrail", "cache"];
const NAMES = ["plan", "search", "fetch", "summarize", "rank", "answer", "validate", "embed"];
const WORDS = ("the a request response token model tool call result user agent query search index cache retry " +
  "latency budget stream chunk error ok json field value record trace span step upstream server client " +
  "payload header status filter map reduce group sort count total window batch").split(" ");
/** The phrase program (f) searches for; it appears in roughly 1 of 200 payloads. */
export const NEEDLE = "deadline exceeded";

/** Generates `n` traces from `seed`. */
export function generateTraces(n: number, seed = 42): Trace[] {
  const rnd = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const money = (max: number) => Math.round(rnd() * max * 1e6) / 1e6;
  const payload = () => {
    const len = int(200, 2000);
    const parts: string[] = [];
    let size = 0;
    if (rnd() < 0.005) {
      parts.push(NEEDLE);
      size += NEEDLE.length + 1;
    }
    while (size < len) {
      const w = pick(WORDS);
      parts.push(w);
      size += w.length + 1;
    }
    return parts.join(" ").slice(0, len);
  };
  const start = Date.UTC(2026, 0, 1);
  const traces: Trace[] = [];
  for (let i = 0; i < n; i++) {
    const failed = rnd() < 0.15;
    const steps: Step[] = [];
    const nSteps = int(0, 30);
    for (let s = 0; s < nSteps; s++) {
      steps.push({
        name: pick(NAMES),
        kind: pick(KINDS),
        duration_ms: int(1, 5_000),
        cost_usd: money(0.05),
        payload: payload(),
      });
    }
    traces.push({
      id: `tr-${String(i + 1).padStart(6, "0")}`,
      org_id: `org-${int(1, 25)}`,
      model: pick(MODELS),
      status: failed ? "error" : "ok",
      error_class: failed ? pick(ERROR_CLASSES) : null,
      cost_usd: money(2),
      tokens_in: int(50, 20_000),
      tokens_out: int(10, 4_000),
      started_at: new Date(start + int(0, 90 * 86_400) * 1000).toISOString(),
      duration_ms: int(20, 120_000),
      steps,
    });
  }
  return traces;
}

/** Writes `n` traces as one JSON array to `path` (streamed trace by trace: large sizes do not need one big string). */
export async function writeTraces(path: string, n: number, seed = 42): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    const enc = new TextEncoder();
    const traces = generateTraces(n, seed);
    await file.write(enc.encode("["));
    for (let i = 0; i < traces.length; i++) {
      await file.write(enc.encode((i === 0 ? "" : ",\n") + JSON.stringify(traces[i])));
    }
    await file.write(enc.encode("]\n"));
  } finally {
    file.close();
  }
}

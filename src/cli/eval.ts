/**
 * `ptc eval`: evaluate PTC-Lisp programs in the sandbox and print the results (text, JSON, or JSON lines).
 *
 * Programs run through the engine: with `--upstreams-config` (or PTC_UPSTREAMS) an upstream starts when a program
 * first uses it (unless the config says `start: "background"`), so a program that calls none never waits for one and
 * a broken upstream fails only the calls to it; every evaluation gets a fresh run context. Without a config, programs
 * can use the language but call no tools.
 * @module
 */
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../core/json_depth.ts";
import {
  locateConfig,
  processAllowsWrites,
  processApprovesWrites,
  processReadOnly,
} from "../upstream/config_location.ts";
import { approveAll } from "../upstream/approval.ts";
import type { JsonObject, JsonValue } from "../core/json.ts";
import { createEngine, EngineStartError } from "../engine/engine.ts";
import type { Engine, EngineEvalResult } from "../engine/types.ts";
import { writesLine, writesOf } from "../engine/writes.ts";
import { payloadMetrics } from "../mcp/metrics.ts";
import { answerText } from "../engine/results.ts";
import {
  LIMIT_FLAG_OPTIONS,
  LimitFlagError,
  limitsFromFlags,
  limitsUsage,
  type SandboxLimits,
} from "../sandbox/mod.ts";
import { TransportRegistry } from "../upstream/registry.ts";
import { intFlag, parseFlags, UsageError, usageError } from "./usage.ts";
import {
  openJournal,
  RECORD_REPLAY_USAGE,
  RecordingError,
  type RecordReplay,
  recordReplayChoice,
} from "./record_replay.ts";

/** The flags of `ptc eval` (also read by `ptc permissions eval`). */
export const EVAL_OPTIONS = {
  format: { type: "string" },
  jsonl: { type: "boolean" },
  data: { type: "string" },
  context: { type: "string" },
  repeat: { type: "string" },
  file: { type: "string", short: "f" },
  "upstreams-config": { type: "string" },
  "read-only": { type: "boolean" },
  "allow-writes": { type: "boolean" },
  "approve-writes": { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  record: { type: "string" },
  replay: { type: "string" },
  help: { type: "boolean", short: "h" },
  ...LIMIT_FLAG_OPTIONS,
} as const;

/** Usage text of `ptc eval`. */
export function evalUsage(): string {
  return [
    "Usage: ptc eval [options] [PROGRAM | -f FILE | -]",
    "",
    "Evaluate a PTC-Lisp program (PROGRAM text, a file, or `-` for stdin) in the sandbox.",
    "",
    "Options:",
    "  --format text|json        text (default): println output, then the value (a nil value after println",
    "                            output is not repeated, as after (doc …)); errors on stderr as `reason: message`.",
    "                            json: one object {ok, printed, value, prints, elapsed_ms}",
    "                            or {ok:false, reason, message, line?, column?}",
    "  --jsonl                   read one JSON-encoded program string per stdin line, write one JSON object per",
    "                            line (exit 0 once every line is answered; failures are in the objects)",
    "  --data FILE               JSON (or JSON lines → vector) bound to the symbol `data`",
    "  --context FILE            JSON object whose keys become `data/<key>`",
    "  --repeat N                evaluate N times in one process; elapsed_ms is the median (evaluation only)",
    "  -f, --file FILE           read the program from FILE",
    "  --upstreams-config F      upstream config (JSONC) whose tools the program may call; env PTC_UPSTREAMS",
    "  --read-only               hide and refuse every write tool; env PTC_READ_ONLY",
    "  --allow-writes            install write tools the config allows (allow_writes); env PTC_ALLOW_WRITES",
    "  --approve-writes          every write needs a person's approval (as the config's approve_writes); ptc eval",
    "                            has no one to ask, so writes end :approval_unavailable unless --yes;",
    "                            env PTC_APPROVE_WRITES",
    "  -y, --yes                 approve every write of this run up front (under approval)",
    ...RECORD_REPLAY_USAGE,
    ...limitsUsage(),
    "  -h, --help                show this help",
    "",
    "Exit codes: 0 ok, 1 program error (including `(fail v)`), 2 usage error.",
  ].join("\n");
}

interface EvalPlan {
  format: "text" | "json";
  jsonl: boolean;
  repeat: number;
  source?: string;
  globals?: Record<string, JsonValue>;
  context?: JsonObject;
  limits: Partial<SandboxLimits>;
  upstreamsConfig?: string;
  readOnly: boolean;
  allowWrites: boolean;
  approveWrites: boolean;
  /** `--yes`: the operator approved this run's writes up front. */
  yes: boolean;
  recordReplay: RecordReplay;
}

/** Entry point of `ptc eval`. */
export function run(args: string[]): Promise<number> {
  return runEval(args, async () => (await import("../../transports/mod.ts")).registerBuiltins());
}

/**
 * The transports an evaluation needs: none when no config will be read and nothing is recorded or replayed (the
 * transports' modules, MCP SDK and OpenAPI tooling included, are then never loaded: start-up of `ptc eval` on data).
 */
async function registryFor(
  plan: EvalPlan,
  registry: TransportRegistry | (() => Promise<TransportRegistry>),
): Promise<TransportRegistry> {
  if (typeof registry !== "function") return registry;
  const bare = !("record" in plan.recordReplay) && !("replay" in plan.recordReplay);
  return bare && locateConfig(plan.upstreamsConfig) === undefined ? new TransportRegistry() : await registry();
}

/** `ptc eval` with the transports of `registry` (or of its loader, called only when needed); returns the exit code. */
export async function runEval(
  args: string[],
  registryOrLoader: TransportRegistry | (() => Promise<TransportRegistry>),
): Promise<number> {
  let plan: EvalPlan;
  try {
    const parsed = await planFromArgs(args);
    if (parsed === "help") {
      console.log(evalUsage());
      return 0;
    }
    plan = parsed;
  } catch (e) {
    if (e instanceof UsageError || e instanceof LimitFlagError) return usageError(e.message, evalUsage(), "eval");
    if (e instanceof InputError) {
      console.error(`ptc eval: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let engine: Engine;
  try {
    const registry = await registryFor(plan, registryOrLoader);
    const journal = await openJournal(plan.recordReplay, (m) => console.error(`ptc eval: ${m}`), "eval");
    engine = await createEngine({
      journal,
      registry,
      upstreamsConfig: plan.upstreamsConfig,
      readOnly: plan.readOnly,
      allowWrites: plan.allowWrites,
      upstreamStart: "first_use",
      approveWrites: plan.approveWrites,
      poolSize: 1,
      limits: plan.limits,
      onWarning: (w) => console.error(`ptc eval: ${w}`),
      onLog: (line) => console.error(line),
    });
  } catch (e) {
    if (e instanceof RecordingError) {
      console.error(`ptc eval: ${e.message}`);
      return 2;
    }
    if (!(e instanceof EngineStartError)) throw e;
    for (const line of e.lines) console.error(`ptc eval: ${line}`);
    return 2;
  }
  try {
    return plan.jsonl ? await runJsonl(engine, plan) : await runOne(engine, plan);
  } catch (e) {
    // The reader of our output went away (`ptc eval … | head`): nothing left to report to.
    if (e instanceof Deno.errors.BrokenPipe) return 0;
    throw e;
  } finally {
    await engine.close();
  }
}

/** A bad input file (missing, unreadable, not JSON): exit 2 with a one-line message. */
class InputError extends Error {}

async function planFromArgs(args: string[]): Promise<EvalPlan | "help"> {
  const { values, positionals } = parseFlags(args, EVAL_OPTIONS);
  if (values.help) return "help";
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError(`--format expects text or json, got '${format}'`);
  }
  const jsonl = values.jsonl ?? false;
  if (jsonl && values.format === "text") throw new UsageError("--jsonl writes JSON objects; drop --format text");
  const repeat = intFlag("repeat", values.repeat, 1, 1_000_000) ?? 1;
  const limits = limitsFromFlags(values);
  const recordReplay = recordReplayChoice(values.record, values.replay);
  if (typeof recordReplay === "string") throw new UsageError(recordReplay);
  if (positionals.length > 1) {
    throw new UsageError(`expected one program, got ${positionals.length} arguments (quote the program)`);
  }
  let source: string | undefined;
  if (jsonl) {
    if (positionals.length > 0 || values.file) throw new UsageError("--jsonl reads its programs from stdin");
  } else if (values.file !== undefined) {
    if (positionals.length > 0) throw new UsageError("give the program either as an argument or with -f, not both");
    source = await readInput(values.file, "-f");
  } else if (positionals.length === 1) {
    source = positionals[0] === "-" ? await new Response(Deno.stdin.readable).text() : positionals[0];
  } else {
    throw new UsageError("no program given (PROGRAM, -f FILE, or - for stdin)");
  }
  const globals = values.data !== undefined
    ? {
      data: shallowEnough(parseDataFile(values.data, await readInput(values.data, "--data")), `--data ${values.data}`),
    }
    : undefined;
  let context: JsonObject | undefined;
  if (values.context !== undefined) {
    const what = `--context ${values.context}`;
    const parsed = shallowEnough(parseJson(await readInput(values.context, "--context"), what), what);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new InputError(`--context ${values.context}: expected a JSON object (its keys become data/<key>)`);
    }
    context = parsed;
  }
  return {
    format,
    jsonl,
    repeat,
    source,
    globals,
    context,
    limits,
    upstreamsConfig: values["upstreams-config"],
    readOnly: processReadOnly(values["read-only"]),
    allowWrites: processAllowsWrites(values["allow-writes"]),
    approveWrites: processApprovesWrites(values["approve-writes"]),
    yes: values.yes === true,
    recordReplay,
  };
}

/**
 * `value` when it nests at most `MAX_RESPONSE_DEPTH` levels (the bound tool results have); deeper data would end in an
 * engine stack error far from its cause.
 */
function shallowEnough(value: JsonValue, what: string): JsonValue {
  if (nestsDeeperThan(value, MAX_RESPONSE_DEPTH)) {
    throw new InputError(`${what}: arrays and objects nest deeper than ${MAX_RESPONSE_DEPTH} levels; flatten the data`);
  }
  return value;
}

async function readInput(path: string, flag: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "no such file" : e instanceof Error ? e.message : String(e);
    throw new InputError(`cannot read ${flag} '${path}': ${why}`);
  }
}

function parseJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${what}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** A JSON document, or JSON lines (one value per non-empty line) which become a vector. */
function parseDataFile(path: string, text: string): JsonValue {
  if (!path.endsWith(".jsonl") && !path.endsWith(".ndjson")) {
    try {
      return JSON.parse(text);
    } catch (e) {
      if (!text.trim().includes("\n")) {
        throw new InputError(`--data ${path}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
      }
    }
  }
  const out: JsonValue[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    out.push(parseJson(line, `--data ${path}: line ${i + 1}`));
  });
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Evaluate `plan.repeat` times; the last result with the median evaluation time. */
async function evaluateRepeated(
  engine: Engine,
  source: string,
  plan: EvalPlan,
): Promise<{ result: EngineEvalResult; elapsedMs: number; runs: number }> {
  const times: number[] = [];
  let result: EngineEvalResult | undefined;
  for (let i = 0; i < plan.repeat; i++) {
    result = await engine.evaluate({
      program: source,
      globals: plan.globals,
      context: plan.context,
      ...(plan.yes ? { approver: approveAll } : {}),
    });
    times.push(result.evalMs ?? result.elapsedMs);
    if (!result.ok) break;
  }
  return { result: result!, elapsedMs: Math.round(median(times) * 1000) / 1000, runs: times.length };
}

/** The JSON-format object of one evaluation. */
function jsonObject(result: EngineEvalResult, elapsedMs: number, runs: number): Record<string, JsonValue> {
  if (result.ok && result.status !== "failed") {
    const out: Record<string, JsonValue> = {
      ok: true,
      printed: result.printed,
      value: result.json,
      prints: result.prints,
      elapsed_ms: elapsedMs,
    };
    if (result.status === "returned") out.status = "returned";
    if (runs > 1) out.runs = runs;
    if (result.budgetRefusals) out.budget_exhausted = result.budgetRefusals;
    return withMetrics(withWrites(out, result), result, [...result.prints, result.printed].join("\n"));
  }
  const out: Record<string, JsonValue> = result.ok
    ? { ok: false, reason: "fail", message: result.printed, value: result.json }
    : { ok: false, reason: result.reason, message: result.message };
  if (!result.ok && result.line !== undefined) out.line = result.line;
  if (!result.ok && result.column !== undefined) out.column = result.column;
  if (result.prints.length > 0) out.prints = result.prints;
  if (result.budgetRefusals) out.budget_exhausted = result.budgetRefusals;
  const text = result.ok ? result.printed : result.message;
  return withMetrics(withWrites(out, result), result, [...result.prints, text].join("\n"));
}

/**
 * `metrics`: what the upstreams returned against what the answer needs (bytes, the reduction ratio, token estimates),
 * the same object as `ptc mcp`'s debug `ptc_metrics`; only when the run called an upstream.
 */
function withMetrics(out: Record<string, JsonValue>, result: EngineEvalResult, answer: string) {
  if (result.calls.length > 0) out.metrics = payloadMetrics(result.calls, answer) as unknown as JsonValue;
  return out;
}

/** `writes`: `[{server, tool, mutation_state}]` when the run called write tools (as the MCP envelope's field). */
function withWrites(out: Record<string, JsonValue>, result: EngineEvalResult): Record<string, JsonValue> {
  const writes = writesOf(result.calls);
  if (writes.length > 0) out.writes = writes;
  return out;
}

async function runOne(engine: Engine, plan: EvalPlan): Promise<number> {
  const { result, elapsedMs, runs } = await evaluateRepeated(engine, plan.source!, plan);
  const success = result.ok && result.status !== "failed";
  if (plan.format === "json") {
    await writeOut(JSON.stringify(jsonObject(result, elapsedMs, runs)) + "\n");
    return success ? 0 : 1;
  }
  const lines = result.prints.map((l) => l + "\n").join("");
  // A budget refused a call: the answer may be partial even though the program returned (stderr, like errors).
  if (result.budgetRefusals) console.error(`warning: budget exhausted — ${result.budgetRefusals.join("; ")}`);
  if (success) {
    // Like `clojure -e`: a program that printed (`doseq` + `println`) and returned nil shows only its output.
    const quietNil = result.ok && result.printed === "nil" && result.prints.length > 0;
    await writeOut(lines + (quietNil ? "" : (result.ok ? answerText(result.printed, result.json) : "") + "\n"));
  } else {
    await writeOut(lines);
    console.error(result.ok ? `fail: ${result.printed}` : `${result.reason}: ${result.message}`);
  }
  // What the program changed, on stderr like the budget warning (stdout stays the answer).
  const writes = writesLine(result.calls);
  if (writes) console.error(writes);
  if (plan.repeat > 1) console.error(`elapsed_ms: ${elapsedMs} (median of ${runs} runs)`);
  return success ? 0 : 1;
}

async function runJsonl(engine: Engine, plan: EvalPlan): Promise<number> {
  let lineNo = 0;
  for await (const line of readLines(Deno.stdin.readable)) {
    lineNo++;
    if (line.trim() === "") continue;
    let source: unknown;
    try {
      source = JSON.parse(line);
    } catch {
      source = undefined;
    }
    let out: Record<string, JsonValue>;
    if (typeof source !== "string") {
      out = {
        ok: false,
        reason: "invalid_input",
        message: `stdin line ${lineNo}: expected a JSON-encoded program string`,
      };
    } else {
      const { result, elapsedMs, runs } = await evaluateRepeated(engine, source, plan);
      out = jsonObject(result, elapsedMs, runs);
    }
    await writeOut(JSON.stringify(out) + "\n");
  }
  return 0;
}

async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffered = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      yield buffered.slice(0, nl).replace(/\r$/, "");
      buffered = buffered.slice(nl + 1);
    }
  }
  if (buffered !== "") yield buffered;
}

const encoder = new TextEncoder();
async function writeOut(text: string): Promise<void> {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

/**
 * What `ptc view` shows of one evaluation, whatever it came from: a recording's evaluation file, the audit log's
 * `eval` and `call` lines, or a running server's recent evaluations (`ptc mcp --view`). Each source is mapped to
 * one `ViewRun`; the pages read nothing else.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { RecordedEvaluation, RecordedUpstreamCall, RecordingManifest } from "../engine/recording_format.ts";
import type { CallRecord, EngineEvalResult } from "../engine/types.ts";
import { writesOf } from "../engine/writes.ts";

/** Where a run came from. */
export type RunSource = "recording" | "audit" | "live";

/** One upstream call of a run: a row of the waterfall. */
export interface ViewCall {
  server: string;
  tool: string;
  effect?: "read" | "write";
  /** Ms from the run's start to the call's dispatch (absent in version 1 recordings). */
  startMs?: number;
  durationMs?: number;
  status: "ok" | "error";
  reason?: string;
  /** Bytes the upstream answered. */
  bytes?: number;
  mutationState?: string;
  /** Under write approval: how the person answered. */
  approval?: string;
  /** The call's arguments (redacted; recordings and live runs only). */
  args?: JsonValue;
}

/** A write of a run and what it did. */
export interface ViewWrite {
  server: string;
  tool: string;
  mutation_state: string;
  /** Under write approval: how the person answered (`accepted`, `declined`, `cancelled`, `unavailable`). */
  approval?: string;
}

/** What a run used of its budgets. */
export interface ViewUsage {
  toolCalls: number;
  writeCalls: number;
  discoveryOps: number;
  budgetRefusals?: string[];
}

/** One evaluation as the pages show it. */
export interface ViewRun {
  /** Unique within the view: the source's prefix and the evaluation's own id. */
  id: string;
  source: RunSource;
  /** The recording directory or audit log file (empty for live runs). */
  where: string;
  /** ISO 8601 start (recordings, live) or log time (audit). */
  time: string;
  face?: string;
  owner?: string;
  /** `lisp_eval`, `lisp_session_eval` (audit, live). */
  tool?: string;
  ok: boolean;
  /** `ok`, `returned`, `failed`, or the reason code. */
  outcome: string;
  message?: string;
  durationMs?: number;
  /** Bytes the upstreams answered, all calls together. */
  upstreamBytes: number;
  /** Bytes of the answer: the printed value (recordings, live) or the tool result sent (audit). */
  answerBytes?: number;
  program?: string;
  programSha?: string;
  prints?: string[];
  answer?: string;
  calls: ViewCall[];
  writes: ViewWrite[];
  usage?: ViewUsage;
  /** The budgets in force (`maxToolCalls`, `maxWriteCalls`, `maxCatalogOps`, …). */
  limits?: Record<string, number>;
  /** Server name → snapshot identity of the catalog the run saw. */
  snapshots?: Record<string, string>;
  /** Set when the program, prints and answer are withheld from this viewer (another owner's, live mode). */
  hidden?: boolean;
}

const encoder = new TextEncoder();
const utf8 = (s: string | undefined) => (s === undefined ? undefined : encoder.encode(s).length);

/** The numeric limits of a manifest or run (`maxToolCalls` …), anything else left out. */
function numericLimits(limits: JsonObject | Record<string, unknown> | undefined): Record<string, number> | undefined {
  if (!limits) return undefined;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(limits)) if (typeof v === "number") out[k] = v;
  return out;
}

/** A recorded call as a waterfall row. */
function recordedCall(c: RecordedUpstreamCall): ViewCall {
  const r = c.result;
  const mutation = c.effect === "write" ? (r.ok ? "applied" : r.mutation_state) : undefined;
  return {
    server: c.server,
    tool: c.tool,
    effect: c.effect,
    startMs: c.start_ms,
    durationMs: c.duration_ms,
    status: c.status ?? (r.ok ? "ok" : "error"),
    ...(r.ok ? {} : { reason: r.reason }),
    bytes: r.bytes,
    ...(mutation ? { mutationState: mutation } : {}),
    args: c.args,
  };
}

/** A recording's evaluation file as a run (`index` tells recordings apart when several are open). */
export function runFromRecording(
  ev: RecordedEvaluation,
  manifest: RecordingManifest,
  index: number,
  dir: string,
): ViewRun {
  const calls = ev.calls.map(recordedCall);
  const o = ev.outcome;
  return {
    id: `r${index}-${ev.sequence}`,
    source: "recording",
    where: dir,
    time: ev.started,
    face: ev.face,
    owner: ev.owner,
    ok: o.ok && o.status !== "failed",
    outcome: o.ok ? o.status ?? "ok" : o.reason ?? "error",
    message: o.message,
    durationMs: ev.duration_ms,
    upstreamBytes: calls.reduce((n, c) => n + (c.bytes ?? 0), 0),
    answerBytes: utf8(o.printed),
    program: ev.program,
    programSha: ev.program_sha256,
    prints: ev.prints,
    answer: o.printed,
    calls,
    // Version 1 files carry no writes list: the recorded write calls stand for it.
    writes: ev.writes ??
      calls.filter((c) => c.effect === "write").map((c) => ({
        server: c.server,
        tool: c.tool,
        mutation_state: c.mutationState ?? "not recorded",
      })),
    usage: ev.usage
      ? {
        toolCalls: ev.usage.tool_calls,
        writeCalls: ev.usage.write_calls,
        discoveryOps: ev.usage.discovery_ops,
        budgetRefusals: ev.usage.budget_refusals,
      }
      : undefined,
    limits: numericLimits(manifest.limits),
    snapshots: ev.snapshots ??
      Object.fromEntries(manifest.servers.filter((s) => s.snapshot).map((s) => [s.name, s.snapshot!])),
  };
}

/** A call record of a run (live mode) as a waterfall row. */
function liveCall(c: CallRecord): ViewCall {
  return {
    server: c.server,
    tool: c.tool,
    ...(c.mutation_state !== undefined ? { effect: "write" as const, mutationState: c.mutation_state } : {}),
    startMs: c.start_ms,
    durationMs: c.duration_ms,
    status: c.status,
    reason: c.reason,
    bytes: c.bytes,
    args: c.args,
  };
}

/** What a running server knows of one evaluation (`ptc mcp --view`). */
export interface LiveFacts {
  seq: number;
  time: string;
  face: string;
  owner: string;
  tool: string;
  program?: string;
  /** The engine result (redacted), absent when the request was refused before it ran. */
  result?: EngineEvalResult;
  /** The reason of an error response (MCP-level reasons too). */
  responseReason?: string;
  answerBytes: number;
  elapsedMs: number;
  limits?: Record<string, unknown>;
  snapshots: Record<string, string>;
}

/** A running server's evaluation as a run. */
export function runFromLive(f: LiveFacts): ViewRun {
  const r = f.result;
  const calls = (r?.calls ?? []).map(liveCall);
  const reason = f.responseReason ?? (r && !r.ok ? r.reason : undefined);
  return {
    id: `l${f.seq}`,
    source: "live",
    where: "",
    time: f.time,
    face: f.face,
    owner: f.owner,
    tool: f.tool,
    ok: reason === undefined && r !== undefined && (!r.ok || r.status !== "failed"),
    outcome: reason ?? (r?.ok ? r.status : "error"),
    message: r && !r.ok ? r.message : undefined,
    durationMs: f.elapsedMs,
    upstreamBytes: calls.reduce((n, c) => n + (c.bytes ?? 0), 0),
    answerBytes: f.answerBytes,
    program: f.program,
    prints: r?.prints,
    answer: r?.ok ? r.printed : undefined,
    calls,
    writes: writesOf(r?.calls ?? []),
    usage: r
      ? {
        toolCalls: r.calls.length,
        writeCalls: r.calls.filter((c) => c.mutation_state !== undefined).length,
        discoveryOps: r.discoveryOps ?? 0,
        budgetRefusals: r.budgetRefusals,
      }
      : undefined,
    limits: numericLimits(f.limits),
    snapshots: f.snapshots,
  };
}

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/** An audit `call` line as a waterfall row. */
function auditCall(line: JsonObject): ViewCall {
  return {
    server: str(line.server) ?? "(not in the catalog)",
    tool: str(line.tool) ?? "(not in the catalog)",
    effect: line.effect === "write" || line.effect === "read" ? line.effect : undefined,
    startMs: num(line.start_ms),
    durationMs: num(line.ms),
    status: line.status === "ok" ? "ok" : "error",
    reason: str(line.reason),
    bytes: num(line.bytes_in),
    mutationState: str(line.mutation_state),
    ...(str(line.approval) ? { approval: str(line.approval) } : {}),
  };
}

/** An audit `eval` line and its `call` lines (in `seq` order) as a run (`index` tells log files apart). */
export function runFromAudit(evalLine: JsonObject, callLines: JsonObject[], index: number, file: string): ViewRun {
  const calls = [...callLines].sort((a, b) => (num(a.seq) ?? 0) - (num(b.seq) ?? 0)).map(auditCall);
  const snapshots = evalLine.snapshots !== null && typeof evalLine.snapshots === "object" &&
      !Array.isArray(evalLine.snapshots)
    ? Object.fromEntries(Object.entries(evalLine.snapshots).filter(([, v]) => typeof v === "string")) as Record<
      string,
      string
    >
    : undefined;
  const ok = evalLine.outcome === "ok";
  return {
    id: `a${index}-${str(evalLine.eval_id) ?? "?"}`,
    source: "audit",
    where: file,
    time: str(evalLine.time) ?? "",
    face: str(evalLine.face),
    owner: str(evalLine.owner),
    tool: str(evalLine.tool),
    ok,
    outcome: ok ? "ok" : str(evalLine.reason) ?? "error",
    durationMs: num(evalLine.elapsed_ms),
    upstreamBytes: num(evalLine.upstream_bytes_in) ?? 0,
    answerBytes: num(evalLine.answer_bytes),
    programSha: str(evalLine.program_sha256),
    calls,
    writes: calls.filter((c) => c.mutationState !== undefined).map((c) => ({
      server: c.server,
      tool: c.tool,
      mutation_state: c.mutationState!,
      ...(c.approval ? { approval: c.approval } : {}),
    })),
    usage: {
      toolCalls: num(evalLine.upstream_calls) ?? calls.length,
      writeCalls: num(evalLine.writes) ?? 0,
      discoveryOps: num(evalLine.discovery_ops) ?? 0,
    },
    snapshots,
  };
}

/** The most calls of a run in flight at once (from the start offsets and durations; 0 when they are unknown). */
export function peakConcurrency(calls: ViewCall[]): number {
  const edges: [number, number][] = [];
  for (const c of calls) {
    if (c.startMs === undefined || c.durationMs === undefined) continue;
    edges.push([c.startMs, 1], [c.startMs + c.durationMs, -1]);
  }
  // Ends sort before starts at the same instant: back-to-back calls are not concurrent.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, now += d);
  return peak;
}

/**
 * What the audit log says about an evaluation: the mapping from an engine result and the response sent to the client
 * to one `eval` line and one `call` line per upstream call, and the `denied` line of a request refused at the HTTP
 * face. docs/mcp-server.md ("Audit log") has the table of every field.
 *
 * Redacted by construction: no line carries anything a client, a program or an upstream wrote — no program text, no
 * arguments, no values, no error messages. Programs and arguments appear as SHA-256 digests; names appear only when
 * they are in the catalog (operator-configured servers and their tools); reasons only when they have the shape of a
 * reason code (`[a-z][a-z0-9_]*`, ≤ 64); every string is bounded and every line is cut to `MAX_LINE_BYTES`.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { CallRecord, CatalogServer, EngineEvalResult } from "../engine/types.ts";
import { utf8Bytes } from "./metrics.ts";
import { canonicalJson, sha256Hex } from "../core/digest.ts";

/** Longest line written (a line over it keeps its shape with every string cut to 32 characters). */
export const MAX_LINE_BYTES = 4096;
/** Longest server or tool name, owner key or client address kept. */
const MAX_NAME_CHARS = 128;

const REASON = /^[a-z][a-z0-9_]{0,63}$/;

/** A reason code as logged: the code itself, or `other` when the text is not shaped like one. */
export function reasonCode(reason: string | undefined | null): string | null {
  if (reason === undefined || reason === null) return null;
  return REASON.test(reason) ? reason : "other";
}

/** Digest of a call's (already redacted) arguments; null when they cannot be serialized (nested too deep). */
export async function argsDigest(args: JsonValue): Promise<string | null> {
  try {
    return await sha256Hex(canonicalJson(args));
  } catch {
    return null;
  }
}

function bound(text: string, max = MAX_NAME_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The catalog's servers and tools with their effects: the only names a line may carry. */
export class ToolIndex {
  readonly #servers = new Set<string>();
  readonly #effects = new Map<string, "read" | "write">();

  /** `snapshots`: server name → snapshot identity of its compiled catalog, carried by every `eval` line. */
  constructor(catalog: CatalogServer[], readonly snapshots: Record<string, string> = {}) {
    for (const s of catalog) {
      this.#servers.add(s.name);
      for (const t of s.tools) this.#effects.set(`${s.name}\u0000${t.name}`, t.effect);
    }
  }

  /** The server name when it is configured, else null. */
  server(name: string): string | null {
    return this.#servers.has(name) ? bound(name) : null;
  }

  /** The tool's effect when the catalog lists it, else undefined. */
  effect(server: string, tool: string): "read" | "write" | undefined {
    return this.#effects.get(`${server}\u0000${tool}`);
  }
}

/** Who asked for an evaluation and through which tool. */
export interface EvalSubject {
  /** `stdio` or `http`. */
  face: string;
  /** The owner key: `local`, or `token:<12 hex>` (and `@client` behind `--trusted-proxy`) over HTTP. */
  owner: string;
  /** The ptc session (`lisp_session_eval`), when the session exists. */
  sessionId?: string;
  /** `lisp_eval` or `lisp_session_eval`. */
  tool: string;
}

/** One evaluation as the audit trail saw it. */
export interface EvalFacts {
  evalId: string;
  time: string;
  subject: EvalSubject;
  /** The program argument as received (any JSON: an args_error may be about its type). */
  program: unknown;
  elapsedMs: number;
  /** The engine result, when the evaluation ran. */
  result?: EngineEvalResult;
  /** The reason of the response when it is an error (MCP-level reasons included). */
  responseReason?: string;
  /** UTF-8 bytes of the tool result sent to the client. */
  answerBytes: number;
}

const ms = (n: number) => Math.round(n * 1000) / 1000;

/** UTF-8 bytes of the call's arguments as JSON (what the program asked to send). */
function argBytes(c: CallRecord): number {
  try {
    return utf8Bytes(JSON.stringify(c.args ?? {}));
  } catch {
    return 0;
  }
}

/** The `call` line of one upstream call. */
export async function callLine(c: CallRecord, seq: number, facts: EvalFacts, index: ToolIndex): Promise<JsonObject> {
  const server = index.server(c.server);
  const effect = server === null ? undefined : index.effect(c.server, c.tool);
  return cutLine({
    kind: "call",
    time: facts.time,
    eval_id: facts.evalId,
    seq,
    server,
    tool: effect === undefined ? null : bound(c.tool),
    effect: c.mutation_state !== undefined ? "write" : effect ?? null,
    mutation_state: c.mutation_state ?? null,
    approval: c.approval ?? null,
    status: c.status,
    reason: reasonCode(c.reason),
    ms: ms(c.duration_ms),
    start_ms: c.start_ms === undefined ? null : ms(c.start_ms),
    bytes_in: c.bytes,
    bytes_out: argBytes(c),
    args_sha256: await argsDigest(c.args),
  });
}

/** The outcome of an evaluation: ok, or error with its reason code (`fail` for a program's `(fail v)`). */
function outcome(facts: EvalFacts): { outcome: "ok" | "error"; reason: string | null } {
  if (facts.responseReason !== undefined) return { outcome: "error", reason: reasonCode(facts.responseReason) };
  const r = facts.result;
  if (r === undefined) return { outcome: "error", reason: "other" };
  if (!r.ok) return { outcome: "error", reason: reasonCode(r.reason) };
  return r.status === "failed" ? { outcome: "error", reason: "fail" } : { outcome: "ok", reason: null };
}

/** The `call` lines of an evaluation followed by its `eval` line. */
export async function evaluationLines(facts: EvalFacts, index: ToolIndex): Promise<JsonObject[]> {
  const calls = facts.result?.calls ?? [];
  const program = typeof facts.program === "string" ? facts.program : undefined;
  const lines = await Promise.all(calls.map((c, i) => callLine(c, i + 1, facts, index)));
  lines.push(cutLine({
    kind: "eval",
    time: facts.time,
    eval_id: facts.evalId,
    face: facts.subject.face,
    owner: bound(facts.subject.owner, 256),
    session_id: facts.subject.sessionId ?? null,
    tool: facts.subject.tool,
    program_sha256: program === undefined ? null : await sha256Hex(program),
    program_bytes: program === undefined ? null : utf8Bytes(program),
    ...outcome(facts),
    elapsed_ms: ms(facts.elapsedMs),
    upstream_calls: calls.length,
    upstream_bytes_in: calls.reduce((n, c) => n + c.bytes, 0),
    upstream_bytes_out: calls.reduce((n, c) => n + argBytes(c), 0),
    writes: calls.filter((c) => c.mutation_state !== undefined).length,
    discovery_ops: facts.result?.discoveryOps ?? 0,
    answer_bytes: facts.answerBytes,
    snapshots: index.snapshots,
  }));
  return lines;
}

/** A request the HTTP face refused before it reached a tool. */
export interface Denial {
  /** HTTP status: 401 (no or wrong token), 429 (blocked after failures), 403 (Host or Origin refused). */
  status: number;
  /** `unauthorized`, `rate_limited` or `forbidden`. */
  reason: string;
  /** The client address (the socket peer, or the forwarded client behind a trusted proxy). */
  client: string;
}

/** The `denied` line of a refused request; `suppressed` counts denials left out before it (rate cap). */
export function deniedLine(d: Denial, time: string, suppressed: number): JsonObject {
  return cutLine({
    kind: "denied",
    time,
    face: "http",
    client: bound(d.client, 64),
    status: d.status,
    reason: reasonCode(d.reason),
    suppressed,
  });
}

/** `line`, or when its JSON passes `MAX_LINE_BYTES` the same fields with every string cut and `truncated: true`. */
export function cutLine(line: JsonObject): JsonObject {
  if (utf8Bytes(JSON.stringify(line)) <= MAX_LINE_BYTES) return line;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(line)) {
    out[k] = typeof v === "string" ? bound(v, 32) : v !== null && typeof v === "object" ? null : v;
  }
  out.truncated = true;
  return out;
}

/**
 * The on-disk format of a recording (`--record DIR` / `--replay DIR`, docs/record-replay.md): `manifest.json` (format
 * name, version, the catalog the upstreams served, the limits in force) and one `NNNNNN-HASH.json` per evaluation
 * (its program, outcome and every upstream call with its result). Reading checks each file against the JSON Schema
 * of its kind and names the file and the key of any problem.
 * @module
 */
import { Validator } from "@cfworker/json-schema";
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolEffect } from "../upstream/types.ts";
import type { CompiledServer } from "../upstream/snapshot_id.ts";
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../core/json_depth.ts";
import { sha256Hex } from "../core/digest.ts";
import { RecordingError } from "./recording_error.ts";

export { RecordingError };

/** `format` of the manifest. */
export const RECORDING_FORMAT = "ptc-recording";
/** `format` of an evaluation file. */
export const EVALUATION_FORMAT = "ptc-recording-evaluation";
/** The format version this ptc writes. */
export const RECORDING_VERSION = 2;
/**
 * The versions this ptc reads; any other is refused. Version 2 added each call's `start_ms`, `duration_ms` and
 * `status`, an evaluation's `duration_ms`, `face`, `snapshots`, `prints`, `usage` and `writes`, and each manifest
 * server's `snapshot`: all optional when reading, so a version 1 recording replays and shows as before.
 */
export const READABLE_VERSIONS: readonly number[] = [1, 2];
/** The manifest's file name inside DIR. */
export const MANIFEST_FILE = "manifest.json";
/** An evaluation file: zero-padded sequence number, the first 12 hex digits of the program's SHA-256. */
export const EVALUATION_FILE = /^(\d{6,})-([0-9a-f]{12})\.json$/;
/** Largest file a replay reads (hostile input is bounded). */
export const MAX_RECORDING_FILE_BYTES = 64 * 1024 * 1024;
/** Most bytes of all the files of a recording a replay reads (it checks every one at start). */
export const MAX_RECORDING_TOTAL_BYTES = 256 * 1024 * 1024;
/** Most evaluation files a replay reads. */
export const MAX_EVALUATIONS = 100_000;

/** The bounds a replay puts on a recording, which a recorder therefore keeps to (tests pass smaller ones). */
export interface RecordingLimits {
  /** Most evaluation files (the manifest is not counted). */
  files: number;
  /** Most bytes of one file. */
  fileBytes: number;
  /** Most bytes of all the files, the manifest included. */
  totalBytes: number;
}

/** The limits of this ptc's replay. */
export const RECORDING_LIMITS: Readonly<RecordingLimits> = Object.freeze({
  files: MAX_EVALUATIONS,
  fileBytes: MAX_RECORDING_FILE_BYTES,
  totalBytes: MAX_RECORDING_TOTAL_BYTES,
});

/**
 * One upstream of the recorded catalog: what discovery (`tool/servers`, `dir`, `doc`, `meta`, `apropos`) reads, and
 * (version 2) its snapshot identity.
 */
export type RecordedServer = CompiledServer & { snapshot?: string };

/** `manifest.json`. */
export interface RecordingManifest {
  format: typeof RECORDING_FORMAT;
  version: number;
  ptc_version: string;
  created: string;
  /** The limits of each evaluation when recorded (`RunLimits`). */
  limits: JsonObject;
  servers: RecordedServer[];
}

/** What a call's upstream answered (before the run's size cap and redaction; stored redacted). */
export type RecordedResult =
  | { ok: true; value: JsonValue; value_kind: "json" | "text" | "none"; bytes?: number }
  | {
    ok: false;
    reason: string;
    message: string;
    bytes?: number;
    /** What the transport knew of a write's fate (`ToolResult.mutationState`). */
    mutation_state?: "not_applied" | "indeterminate";
  };

/** One call that reached an upstream. `args` are the tool's argument names after mapping, redacted. */
export interface RecordedUpstreamCall {
  server: string;
  tool: string;
  args: JsonObject;
  effect: ToolEffect;
  /** A write a person approved before it was sent (`--approve-writes`). */
  approval?: "accepted";
  /** Ms from the evaluation's start to the call's dispatch (version 2). */
  start_ms?: number;
  /** Ms the upstream took to answer (version 2). */
  duration_ms?: number;
  /** Whether the upstream's answer was a value or a failure (version 2; the reason is in `result`). */
  status?: "ok" | "error";
  result: RecordedResult;
}

/** What an evaluation used of its budgets (version 2): every call the program attempted, refused ones included. */
export interface RecordedUsage {
  tool_calls: number;
  write_calls: number;
  discovery_ops: number;
  /** One line per budget that refused something. */
  budget_refusals?: string[];
}

/** One evaluation file. */
export interface RecordedEvaluation {
  format: typeof EVALUATION_FORMAT;
  version: number;
  sequence: number;
  program_sha256: string;
  program: string;
  started: string;
  /** Wall-clock ms of the whole evaluation (version 2). */
  duration_ms?: number;
  /** The face that ran it: `eval`, `mcp` (version 2). */
  face?: string;
  /** Who asked: `ptc mcp`'s owner key, `local` or `token:<12 hex>` (version 2). */
  owner?: string;
  /** Server name → snapshot identity of the catalog it ran against (version 2). */
  snapshots?: Record<string, string>;
  /** How it ended: `status` and `printed` (the value) when it returned, else the reason and message. */
  outcome: { ok: boolean; status?: string; reason?: string; message?: string; printed?: string };
  /** What the program printed (version 2). */
  prints?: string[];
  usage?: RecordedUsage;
  /** The writes it performed and what each did (version 2). */
  writes?: { server: string; tool: string; mutation_state: string; approval?: string }[];
  /** In completion order. */
  calls: RecordedUpstreamCall[];
}

/** The file name of evaluation `sequence` of a program with SHA-256 `hash` (hex). */
export function evaluationFileName(sequence: number, hash: string): string {
  return `${String(sequence).padStart(6, "0")}-${hash.slice(0, 12)}.json`;
}

/** SHA-256 of the program's UTF-8 text, hex. */
export function programHash(program: string): Promise<string> {
  return sha256Hex(program);
}

const head = (format: string) => ({
  format: { const: format },
  version: { type: "integer" },
});

const MANIFEST_SCHEMA = {
  type: "object",
  required: ["format", "version", "ptc_version", "created", "limits", "servers"],
  properties: {
    ...head(RECORDING_FORMAT),
    ptc_version: { type: "string" },
    created: { type: "string" },
    limits: { type: "object" },
    servers: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "transport", "description", "tools", "withheld"],
        properties: {
          snapshot: { type: "string", pattern: "^[0-9a-f]{64}$" },
          name: { type: "string", minLength: 1 },
          transport: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
          description: { type: "string" },
          endpoint: { type: "object" },
          tools: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "description", "inputSchema", "annotations", "effect", "_ptc"],
              properties: {
                name: { type: "string", minLength: 1 },
                description: { type: "string" },
                inputSchema: { type: "object" },
                annotations: { type: "object" },
                effect: { enum: ["read", "write"] },
                _ptc: { type: "object" },
              },
            },
          },
          withheld: { type: "object", additionalProperties: { type: "string" } },
        },
      },
    },
  },
};

const RESULT_SCHEMA = {
  oneOf: [
    {
      type: "object",
      required: ["ok", "value", "value_kind"],
      properties: {
        ok: { const: true },
        value_kind: { enum: ["json", "text", "none"] },
        bytes: { type: "integer", minimum: 0 },
      },
    },
    {
      type: "object",
      required: ["ok", "reason", "message"],
      properties: {
        ok: { const: false },
        reason: { type: "string" },
        message: { type: "string" },
        bytes: { type: "integer", minimum: 0 },
        mutation_state: { enum: ["not_applied", "indeterminate"] },
      },
    },
  ],
};

const EVALUATION_SCHEMA = {
  type: "object",
  required: ["format", "version", "sequence", "program_sha256", "program", "started", "outcome", "calls"],
  properties: {
    ...head(EVALUATION_FORMAT),
    sequence: { type: "integer", minimum: 1 },
    program_sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
    program: { type: "string" },
    started: { type: "string" },
    duration_ms: { type: "number", minimum: 0 },
    face: { type: "string" },
    owner: { type: "string" },
    snapshots: { type: "object", additionalProperties: { type: "string" } },
    outcome: { type: "object", required: ["ok"], properties: { ok: { type: "boolean" } } },
    prints: { type: "array", items: { type: "string" } },
    usage: {
      type: "object",
      properties: {
        tool_calls: { type: "integer", minimum: 0 },
        write_calls: { type: "integer", minimum: 0 },
        discovery_ops: { type: "integer", minimum: 0 },
        budget_refusals: { type: "array", items: { type: "string" } },
      },
    },
    writes: {
      type: "array",
      items: {
        type: "object",
        required: ["server", "tool", "mutation_state"],
        properties: {
          server: { type: "string" },
          tool: { type: "string" },
          mutation_state: { type: "string" },
          approval: { enum: ["accepted", "declined", "cancelled", "unavailable"] },
        },
      },
    },
    calls: {
      type: "array",
      items: {
        type: "object",
        required: ["server", "tool", "args", "effect", "result"],
        properties: {
          server: { type: "string" },
          tool: { type: "string" },
          args: { type: "object" },
          effect: { enum: ["read", "write"] },
          approval: { const: "accepted" },
          start_ms: { type: "number", minimum: 0 },
          duration_ms: { type: "number", minimum: 0 },
          status: { enum: ["ok", "error"] },
          result: RESULT_SCHEMA,
        },
      },
    },
  },
};

const manifestValidator = new Validator(MANIFEST_SCHEMA as never, "2020-12", false);
const evaluationValidator = new Validator(EVALUATION_SCHEMA as never, "2020-12", false);

/** The deepest problem the validator found, as `at /key/path: what`. */
function firstProblem(errors: { instanceLocation: string; error: string }[]): string {
  const deepest = [...errors].sort((a, b) => b.instanceLocation.length - a.instanceLocation.length)[0];
  const at = deepest.instanceLocation.replace(/^#/, "") || "/";
  return `at ${at}: ${deepest.error}`;
}

/** Parse `text` as JSON and check its `format` and `version` before the schema. */
function parseFile(text: string, file: string, format: string, validator: Validator): JsonObject {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new RecordingError(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const obj = doc !== null && typeof doc === "object" && !Array.isArray(doc) ? doc as JsonObject : undefined;
  if (obj?.format !== format) {
    throw new RecordingError(`${file}: not a ptc recording file (expected "format": "${format}")`);
  }
  if (typeof obj.version !== "number" || !READABLE_VERSIONS.includes(obj.version)) {
    throw new RecordingError(
      `${file}: recording format version ${JSON.stringify(obj.version)} is not supported ` +
        `(this ptc reads versions ${READABLE_VERSIONS.join(" and ")}; record again with this ptc)`,
    );
  }
  const verdict = validator.validate(obj);
  if (!verdict.valid) throw new RecordingError(`${file}: malformed recording ${firstProblem(verdict.errors)}`);
  return obj;
}

/** Read and check `manifest.json` (its text `text`, read from `file`). */
export function parseManifest(text: string, file: string): RecordingManifest {
  const manifest = parseFile(text, file, RECORDING_FORMAT, manifestValidator);
  // Comparing catalogs and installing tools walk it recursively: refuse what would overflow the stack there.
  if (nestsDeeperThan(manifest, MAX_RESPONSE_DEPTH)) {
    throw new RecordingError(`${file}: malformed recording: nested deeper than ptc accepts (${MAX_RESPONSE_DEPTH})`);
  }
  return manifest as unknown as RecordingManifest;
}

/** Read and check an evaluation file; its name must agree with its sequence number and program hash. */
export function parseEvaluation(text: string, file: string, name: string): RecordedEvaluation {
  const evaluation = parseFile(text, file, EVALUATION_FORMAT, evaluationValidator) as unknown as RecordedEvaluation;
  const deep = evaluation.calls.findIndex((c) => nestsDeeperThan(c.args, MAX_RESPONSE_DEPTH));
  if (deep >= 0) {
    throw new RecordingError(`${file}: malformed recording at /calls/${deep}/args: nested deeper than ptc accepts`);
  }
  if (evaluationFileName(evaluation.sequence, evaluation.program_sha256) !== name) {
    throw new RecordingError(
      `${file}: the name does not match its sequence ${evaluation.sequence} and program hash ` +
        `(expected ${evaluationFileName(evaluation.sequence, evaluation.program_sha256)})`,
    );
  }
  return evaluation;
}

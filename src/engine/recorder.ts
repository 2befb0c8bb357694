/**
 * `--record DIR`: every evaluation of the engine becomes one file in DIR holding its program, outcome and every
 * upstream call with the upstream's result; `manifest.json` holds the catalog the upstreams served and the limits.
 * Everything is passed through the upstreams' redactor before it is written: no secret reaches the disk. Nothing is
 * written that a replay would refuse: `RecordingBudget` counts the files and bytes of DIR against the replay's limits.
 * @module
 */
import { join, resolve } from "node:path";
import type { Runtime } from "../upstream/runtime.ts";
import type { SecretRedactor } from "../upstream/redact.ts";
import type { ToolResult } from "../upstream/types.ts";
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../core/json_depth.ts";
import type { EvaluationJournal, RunJournal } from "./journal.ts";
import {
  EVALUATION_FILE,
  EVALUATION_FORMAT,
  evaluationFileName,
  MANIFEST_FILE,
  programHash,
  type RecordedEvaluation,
  type RecordedResult,
  type RecordedServer,
  type RecordedUpstreamCall,
  RECORDING_FORMAT,
  RECORDING_LIMITS,
  RECORDING_VERSION,
  RecordingError,
  type RecordingLimits,
  type RecordingManifest,
} from "./recording_format.ts";
import { RecordingBudget, type RecordingUsage } from "./recording_budget.ts";
import type { EngineEvalResult } from "./types.ts";
import type { JsonObject } from "../core/json.ts";
import { canonicalJson } from "../core/digest.ts";
import { fsReason, listRecording, readManifest, recordingUsage } from "./recording_dir.ts";
import { compiledServers } from "../upstream/snapshot_id.ts";
import { writesOf } from "./writes.ts";

/**
 * The recorded form of what a transport answered. A value nested past the runtime's depth limit is recorded as the
 * `invalid_response` the run will make of it (writing it would walk it recursively).
 */
function recordedResult(r: ToolResult): RecordedResult {
  const bytes = r.bytes !== undefined ? { bytes: r.bytes } : {};
  if (r.ok && nestsDeeperThan(r.value, MAX_RESPONSE_DEPTH)) {
    const message =
      `the response nests arrays/objects deeper than ${MAX_RESPONSE_DEPTH} levels; ptc does not decode it`;
    return { ok: false, reason: "invalid_response", message, ...bytes };
  }
  return r.ok ? { ok: true, value: r.value, value_kind: r.valueKind, ...bytes } : {
    ok: false,
    reason: r.reason,
    message: r.message,
    ...bytes,
    ...(r.mutationState ? { mutation_state: r.mutationState } : {}),
  };
}

/** The outcome part of an evaluation file. */
function recordedOutcome(r: EngineEvalResult): RecordedEvaluation["outcome"] {
  return r.ok
    ? { ok: true, status: r.status, printed: r.printed }
    : { ok: false, reason: r.reason, message: r.message };
}

const ms = (n: number) => Math.round(n * 1000) / 1000;

/** What an evaluation used of its budgets, and its writes, from the run's call records (refused calls included). */
export function recordedUsage(r: EngineEvalResult): Pick<RecordedEvaluation, "usage" | "writes"> {
  return {
    usage: {
      tool_calls: r.calls.length,
      write_calls: r.calls.filter((c) => c.mutation_state !== undefined).length,
      discovery_ops: r.discoveryOps ?? 0,
      ...(r.budgetRefusals?.length ? { budget_refusals: r.budgetRefusals } : {}),
    },
    writes: writesOf(r.calls),
  };
}

/** The catalog of a started runtime as the manifest stores it (redacted), each upstream with its snapshot identity. */
export function recordedServers(runtime: Runtime | undefined): RecordedServer[] {
  return compiledServers(runtime);
}

/**
 * Write `text` as `dir/name` through a temporary file, so a reader never sees half a file; false (nothing written)
 * when `name` exists already (another process records into the same directory).
 */
async function writeWhole(dir: string, name: string, bytes: Uint8Array): Promise<boolean> {
  const tmp = join(dir, `.${name}.${crypto.randomUUID()}.tmp`);
  // owner only: a recording holds whole upstream answers
  await Deno.writeFile(tmp, bytes, { mode: 0o600 });
  try {
    await Deno.link(tmp, join(dir, name));
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) return false;
    throw e;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

/** What must be the same for a process to add evaluations to an existing recording. */
function catalogKey(m: Pick<RecordingManifest, "limits" | "servers">): string {
  // The snapshot identity is derived from the rest (and absent from a version 1 manifest).
  const servers = m.servers.map(({ snapshot: _derived, ...rest }) => rest);
  return canonicalJson({ limits: m.limits, servers });
}

/** A recording into one directory (see the module doc). Create with `Recorder.open`. */
export class Recorder implements RunJournal {
  readonly replacesUpstreams = false;
  /** The face recording (`eval`, `mcp`), written into each evaluation file. */
  face?: string;
  #sequence: number;
  #redactor: SecretRedactor | undefined;
  #budget: RecordingBudget;
  /** Server name → snapshot identity of the catalog being recorded. */
  #snapshots: Record<string, string> = {};
  /** Reserved in the budget, not written yet. */
  #pending: RecordingUsage = { files: 0, bytes: 0 };

  private constructor(
    readonly dir: string,
    readonly existing: RecordingManifest | undefined,
    lastSequence: number,
    readonly onError: (message: string) => void,
    readonly ptcVersion: string,
    onDisk: RecordingUsage,
    limits: RecordingLimits,
  ) {
    this.#sequence = lastSequence;
    this.#budget = new RecordingBudget(dir, limits, onDisk);
  }

  /**
   * Record into `dir`: a new directory (created; its parent must exist), an empty one, or one holding a recording,
   * which is added to (an MCP client that restarts its server keeps one recording) provided the catalog and limits
   * are the same (checked when the upstreams have started). Anything else in it is refused. `onError` hears about
   * an evaluation file that could not be written or was not recorded (a limit of the replay, below); `ptcVersion`
   * goes into the manifest. `limits` (tests pass smaller ones) are those of the replay: an evaluation whose file
   * would pass the per-file limit is not recorded, and at the file-count or total-size limit (what DIR held already
   * counts) recording stops — the evaluations still run and answer.
   */
  static async open(
    dir: string,
    onError: (message: string) => void,
    ptcVersion = "unknown",
    limits: RecordingLimits = RECORDING_LIMITS,
  ): Promise<Recorder> {
    const at = resolve(dir);
    const where = `--record ${dir}`;
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.stat(at);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw new RecordingError(`${where}: ${fsReason(e)}`);
    }
    if (!info) {
      try {
        await Deno.mkdir(at, { mode: 0o700 });
      } catch (e) {
        throw new RecordingError(`${where}: cannot create the directory: ${fsReason(e)}`);
      }
      return new Recorder(at, undefined, 0, onError, ptcVersion, { files: 0, bytes: 0 }, limits);
    }
    if (!info.isDirectory) throw new RecordingError(`${where}: not a directory`);
    const names = await listRecording(at, `${where} (record into a new or empty directory, or an earlier recording)`);
    if (names.length === 0) return new Recorder(at, undefined, 0, onError, ptcVersion, { files: 0, bytes: 0 }, limits);
    const manifest = await readManifest(at, where);
    const usage = await recordingUsage(at, names, where);
    const last = names.reduce((m, n) => Math.max(m, Number(EVALUATION_FILE.exec(n)?.[1] ?? 0)), 0);
    return new Recorder(at, manifest, last, onError, ptcVersion, usage, limits);
  }

  /**
   * Write the manifest: the catalog the upstreams serve and the limits of each evaluation. Adding to an earlier
   * recording, check they are the same instead.
   */
  async started(runtime: Runtime | undefined): Promise<void> {
    this.#redactor = runtime?.redactor;
    const servers = recordedServers(runtime);
    this.#snapshots = Object.fromEntries(servers.map((s) => [s.name, s.snapshot!]));
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      ptc_version: this.ptcVersion,
      created: new Date().toISOString(),
      limits: (runtime?.limits ?? {}) as unknown as JsonObject,
      servers,
    };
    const same = (existing: RecordingManifest) => {
      if (catalogKey(existing) !== catalogKey(JSON.parse(JSON.stringify(manifest)))) {
        throw new RecordingError(
          `--record ${this.dir}: it holds a recording of another catalog or other limits (${MANIFEST_FILE} ` +
            "differs from what the upstreams serve now); record into a new directory",
        );
      }
    };
    if (this.existing) return same(this.existing);
    const bytes = new TextEncoder().encode(JSON.stringify(manifest, null, 2) + "\n");
    if (!this.#budget.reserveManifest(bytes.length)) {
      throw new RecordingError(
        `--record ${this.dir}: the catalog's ${MANIFEST_FILE} would hold ${bytes.length} bytes, more than a replay ` +
          `reads in one file (${this.#budget.limits.fileBytes}); record with fewer upstreams or tools`,
      );
    }
    let written: boolean;
    try {
      // Never replacing: another process that opened the same empty DIR may have written its manifest meanwhile.
      written = await writeWhole(this.dir, MANIFEST_FILE, bytes);
    } catch (e) {
      throw new RecordingError(`--record ${this.dir}: cannot write ${MANIFEST_FILE}: ${fsReason(e)}`);
    }
    if (!written) same(await readManifest(this.dir, `--record ${this.dir}`));
  }

  /** Number the evaluation now (files sort in start order) and note every call it makes. */
  async begin(program: string, owner?: string): Promise<EvaluationJournal> {
    let sequence = ++this.#sequence;
    const started = new Date().toISOString();
    const t0 = performance.now();
    const hash = await programHash(program);
    const calls: RecordedUpstreamCall[] = [];
    return {
      intercept: async (call, perform) => {
        const start = performance.now();
        const result = await perform();
        calls.push({
          ...call,
          start_ms: ms(start - t0),
          duration_ms: ms(performance.now() - start),
          status: result.ok ? "ok" : "error",
          result: recordedResult(result),
        });
        return result;
      },
      finish: async (result) => {
        if (this.#budget.stopped) return; // said once, when it stopped
        try {
          // A number another process took meanwhile: the next free one.
          for (let tries = 0; tries < 1000; tries++, sequence = ++this.#sequence) {
            const evaluation: RecordedEvaluation = {
              format: EVALUATION_FORMAT,
              version: RECORDING_VERSION,
              sequence,
              program_sha256: hash,
              program,
              started,
              duration_ms: ms(performance.now() - t0),
              ...(this.face ? { face: this.face } : {}),
              ...(owner ? { owner } : {}),
              snapshots: this.#snapshots,
              outcome: recordedOutcome(result),
              prints: result.prints,
              ...recordedUsage(result),
              calls,
            };
            const text = JSON.stringify(this.#redactor?.redactJson(evaluation) ?? evaluation, null, 2) + "\n";
            const written = await this.#write(sequence, hash, new TextEncoder().encode(text));
            if (written !== "taken") return;
          }
          this.onError(`recording: no free evaluation number in ${this.dir}`);
        } catch (e) {
          this.onError(`recording: cannot write evaluation ${sequence} into ${this.dir}: ${fsReason(e)}`);
        }
      },
    };
  }

  /**
   * Write evaluation `sequence` if the budget has room for it: "written", "refused" (said through `onError` when it
   * is news) or "taken" (another process wrote that number: the budget is counted again from DIR).
   */
  async #write(sequence: number, hash: string, bytes: Uint8Array): Promise<"written" | "refused" | "taken"> {
    const reserved = this.#budget.reserve(`evaluation ${sequence}`, bytes.length);
    if (!reserved.ok) {
      if (reserved.message) this.onError(reserved.message);
      return "refused";
    }
    this.#pending.files++;
    this.#pending.bytes += bytes.length;
    let written = false;
    try {
      written = await writeWhole(this.dir, evaluationFileName(sequence, hash), bytes);
    } finally {
      this.#pending.files--;
      this.#pending.bytes -= bytes.length;
      if (!written) this.#budget.release(bytes.length);
    }
    if (written) return "written";
    const where = `--record ${this.dir}`;
    this.#budget.resync(await recordingUsage(this.dir, await listRecording(this.dir, where), where), this.#pending);
    return "taken";
  }
}

/**
 * `--record DIR`: every evaluation of the engine becomes one file in DIR holding its program, outcome and every
 * upstream call with the upstream's result; `manifest.json` holds the catalog the upstreams served and the limits.
 * Everything is passed through the upstreams' redactor before it is written: no secret reaches the disk.
 * @module
 */
import { join, resolve } from "node:path";
import type { Runtime } from "../upstream/runtime.ts";
import type { SecretRedactor } from "../upstream/redact.ts";
import type { ToolResult } from "../upstream/types.ts";
import { VERSION } from "../version.ts";
import type { EvaluationJournal, RunJournal } from "./journal.ts";
import {
  EVALUATION_FORMAT,
  evaluationFileName,
  MANIFEST_FILE,
  programHash,
  type RecordedEvaluation,
  type RecordedResult,
  type RecordedServer,
  type RecordedUpstreamCall,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RecordingError,
  type RecordingManifest,
} from "./recording_format.ts";
import type { EngineEvalResult } from "./types.ts";
import type { JsonObject } from "../core/json.ts";

/** Why a file-system call failed, in a few words. */
export function fsReason(e: unknown): string {
  if (e instanceof Deno.errors.NotFound) return "no such file or directory";
  if (e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable")) {
    return "no permission (run with the flags `ptc permissions` prints for this command)";
  }
  return e instanceof Error ? e.message.split("\n")[0] : String(e);
}

/** The recorded form of what a transport answered. */
function recordedResult(r: ToolResult): RecordedResult {
  const bytes = r.bytes !== undefined ? { bytes: r.bytes } : {};
  return r.ok
    ? { ok: true, value: r.value, value_kind: r.valueKind, ...bytes }
    : { ok: false, reason: r.reason, message: r.message, ...bytes };
}

/** The outcome part of an evaluation file. */
function recordedOutcome(r: EngineEvalResult): RecordedEvaluation["outcome"] {
  return r.ok
    ? { ok: true, status: r.status, printed: r.printed }
    : { ok: false, reason: r.reason, message: r.message };
}

/** The catalog of a started runtime as the manifest stores it (redacted). */
export function recordedServers(runtime: Runtime | undefined): RecordedServer[] {
  if (!runtime) return [];
  return runtime.catalog().map((s) => {
    const state = runtime.upstreams.get(s.name)!;
    const endpoint = state.transport.endpoint?.(state.spec.config);
    return runtime.redactor.redactJson({
      name: s.name,
      transport: s.transport,
      description: s.description,
      ...(endpoint ? { endpoint } : {}),
      tools: s.tools as unknown as JsonObject[],
      withheld: Object.fromEntries(state.withheld),
    });
  });
}

/** Write `text` to `path` through a temporary file in the same folder, so a reader never sees half a file. */
async function writeWhole(path: string, text: string): Promise<void> {
  const tmp = join(resolve(path, ".."), `.${path.split("/").pop()}.tmp`);
  await Deno.writeTextFile(tmp, text);
  await Deno.rename(tmp, path);
}

/** A recording into one directory (see the module doc). Create with `Recorder.open`. */
export class Recorder implements RunJournal {
  readonly replacesUpstreams = false;
  #sequence = 0;
  #redactor: SecretRedactor | undefined;

  private constructor(readonly dir: string, readonly onError: (message: string) => void) {}

  /**
   * Record into `dir`, which must be new (it is created; its parent must exist) or empty: a recording is never
   * appended to. `onError` hears about an evaluation file that could not be written.
   */
  static async open(dir: string, onError: (message: string) => void): Promise<Recorder> {
    const at = resolve(dir);
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.stat(at);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw new RecordingError(`--record ${dir}: ${fsReason(e)}`);
    }
    try {
      if (!info) await Deno.mkdir(at);
      else if (!info.isDirectory) throw new RecordingError(`--record ${dir}: not a directory`);
      else {
        for await (const entry of Deno.readDir(at)) {
          throw new RecordingError(
            `--record ${dir}: the directory is not empty (it holds ${entry.name}); record into a new or empty ` +
              "directory — a recording is never appended to",
          );
        }
      }
    } catch (e) {
      if (e instanceof RecordingError) throw e;
      throw new RecordingError(`--record ${dir}: cannot ${info ? "read" : "create"} the directory: ${fsReason(e)}`);
    }
    return new Recorder(at, onError);
  }

  /** Write the manifest: the catalog the upstreams serve and the limits of each evaluation. */
  async started(runtime: Runtime | undefined): Promise<void> {
    this.#redactor = runtime?.redactor;
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      ptc_version: VERSION,
      created: new Date().toISOString(),
      limits: (runtime?.limits ?? {}) as unknown as JsonObject,
      servers: recordedServers(runtime),
    };
    try {
      await writeWhole(join(this.dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + "\n");
    } catch (e) {
      throw new RecordingError(`--record ${this.dir}: cannot write ${MANIFEST_FILE}: ${fsReason(e)}`);
    }
  }

  /** Number the evaluation now (files sort in start order) and note every call it makes. */
  async begin(program: string): Promise<EvaluationJournal> {
    const sequence = ++this.#sequence;
    const started = new Date().toISOString();
    const hash = await programHash(program);
    const calls: RecordedUpstreamCall[] = [];
    return {
      intercept: async (call, perform) => {
        const result = await perform();
        calls.push({ ...call, result: recordedResult(result) });
        return result;
      },
      finish: async (result) => {
        const evaluation: RecordedEvaluation = {
          format: EVALUATION_FORMAT,
          version: RECORDING_VERSION,
          sequence,
          program_sha256: hash,
          program,
          started,
          outcome: recordedOutcome(result),
          calls,
        };
        const name = evaluationFileName(sequence, hash);
        const text = JSON.stringify(this.#redactor?.redactJson(evaluation) ?? evaluation, null, 2) + "\n";
        try {
          await writeWhole(join(this.dir, name), text);
        } catch (e) {
          this.onError(`recording: cannot write ${join(this.dir, name)}: ${fsReason(e)}`);
        }
      },
    };
  }
}

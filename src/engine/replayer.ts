/**
 * `--replay DIR`: the engine's runtime is built from a recording (`recorder.ts`) instead of the config's upstreams,
 * none of which is started — no network, no subprocess, no credential. Its upstreams list the recorded catalog, so
 * discovery answers as it did; every call still goes through validation, the budgets and the write gate of the
 * runtime, and then the recording answers it instead of an upstream (so no write is ever performed). A call the
 * recording does not hold ends the program with `replay_mismatch`.
 *
 * Which recorded calls answer an evaluation: those of the first unused recorded evaluation of the same program
 * (SHA-256 of its text); a program with none left answers from the read calls of every recorded evaluation (a
 * recorded write answers only the evaluation it was recorded in). Within an
 * evaluation a call is matched by server, tool and canonical arguments, each recorded answer used once (see
 * `AnswerPool`). docs/record-replay.md says the same for users.
 *
 * Memory: every file is checked at load, but only the manifest and an index are kept; an evaluation's file is read
 * again when a program of its hash begins, so memory is bounded by the largest file, not the directory. The reads
 * that answer a program with no recording of its own are gathered once, when first needed, from the earliest
 * evaluations holding reads, at most `MAX_FALLBACK_BYTES` of their files.
 * @module
 */
import { parseConfigText, type PtcConfig } from "../upstream/config.ts";
import { TransportRegistry } from "../upstream/registry.ts";
import { type Runtime, type RuntimeOptions, startRuntime } from "../upstream/runtime.ts";
import type { FailureReason, ToolEntry, ToolResult, Transport, Upstream } from "../upstream/types.ts";
import type { DispatchedCall } from "../upstream/run_context.ts";
import type { JsonObject } from "../core/json.ts";
import type { EvaluationJournal, RunJournal } from "./journal.ts";
import { AnswerPool } from "./replay.ts";
import { canonicalJson } from "../core/digest.ts";
import { type EvaluationEntry, fsReason, indexRecording, readEvaluation } from "./recording_dir.ts";
import {
  MAX_RECORDING_FILE_BYTES,
  programHash,
  type RecordedResult,
  type RecordedServer,
  type RecordedUpstreamCall,
  RecordingError,
  type RecordingManifest,
} from "./recording_format.ts";

/** Longest rendering of a call's arguments in a mismatch message. */
const MAX_ARGS_CHARS = 300;
/** Most bytes of evaluation files whose reads answer programs with no recording of their own (one file's worth). */
export const MAX_FALLBACK_BYTES = MAX_RECORDING_FILE_BYTES;

/** Recorded calls with their matching keys. */
type KeyedCalls = (readonly [key: string, call: RecordedUpstreamCall])[];

/** The matching key of a call: server, tool and canonical arguments. */
function callKey(server: string, tool: string, args: JsonObject): string {
  return `${server}/${tool} ${canonicalJson(args)}`;
}

function toolResult(r: RecordedResult): ToolResult {
  const bytes = r.bytes !== undefined ? { bytes: r.bytes } : {};
  return r.ok ? { ok: true, value: r.value, valueKind: r.value_kind, ...bytes } : {
    ok: false,
    reason: r.reason as FailureReason,
    message: r.message,
    ...bytes,
    ...(r.mutation_state ? { mutationState: r.mutation_state } : {}),
  };
}

/**
 * An upstream that lists the recorded tools; the replay's interceptor answers its calls, so it is never called. A
 * recorded MCP upstream also has the resource methods (`tool/resources` and `tool/read-resource` are replayed as its
 * `resources/list` and `resources/read` calls).
 */
function replayUpstream(server: RecordedServer): Upstream {
  const never = () =>
    Promise.resolve<ToolResult>({
      ok: false,
      reason: "upstream_unavailable",
      message: `upstream ${server.name} is replayed from a recording and is never contacted`,
    });
  return {
    listTools: () => server.tools as unknown as ToolEntry[],
    call: never,
    ...(server.transport.startsWith("mcp_") ? { listResources: never, readResource: never } : {}),
    diagnostics: () => ({ replayed: true }),
    stop: () => Promise.resolve(),
  };
}

/** A stand-in for a recorded upstream's transport: no permissions, no start-up work, the recorded endpoint. */
function replayTransport(name: string): Transport<RecordedServer> {
  return {
    name,
    configSchema: {},
    parseConfig: (raw) => raw as unknown as RecordedServer,
    permissions: () => ({ net: [], read: [], env: [], run: [] }),
    endpoint: (server) => server.endpoint ?? {},
    start: (server) => Promise.resolve(replayUpstream(server)),
  };
}

/** The config of a replay run without `--upstreams-config`: default limits and catalog settings, no upstreams. */
function defaultConfig(): PtcConfig {
  const parsed = parseConfigText('{"upstreams": {}}', Deno.cwd());
  if (Array.isArray(parsed)) throw new Error(`the empty config does not parse: ${JSON.stringify(parsed)}`);
  return parsed;
}

/** A loaded recording answering the evaluations of one engine (see the module doc). Create with `Replayer.load`. */
export class Replayer implements RunJournal {
  readonly replacesUpstreams = true;
  #used = new Set<EvaluationEntry>();
  /** The reads answering programs with no recording of their own; gathered on first need. */
  #fallback: Promise<Fallback> | undefined;

  private constructor(
    readonly dir: string,
    readonly manifest: RecordingManifest,
    /** The index of the evaluation files, in sequence order (their contents are read when needed). */
    readonly evaluations: EvaluationEntry[],
    readonly onNote: (message: string) => void,
    readonly fallbackBytes: number,
  ) {}

  /**
   * Check every file of the recording in `dir`, keeping only the manifest and an index. Throws RecordingError naming the directory or the file:
   * missing, not a directory, unreadable, no manifest, another format or version, malformed, a foreign file.
   * `onNote` hears when an evaluation answers from the whole recording; `fallbackBytes` bounds the files read for
   * that (tests pass less).
   */
  static async load(
    dir: string,
    onNote: (message: string) => void,
    fallbackBytes = MAX_FALLBACK_BYTES,
  ): Promise<Replayer> {
    const where = `--replay ${dir}`;
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(dir);
    } catch (e) {
      throw new RecordingError(
        `${where}: ${e instanceof Deno.errors.NotFound ? "no such directory" : `cannot read it: ${fsReason(e)}`}`,
      );
    }
    if (!info.isDirectory) throw new RecordingError(`${where}: not a directory (name the folder --record wrote)`);
    const { manifest, evaluations } = await indexRecording(dir, where);
    return new Replayer(dir, manifest, evaluations, onNote, fallbackBytes);
  }

  /**
   * A runtime whose upstreams are the recorded ones: the config (if any) gives the limits, catalog settings and
   * libraries; its own upstreams and credentials are not used. The recorded write-gate decisions stand (a withheld
   * tool stays withheld with its reason); `--read-only` or a read-only config still hides write tools.
   */
  async startRuntime(config: PtcConfig | undefined, options: RuntimeOptions): Promise<Runtime> {
    const base = config ?? defaultConfig();
    const registry = new TransportRegistry();
    for (const s of this.manifest.servers) registry.register(replayTransport(s.transport));
    const replayed: PtcConfig = {
      ...base,
      credentials: new Map(),
      upstreams: this.manifest.servers.map((s) => ({
        name: s.name,
        transport: s.transport,
        description: s.description,
        allowWrites: true,
        config: s,
      })),
    };
    const runtime = await startRuntime(replayed, { ...options, registry, allowWrites: true, failurePolicy: "fatal" });
    for (const s of this.manifest.servers) {
      const state = runtime.upstreams.get(s.name)!;
      for (const [name, why] of Object.entries(s.withheld)) {
        if (!state.withheld.has(name)) state.withheld.set(name, why);
      }
    }
    this.#warnOnDifferences(base, runtime);
    return runtime;
  }

  /** Say so when the limits in force differ from the recorded ones, or the config names other upstreams. */
  #warnOnDifferences(config: PtcConfig, runtime: Runtime): void {
    const recorded = this.manifest.limits;
    const now = runtime.limits as unknown as JsonObject;
    const changed = Object.keys(now).filter((k) => k in recorded && recorded[k] !== now[k]);
    if (changed.length > 0) {
      this.onNote(
        `replay: limits differ from the recording (${
          changed.map((k) => `${k} ${recorded[k]} → ${now[k]}`).join(", ")
        }); budgets count against the limits in force`,
      );
    }
    const servers = new Set(this.manifest.servers.map((s) => s.name));
    const others = config.upstreams.map((u) => u.name).filter((n) => !servers.has(n));
    if (others.length > 0) {
      this.onNote(`replay: upstream(s) ${others.join(", ")} of the config are not in the recording and are absent`);
    }
  }

  /** Nothing to do: the recording is read already. */
  started(): Promise<void> {
    return Promise.resolve();
  }

  /** The recorded calls that answer this evaluation of `program` (see the module doc). */
  async begin(program: string): Promise<EvaluationJournal> {
    const hash = await programHash(program);
    const match = this.evaluations.find((e) => !this.#used.has(e) && e.program_sha256 === hash);
    let entries: KeyedCalls;
    let source: string;
    try {
      if (match) {
        this.#used.add(match);
        source = `evaluation ${match.sequence} of ${this.dir}`;
        entries = (await this.#read(match)).map((c) => [callKey(c.server, c.tool, c.args), c] as const);
      } else {
        // A recorded write answers only the evaluation it was recorded in: never a call the recording did not see.
        this.#fallback ??= this.#gatherReads().catch((e) => {
          this.#fallback = undefined; // a file that changed: tried again by the next such program
          throw e;
        });
        const fallback = await this.#fallback;
        entries = fallback.entries;
        source = `the recording ${this.dir} (this program has no unused recorded evaluation, so only the recording's ` +
          `reads answer it; a recorded write answers only the evaluation it was recorded in${fallback.partial})`;
        this.onNote(
          `replay: no unused recorded evaluation of this program (sha256 ${hash.slice(0, 12)}); ` +
            `its calls are answered from the reads of ${fallback.from} of ${this.dir}`,
        );
      }
    } catch (e) {
      if (!(e instanceof RecordingError)) throw e;
      // The file changed or went away since the replay started: every call of this evaluation fails, saying so.
      const failure = { kind: "raise" as const, reason: "replay_mismatch", message: e.message };
      return { intercept: () => Promise.resolve(failure), finish: () => Promise.resolve() };
    }
    const pool = new AnswerPool(entries);
    return {
      intercept: (call) => {
        const hit = pool.take(callKey(call.server, call.tool, call.args));
        return Promise.resolve(hit ? toolResult(hit.result) : mismatch(call, source, pool.unused()));
      },
      finish: () => Promise.resolve(),
    };
  }

  /** The calls of `entry`'s file, read again; it must still be the file that was checked at load. */
  async #read(entry: EvaluationEntry): Promise<RecordedUpstreamCall[]> {
    const where = `--replay ${this.dir}`;
    const evaluation = await readEvaluation(this.dir, entry.name, where);
    if (evaluation.program_sha256 !== entry.program_sha256 || evaluation.sequence !== entry.sequence) {
      throw new RecordingError(`${where}: ${entry.name} changed since the replay started`);
    }
    return evaluation.calls;
  }

  /** The read calls of the earliest evaluations holding reads, at most `fallbackBytes` of their files. */
  async #gatherReads(): Promise<Fallback> {
    const entries: KeyedCalls = [];
    const withReads = this.evaluations.filter((e) => e.hasReads);
    let bytes = 0;
    let used = 0;
    for (; used < withReads.length && bytes + withReads[used].bytes <= this.fallbackBytes; used++) {
      bytes += withReads[used].bytes;
      for (const c of await this.#read(withReads[used])) {
        if (c.effect !== "write") entries.push([callKey(c.server, c.tool, c.args), c]);
      }
    }
    const left = withReads.length - used;
    if (left === 0) return { entries, from: "every evaluation", partial: "" };
    const last = used > 0 ? withReads[used - 1].sequence : 0;
    return {
      entries,
      from: `the evaluations up to ${last} (the ${left} later one(s) holding reads are left out: a replay gathers ` +
        `at most ${this.fallbackBytes} bytes of files for this)`,
      partial: `; only the evaluations up to ${last} answer it`,
    };
  }
}

/** The reads answering programs with no recording of their own (see `Replayer`). */
interface Fallback {
  entries: KeyedCalls;
  /** Which evaluations they come from, for the note. */
  from: string;
  /** What was left out, for a mismatch message ("" when nothing was). */
  partial: string;
}

/** The loud failure of a call the recording does not hold. */
function mismatch(call: DispatchedCall, source: string, unused: RecordedUpstreamCall[]) {
  const args = canonicalJson(call.args);
  const shown = args.length > MAX_ARGS_CHARS ? `${args.slice(0, MAX_ARGS_CHARS)}…` : args;
  const same = unused.filter((c) => c.server === call.server && c.tool === call.tool).length;
  const hint = same > 0
    ? ` (${same} unused recorded call(s) of this tool have other arguments)`
    : " (no unused recorded call of this tool is left)";
  return {
    kind: "raise" as const,
    reason: "replay_mismatch",
    message: `tool '${call.server}/${call.tool}' with arguments ${shown}: this call is not in ${source}${hint}; ` +
      "a replay never contacts upstreams",
  };
}

/**
 * The demo's moving parts in one handle: the Observatory fixture on a free loopback port with a fresh token, a
 * concrete copy of `upstreams.example.jsonc` pointing at it, and an engine over it (the OpenAPI transport for the
 * Observatory, the MCP stdio transport for the runbooks server it starts as a child process; the sandbox starts with
 * the first program). `run(program)` evaluates one PTC-Lisp program and measures the payload reduction from the run's
 * call records.
 * Used by `ptc demo`, the Observatory benchmark and the end-to-end tests.
 * @module
 */
import { applyEdits, modify, parse as parseJsonc } from "jsonc-parser";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTokenDir, type RunningObservatory, startObservatory } from "../../fixtures/observatory/mod.ts";
import type { TokenDir } from "../../fixtures/observatory/mod.ts";
import { createEngine } from "../engine/engine.ts";
import type { CallRecord, Engine, EngineEvalResult } from "../engine/types.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { withObservatoryWrites } from "./demo_writes.ts";

/** The example config shipped at the repository root. */
export const EXAMPLE_CONFIG = join(
  dirname(dirname(dirname(fileURLToPath(import.meta.url)))),
  "upstreams.example.jsonc",
);
/** The address the example config names; the demo's copy replaces it with the real one. */
export const EXAMPLE_ORIGIN = "http://127.0.0.1:8765";

/** Options of `startDemoSession`. */
export interface DemoSessionOptions {
  seed?: string;
  traces?: number;
  /** Port for the fixture (default 0 = any free port). */
  port?: number;
  /** Audit log target of the fixture (default "none"). */
  auditLog?: string;
  /** Runtime diagnostics (default: dropped, so the demo output stays clean). */
  log?: (line: string) => void;
  /** Upstreams of the example to start (default "all": the Observatory and the runbooks MCP server). */
  upstreams?: readonly string[] | "all";
}

/** The measured outcome of one program. */
export interface ProgramRun {
  result: EngineEvalResult;
  /** Call records (completion order). */
  calls: CallRecord[];
  /** UTF-8 bytes the upstream returned, over all calls. */
  upstreamBytes: number;
  /** UTF-8 bytes of the answer handed back (the JSON of the program's value; 0 on failure). */
  answerBytes: number;
  /** upstreamBytes / answerBytes, or null when either is 0. */
  ratio: number | null;
  /** Wall-clock ms of the whole evaluation, tool calls included (the first run also starts the sandbox). */
  wallMs: number;
}

/** A running demo session. Always `close()` it. */
export interface DemoSession {
  server: RunningObservatory;
  tokens: TokenDir;
  /** The temp dir holding the concrete config and the token files. */
  dir: string;
  /** The concrete config (the example with the real address). */
  configPath: string;
  /** The engine over the concrete config (its catalog names the upstreams and their tools). */
  engine: Engine;
  run(program: string): Promise<ProgramRun>;
  /**
   * Evaluate a program with writes enabled for it alone: on an engine (started on first use, the Observatory upstream
   * only) over a copy of the config with the write section applied (`allow_writes`) and the process switch on.
   */
  runWithWrites(program: string): Promise<ProgramRun>;
  /** Stop the engine; the fixture too unless `keepFixture`; remove the temp dir unless kept. */
  close(options?: { keepFixture?: boolean }): Promise<void>;
}

const utf8 = new TextEncoder();

/** Bytes of a value as JSON (UTF-8). */
export function jsonByteLength(value: unknown): number {
  return utf8.encode(JSON.stringify(value ?? null)).length;
}

/**
 * Pin the working directory of every `mcp_stdio` upstream of a config text to an absolute path, resolved against
 * `baseDir` (the folder the text was written for): a copy of the config placed elsewhere still starts its servers
 * from the same folder, so their relative `command`/`args` keep working. Comments and layout are kept.
 */
export function pinStdioWorkingDirs(text: string, baseDir: string): string {
  const doc = parseJsonc(text, [], { allowTrailingComma: true }) as { upstreams?: Record<string, unknown> } | null;
  let out = text;
  for (const [name, entry] of Object.entries(doc?.upstreams ?? {})) {
    const e = entry as { transport?: unknown; cwd?: unknown } | null;
    if (e?.transport !== "mcp_stdio") continue;
    const cwd = resolve(baseDir, typeof e.cwd === "string" ? e.cwd : ".");
    out = applyEdits(out, modify(out, ["upstreams", name, "cwd"], cwd, {}));
  }
  return out;
}

/**
 * Pin the `libraries` paths of a config text to absolute paths resolved against `baseDir`, so a copy placed
 * elsewhere loads the same files; `drop` removes the key instead (a copy without the upstreams the libraries call).
 */
export function pinLibraries(text: string, baseDir: string, drop = false): string {
  const doc = parseJsonc(text, [], { allowTrailingComma: true }) as { libraries?: unknown } | null;
  if (!Array.isArray(doc?.libraries)) return text;
  const value = drop ? undefined : doc.libraries.map((p) => (typeof p === "string" ? resolve(baseDir, p) : p));
  return applyEdits(text, modify(text, ["libraries"], value, {}));
}

/** Which upstreams of the example a concrete copy keeps. */
export interface ConcreteConfigOptions {
  /**
   * Upstream names to keep, or "all". Default `["observatory"]`: the OpenAPI upstream alone, as the example was before
   * the runbooks MCP upstream joined it (tests of other faces rely on that and need no `node` child per world).
   */
  upstreams?: readonly string[] | "all";
  /** Apply the write section (`withObservatoryWrites`): the annotation operations, `allow_writes`, not read-only. */
  writes?: boolean;
  /** File name of the copy inside the folder (default `upstreams.jsonc`). */
  fileName?: string;
}

/** Drop every upstream of a config text that `keep` does not name (comments elsewhere are kept). */
function keepUpstreams(text: string, keep: readonly string[]): string {
  const doc = parseJsonc(text, [], { allowTrailingComma: true }) as { upstreams?: Record<string, unknown> } | null;
  const names = Object.keys(doc?.upstreams ?? {});
  const unknown = keep.filter((k) => !names.includes(k));
  if (unknown.length) {
    throw new Error(`${EXAMPLE_CONFIG} has no upstream ${unknown.join(", ")} (it has ${names.join(", ")})`);
  }
  let out = text;
  for (const name of names) {
    if (!keep.includes(name)) out = applyEdits(out, modify(out, ["upstreams", name], undefined, {}));
  }
  return out;
}

/**
 * Write the example config into `dir` with the fixture's real address, keeping the upstreams `options` names; the
 * `mcp_stdio` ones (the runbooks server) keep running from the repository root. Returns the path of the copy.
 */
export async function writeConcreteConfig(
  dir: string,
  url: string,
  options: ConcreteConfigOptions = {},
): Promise<string> {
  const text = await Deno.readTextFile(EXAMPLE_CONFIG);
  if (!text.includes(EXAMPLE_ORIGIN)) {
    throw new Error(`${EXAMPLE_CONFIG} no longer mentions ${EXAMPLE_ORIGIN}; update the demo`);
  }
  const keep = options.upstreams ?? ["observatory"];
  let concrete = text.replaceAll(EXAMPLE_ORIGIN, url);
  if (keep !== "all") concrete = keepUpstreams(concrete, keep);
  if (options.writes) concrete = withObservatoryWrites(concrete);
  const path = join(dir, options.fileName ?? "upstreams.jsonc");
  // The example's libraries call both upstreams: a copy with fewer upstreams leaves them out.
  concrete = pinLibraries(concrete, dirname(EXAMPLE_CONFIG), keep !== "all");
  await Deno.writeTextFile(path, pinStdioWorkingDirs(concrete, dirname(EXAMPLE_CONFIG)));
  return path;
}

/** Start the fixture and an engine over it (the sandbox starts with the first program). */
export async function startDemoSession(options: DemoSessionOptions = {}): Promise<DemoSession> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-demo-" });
  const cleanups: (() => Promise<void>)[] = [() => Deno.remove(dir, { recursive: true }).catch(() => {})];
  const undo = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    const tokenDir = join(dir, ".observatory");
    await Deno.mkdir(tokenDir, { mode: 0o700 });
    const tokens = await createTokenDir(tokenDir);
    const server = await startObservatory({
      port: options.port ?? 0,
      seed: options.seed,
      traces: options.traces,
      tokensFile: tokens.tokensFile,
      auditLog: options.auditLog ?? "none",
    });
    cleanups.push(() => server.stop());
    const configPath = await writeConcreteConfig(dir, server.url, { upstreams: options.upstreams ?? "all" });
    const log = options.log ?? (() => {});
    // The sandbox starts on the first program, so users that only read the catalog never spawn a worker.
    const engine = await createEngine({
      registry: registerBuiltins(),
      upstreamsConfig: configPath,
      poolSize: 1,
      lazySandbox: true,
      onWarning: log,
      upstreamStart: "background",
    });
    cleanups.push(() => engine.close());
    // The demo shows its own fixtures' catalogs: wait for their one start (a failure is shown as the upstream's state).
    await engine.settleUpstreams();

    const measure = async (on: Engine, program: string): Promise<ProgramRun> => {
      const started = performance.now();
      const result = await on.evaluate({ program });
      const upstreamBytes = result.calls.reduce((s, c) => s + c.bytes, 0);
      const answerBytes = result.ok ? jsonByteLength(result.json) : 0;
      return {
        result,
        calls: result.calls,
        upstreamBytes,
        answerBytes,
        ratio: upstreamBytes > 0 && answerBytes > 0 ? upstreamBytes / answerBytes : null,
        wallMs: performance.now() - started,
      };
    };
    const run = (program: string) => measure(engine, program);
    let writing: Promise<Engine> | undefined;
    const writeEngine = async () => {
      const path = await writeConcreteConfig(dir, server.url, {
        upstreams: ["observatory"],
        writes: true,
        fileName: "upstreams-writes.jsonc",
      });
      return await createEngine({
        registry: registerBuiltins(),
        upstreamsConfig: path,
        poolSize: 1,
        lazySandbox: true,
        onWarning: log,
        allowWrites: true, // the process switch, for this engine only (what `ptc … --allow-writes` sets)
      });
    };
    const runWithWrites = async (program: string) => measure(await (writing ??= writeEngine()), program);

    let closed = false;
    return {
      server,
      tokens,
      dir,
      configPath,
      engine,
      run,
      runWithWrites,
      async close(opts = {}) {
        if (closed) return;
        closed = true;
        await engine.close();
        if (writing) await (await writing.catch(() => undefined))?.close();
        if (!opts.keepFixture) {
          await server.stop();
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        }
      },
    };
  } catch (e) {
    await undo();
    throw e;
  }
}

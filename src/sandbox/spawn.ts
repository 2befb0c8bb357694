/**
 * How a sandbox process is started. From source: `deno run` of the child entry with no `--allow-*` flag at all,
 * `--no-prompt`, the V8 heap capped with `--max-old-space-size` and the young generation tuned (`SANDBOX_V8_TUNING`).
 * As a compiled binary: the same executable in its hidden mode (`ptc __sandbox`), which revokes every baked
 * permission before anything else runs; there the V8 heap cap cannot be set per process (a compiled binary ignores
 * `DENO_V8_FLAGS` and takes only the flags baked into it), so the session cap is enforced by the child between
 * evaluations and the heap is bounded by V8's own default; the tuning is baked into the binary (scripts/compile.ts).
 * @module
 */
import { fileURLToPath } from "node:url";
import type { ChildOptions } from "./child_core.ts";
import type { LibrarySource } from "../lisp/library_types.ts";

/** The argument that starts a compiled ptc as a sandbox process. */
export const SANDBOX_MODE = "__sandbox";

/** The production child entry. */
export const DEFAULT_ENTRY: URL = new URL("./child.ts", import.meta.url);

/** The repository's Deno config (import map for the child's npm imports). */
const CONFIG = new URL("../../deno.json", import.meta.url);

/**
 * V8 tuning of every sandbox process: the young generation starts at its full 16 MiB semi-space instead of growing
 * from 1 MiB. A program's per-run garbage (the vectors and maps a filter, group-by or reduce builds over a decoded
 * tool result) then dies young; with the small start it survived the early scavenges, V8 began allocating it in the
 * old space, and the first hundred runs over a 2,000-record file took up to twice their settled time
 * (`deno task bench lisp`). Memory is committed only as it is used.
 */
export const SANDBOX_V8_TUNING: readonly string[] = ["--min-semi-space-size=16"];

/** Default V8 heap cap of a sandbox process, in MiB. */
export const DEFAULT_HEAP_MB = 1024;

/** What a sandbox process is started with. */
export interface SpawnSpec {
  /** Child entry module (tests substitute a stand-in language). */
  entry: URL;
  /** V8 heap cap (`--max-old-space-size`), MiB. */
  heapMb: number;
  /** Operator libraries every process loads once, before it is ready. */
  libraries?: LibrarySource[];
}

/** True when this ptc runs as a `deno compile`d binary. */
export function isCompiled(): boolean {
  return (Deno.build as { standalone?: boolean }).standalone === true;
}

/** Session cap checked by the child before each evaluation: three quarters of the heap cap. */
export function sessionHeapBytes(heapMb: number): number {
  return Math.floor(heapMb * 0.75) * 1024 * 1024;
}

/** The command line that starts one sandbox process. */
export function sandboxCommand(spec: SpawnSpec): { command: string; args: string[] } {
  const childArgs = [`--session-heap-bytes=${sessionHeapBytes(spec.heapMb)}`];
  if (isCompiled() && spec.entry.href === DEFAULT_ENTRY.href) {
    return { command: Deno.execPath(), args: [SANDBOX_MODE, ...childArgs] };
  }
  return {
    command: Deno.execPath(),
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--cached-only",
      `--config=${fileURLToPath(CONFIG)}`,
      `--v8-flags=--max-old-space-size=${Math.max(16, Math.floor(spec.heapMb))},${SANDBOX_V8_TUNING.join(",")}`,
      fileURLToPath(spec.entry),
      ...childArgs,
    ],
  };
}

/** Child options from the sandbox process's own arguments. */
export function childOptionsFromArgs(args: string[]): ChildOptions {
  const out: ChildOptions = {};
  for (const arg of args) {
    const m = /^--session-heap-bytes=(\d+)$/.exec(arg);
    if (m) out.sessionHeapBytes = Number(m[1]);
  }
  return out;
}

/**
 * Start the OS process of `sandboxCommand(spec)`'s command line: pipes for the frame protocol and stderr, colour off.
 * The one place a sandbox process is spawned (`process_handle.ts`, and `prestart.ts` ahead of time).
 */
export function spawnSandboxChild(command: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(command, {
    args,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Helpers of the tests that run ptc the way users do: through `bin/ptc` (confined to the flags `ptc permissions`
 * computes), from a working directory outside the checkout, with a clean environment. The launcher prints the deno
 * command line it runs (`PTC_LAUNCHER_DEBUG=1`), so a test can check the flags were the computed ones and not
 * `--allow-all`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";

/** The checkout root. */
export const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
/** The launcher. */
export const LAUNCHER = join(ROOT, "bin/ptc");
/** `main.ts` of ptc. */
export const MAIN = join(ROOT, "main.ts");

/** The environment a launched ptc gets: PATH (for sh, node) and HOME only, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/tmp", ...extra };
}

/** The outcome of one launched command. */
export interface Launched {
  code: number;
  stdout: string;
  stderr: string;
}

const dec = new TextDecoder();

/** Run `bin/ptc ARGS…` in `cwd` with a clean environment and wait for it. */
export async function launch(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
): Promise<Launched> {
  const child = new Deno.Command(LAUNCHER, {
    args,
    cwd: options.cwd,
    clearEnv: true,
    env: cleanEnv({ PTC_LAUNCHER_DEBUG: "1", NO_COLOR: "1", ...options.env }),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(options.stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Run `deno ARGS…` (this Deno, e.g. `run` with hand-picked flags and `MAIN`) in `cwd` with a clean environment. */
export async function runDeno(args: string[], cwd: string): Promise<Launched> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    clearEnv: true,
    env: cleanEnv({ NO_COLOR: "1" }),
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Run `bin/ptc ARGS…` in `cwd` and check it ran confined, under exactly the flags `ptc permissions` prints for the
 * same arguments; the result carries those flags.
 */
export async function launchConfined(
  args: string[],
  options: { cwd: string; stdin?: string },
): Promise<Launched & { flags: string[] }> {
  const r = await launch(args, options);
  const flags = launchedFlags(r.stderr);
  assertConfined(flags);
  assert.deepEqual(flags, await printedFlags(args, options.cwd));
  return { ...r, flags };
}

/** Start a long-running `bin/ptc ARGS…` (a server) in `cwd` with a clean environment; the caller stops it. */
export function spawnLaunched(args: string[], cwd: string, stdout: "piped" | "null" = "null"): Deno.ChildProcess {
  return new Deno.Command(LAUNCHER, {
    args,
    cwd,
    clearEnv: true,
    env: cleanEnv({ NO_COLOR: "1", PTC_LAUNCHER_DEBUG: "1" }),
    stdin: "null",
    stdout,
    stderr: "piped",
  }).spawn();
}

/** `ptc permissions --format lines COMMAND ARGS…` in `cwd`, as the launcher computes it. */
export async function printedFlags(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-read", "--allow-env", MAIN, "permissions", "--format", "lines", ...args],
    cwd,
    clearEnv: true,
    env: cleanEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  return dec.decode(out.stdout).split("\n").filter(Boolean);
}

/** The permission flags in the launcher's `PTC_LAUNCHER_DEBUG` line on `stderr`. */
export function launchedFlags(stderr: string): string[] {
  const line = stderr.split("\n").find((l) => l.startsWith("ptc: ") && l.includes(" run "));
  assert.ok(line, `no launcher command line in:\n${stderr}`);
  return line.split(" ").filter((w) => w.startsWith("--allow-"));
}

/** Assert no blanket permission was granted: every `--allow-*` names what it allows. */
export function assertConfined(flags: string[]): void {
  for (const f of flags) assert.match(f, /^--allow-(net|read|write|env|run)=./, `blanket flag ${f} in ${flags}`);
  assert.ok(!flags.includes("--allow-all") && !flags.includes("-A"));
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A temporary working directory outside the checkout (removed by the caller). */
export function elsewhere(): Promise<string> {
  return Deno.makeTempDir({ prefix: "ptc-elsewhere-" });
}

/** Read a launched `ptc mcp --http` child's stderr until "listening on URL" (then keep draining it). */
export async function waitForListening(child: Deno.ChildProcess): Promise<{ url: string; stderr: () => string }> {
  let text = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    const m = /listening on (http:\/\/\S+)/.exec(text);
    if (m) {
      // keep draining so the child never blocks on a full pipe
      (async () => {
        for (;;) {
          const r = await reader.read().catch(() => ({ done: true, value: "" }));
          if (r.done) break;
          text += r.value;
        }
      })();
      return { url: m[1], stderr: () => text };
    }
  }
  throw new Error(`ptc mcp --http did not start:\n${text}`);
}

/**
 * Running ptc (or another entry) as a real subprocess, optionally feeding stdin: the one subprocess helper of the
 * end-to-end tests (`runPtc` in tests/integration/ptc_process.ts is this with main.ts and colour off).
 * @module
 */

/** What a finished subprocess left. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** How to run it: Deno permission flags (default `-A`), stdin text (written and closed), extra environment. */
export interface RunOptions {
  permissions?: string[];
  stdin?: string;
  env?: Record<string, string>;
}

/** `deno run PERMISSIONS ARGS…`. */
export async function runDeno(args: string[], options: RunOptions = {}): Promise<Run> {
  const { permissions = ["-A"], stdin, env } = options;
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(env ? { env } : {}),
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

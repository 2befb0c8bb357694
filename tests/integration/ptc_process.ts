/**
 * Run `ptc ARGS` from source as a subprocess (`deno run` of main.ts, colour off) and collect its exit code and output.
 * @module
 */

/** The path of main.ts (for permission flags that must name it). */
export const MAIN: string = new URL("../../main.ts", import.meta.url).pathname;

/** What one ptc run printed and how it exited. */
export interface PtcRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run ptc with `args` under Deno `permissions` (default `-A`). */
export async function runPtc(args: string[], permissions = ["-A"]): Promise<PtcRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

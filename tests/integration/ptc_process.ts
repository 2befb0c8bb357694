/**
 * Run `ptc ARGS` from source as a subprocess (`deno run` of main.ts, colour off) and collect its exit code and output.
 * @module
 */
import { type Run, runDeno } from "../cli/run_deno.ts";

/** The path of main.ts (for permission flags that must name it). */
export const MAIN: string = new URL("../../main.ts", import.meta.url).pathname;

/** What one ptc run printed and how it exited. */
export type PtcRun = Run;

/** Run ptc with `args` under Deno `permissions` (default `-A`). */
export function runPtc(args: string[], permissions = ["-A"]): Promise<PtcRun> {
  return runDeno([MAIN, ...args], { permissions, env: { NO_COLOR: "1" } });
}

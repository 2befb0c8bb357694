/**
 * `ptc mcp` when its engine cannot start: the problems are printed on stderr as before, and the face still serves
 * (stdio, or HTTP with the same guards and token) a `lisp_eval` that reports them, until the first SIGINT/SIGTERM or
 * the end of stdin. The exit code stays 2: the server never ran a program.
 * @module
 */
import { startHttpFace } from "../mcp/http.ts";
import { httpFaceSettings } from "./mcp_http_settings.ts";
import { serveMcpStdio } from "../mcp/stdio.ts";
import { startFailureFactory } from "../mcp/start_failure.ts";
import type { McpOptions } from "./mcp_flags.ts";

/** Serve the start failure `problems` on the face `options` name; resolves to the exit code (2) once stopped. */
export async function serveStartFailure(
  options: McpOptions,
  authTokens: string[] | undefined,
  problems: readonly string[],
): Promise<number> {
  const factory = startFailureFactory(problems);
  const onError = (e: Error) => console.error(`ptc mcp: ${e.message}`);
  let stopRequested!: () => void;
  const stop = new Promise<void>((r) => (stopRequested = r));
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stopRequested);
  let close: () => Promise<void>;
  if (options.http) {
    let face;
    try {
      face = await startHttpFace(factory, {
        ...httpFaceSettings({ ...options, http: options.http }, authTokens),
        saturated: () => false,
        onError,
      });
    } catch (e) {
      console.error(`ptc mcp: ${(e as Error).message}`);
      for (const s of signals) Deno.removeSignalListener(s, stopRequested);
      return 2;
    }
    console.error(`ptc mcp: listening on ${face.url} — not ready: every call answers with the problems above`);
    close = () => face.close();
  } else {
    const stdio = serveMcpStdio(factory, onError);
    stdio.closed.then(stopRequested);
    console.error("ptc mcp: serving stdio — not ready: every call answers with the problems above");
    close = () => stdio.close();
  }
  await stop;
  await close();
  for (const s of signals) Deno.removeSignalListener(s, stopRequested);
  return 2;
}

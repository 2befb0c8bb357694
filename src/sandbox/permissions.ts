/**
 * What the sandbox itself needs from Deno's permissions. From source, the worker entry and the modules it imports
 * (src/sandbox and src/lisp) are loaded at run time, so the host needs read access to them; a compiled binary
 * embeds them and needs nothing.
 * @module
 */
import { fileURLToPath } from "node:url";
import { DEFAULT_WORKER_URL } from "./worker_handle.ts";

/** Absolute directories the host must be able to read to start sandbox workers (empty in a compiled binary). */
export function sandboxReadPaths(workerUrl: URL = DEFAULT_WORKER_URL): string[] {
  if (workerUrl.protocol !== "file:") return [];
  const dir = (u: URL) => fileURLToPath(u).replace(/\/$/, "");
  return [dir(new URL("./", workerUrl)), dir(new URL("../lisp/", workerUrl))];
}

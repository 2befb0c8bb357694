/**
 * Sandbox worker entry: runs PTC-Lisp programs for the host. Created by the pool with
 * `deno: { permissions: "none" }`, so nothing here can reach files, the environment or the network.
 * @module
 */
import { createSession, evaluate } from "../lisp/mod.ts";
import { serveWorker } from "./worker_core.ts";

serveWorker({ createSession, evaluate });

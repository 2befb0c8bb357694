/**
 * Sandbox process entry: runs PTC-Lisp programs for the host over stdin/stdout. Started by the pool with no
 * permissions (from source) or as `ptc __sandbox` (compiled), which drops every baked permission first.
 * @module
 */
import "./drop_permissions.ts";
import { createSession, evaluate, loadLibraries } from "../lisp/mod.ts";
import { serveChild } from "./child_core.ts";
import { childOptionsFromArgs } from "./spawn.ts";

await serveChild({ createSession, evaluate, loadLibraries }, childOptionsFromArgs(Deno.args));

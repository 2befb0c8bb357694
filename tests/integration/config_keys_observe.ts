/**
 * Fixtures of the config-key observations (`config_keys_test.ts`): a config over the MCP stdio fixture that sets the
 * run limits, a credential and the child-environment keys, the one program whose answer shows each of them, and a
 * tiny OpenAPI service (a real HTTP server on 127.0.0.1) for the OpenAPI keys.
 * @module
 */
import { join } from "node:path";
import { DENO, DENO_RUN_ARGS, ROOT, STDIO_FIXTURE } from "../transports/mcp_common/helpers.ts";

/** The credential the stdio config binds, and the environment variable it comes from. */
export const SECRET_VAR = "K24_CONFIG_KEYS_TOKEN";
/** Its value in the tests (the program answers whether it is bound, never the secret). */
export const SECRET_VALUE = "sek";

function stdio(more: Record<string, unknown>, tools: string[]): Record<string, unknown> {
  return {
    transport: "mcp_stdio",
    command: DENO,
    args: [...DENO_RUN_ARGS, "--allow-env", STDIO_FIXTURE],
    cwd: ROOT,
    tools: Object.fromEntries(tools.map((t) => [t, { effect: t === "delete_item" ? "write" : "read" }])),
    ...more,
  };
}

/**
 * The run-limits config: `fx` (default child environment plus a credential-bound variable, and one write tool that
 * the top-level `allow_writes` opens), `fxp` (`pass_path: false`) and `fxi` (`inherit_environment: true`); every
 * `limits.*` key that a run spends or enforces set low, a library, and `more` top-level keys (`catalog`, `read_only`).
 */
export function limitsConfig(more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    credentials: { tok: { source: "env", var: SECRET_VAR } },
    allow_writes: true,
    libraries: [LIBRARY_FILE],
    upstreams: {
      fx: stdio(
        { description: "Fixture of the config-key test", env: { SECRET_X: { binding: "tok" } } },
        ["echo", "sleep", "big", "env", "delete_item"],
      ),
      fxp: stdio({ pass_path: false }, ["env"]),
      fxi: stdio({ inherit_environment: true }, ["env"]),
    },
    limits: {
      max_tool_calls: 12,
      max_write_calls: 1,
      max_catalog_ops: 1,
      call_timeout_ms: 400,
      max_response_bytes: 2000,
      max_catalog_result_bytes: 150,
    },
    ...more,
  };
}

/**
 * One program whose answer shows every limit and environment key of `limitsConfig` (run with `--allow-writes`): the
 * budgets left, a write within and one over `max_write_calls`, the credential bound in the child, PATH with and
 * without `pass_path` (Deno sets a PATH of its own when it has none), HOME with `inherit_environment`, the library's
 * function, a call over `call_timeout_ms`, a response over `max_response_bytes`, calls past `max_tool_calls`, a
 * discovery result over `max_catalog_result_bytes` and a second discovery operation over `max_catalog_ops`.
 */
export const LIMITS_PROGRAM = `
(let [v (fn [r] (get-in r [:value :value]))]
  {:budget (select-keys (budget/remaining)
                        [:tool_calls :write_calls :discovery_ops :call_timeout_ms :max_response_bytes])
   :writes [(:ok (tool/call 'fx/delete-item {:id "1"})) (:reason (tool/call 'fx/delete-item {:id "2"}))]
   :secret-bound (some? (v (tool/call 'fx/env {:name "SECRET_X"})))
   :path-passed (= (v (tool/call 'fx/env {:name "PATH"})) (v (tool/call 'fxp/env {:name "PATH"})))
   :home-default (some? (v (tool/call 'fx/env {:name "HOME"})))
   :home-inherit (some? (v (tool/call 'fxi/env {:name "HOME"})))
   :slow (:reason (tool/call 'fx/sleep {:ms 2000}))
   :big (:reason (tool/call 'fx/big {:bytes 5000}))
   :library (cfgkeys/twice 21)
   :over (:reason (last (mapv (fn [_] (tool/call 'fx/echo {})) (range 12))))
   :dir (:reason (dir 'fx))
   :apropos (:reason (apropos "echo"))})`.replace(/\s+/g, " ").trim();

/** What `LIMITS_PROGRAM` answers under `limitsConfig` (the defaults would give 50/5/25 budgets, no errors). */
export const LIMITS_ANSWER =
  "{:apropos :catalog_cap_exhausted :big :response_too_large :budget {:call_timeout_ms 400 :discovery_ops 1 " +
  ":max_response_bytes 2000 :tool_calls 12 :write_calls 1} :dir :catalog_result_too_large :home-default false " +
  ":home-inherit true :library 42 :over :cap_exhausted :path-passed false :secret-bound true :slow :timeout " +
  ":writes [true :cap_exhausted]}";

/**
 * Whether a write tool is installed: `(budget/remaining)` has `write_calls` only then. Under `read_only: true` the
 * write tool is withheld although `allow_writes` and `--allow-writes` are given (calling it is a runtime error).
 */
export const READ_ONLY_PROGRAM = "(contains? (budget/remaining) :write_calls)";

/** A write under `approve_writes: true`: no person approves it on a face without a way to ask, so it is not sent. */
export const APPROVE_PROGRAM = '(:reason (tool/call \'fx/delete-item {:id "9"}))';

/** What `READ_ONLY_PROGRAM` answers with writes open and under `read_only`. */
export const READ_ONLY_ANSWERS = { open: "true", readOnly: "false" };

/** The library `limitsConfig` loads (relative to the config's folder). */
export const LIBRARY_FILE = "cfgkeys.clj";
const LIBRARY = `(ns cfgkeys
  "Config-key test library."
  {:visibility :prompt})

(defn twice
  "Double a number."
  {:signature "(n :int) -> :int"}
  [n]
  (* 2 n))
`;

/** Write `config` as `name` (and the library it may load) in `dir`; its path. */
export async function writeConfig(dir: string, config: unknown, name = "ptc.json"): Promise<string> {
  await Deno.writeTextFile(join(dir, LIBRARY_FILE), LIBRARY);
  const path = join(dir, name);
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2));
  return path;
}

/**
 * A small OpenAPI service on 127.0.0.1 (OS port): `/things` (an envelope), `/other`, `/pages` (five items by offset
 * and limit) and `/slow` (headers after 1.5 s).
 */
export interface ThingsService {
  url: string;
  close(): Promise<void>;
}

/** Start the service; `close()` stops it and any delayed answer. */
export function startThingsService(): ThingsService {
  const ac = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/things") return Response.json({ data: { items: ["a", "b"] }, meta: { total: 2 } });
    if (path === "/other") return Response.json({ other: true });
    if (path === "/pages") {
      const q = new URL(req.url).searchParams;
      const offset = Number(q.get("offset") ?? 0), limit = Number(q.get("limit") ?? 2);
      return Response.json({ data: { items: ["r1", "r2", "r3", "r4", "r5"].slice(offset, offset + limit) } });
    }
    if (path === "/slow") {
      await new Promise((r) => {
        const t = setTimeout(r, 1500);
        ac.signal.addEventListener("abort", () => (clearTimeout(t), r(undefined)));
      });
      return Response.json({ slow: true });
    }
    return new Response("not found", { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      ac.abort();
      await server.finished;
    },
  };
}

const op = (operationId: string, description: string, parameters: string[] = []) => ({
  get: {
    operationId,
    description,
    parameters: parameters.map((name) => ({ name, in: "query", schema: { type: "integer" } })),
    responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
  },
});

/** The service's OpenAPI document. */
export const THINGS_DOC = {
  openapi: "3.0.3",
  info: { title: "things", version: "1" },
  paths: {
    "/things": op("getThings", "List the things, wrapped in an envelope with metadata about the listing."),
    "/other": op("getOther", "Another operation."),
    "/slow": op("getSlow", "Answers after 1.5 s."),
    "/pages": op("getPages", "Five items, a page at a time.", ["offset", "limit"]),
  },
};

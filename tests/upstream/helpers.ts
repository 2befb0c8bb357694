/** Shared helpers for runtime tests: build a config for the fake transport and start a runtime over it. */
import assert from "node:assert/strict";
import { parseConfigText, type PtcConfig } from "../../src/upstream/config.ts";
import { type Runtime, type RuntimeOptions, startRuntime } from "../../src/upstream/runtime.ts";
import type { CredentialIo } from "../../src/upstream/credentials.ts";
import { fakeRegistry } from "./fake_transport.ts";

export const registry = fakeRegistry();

/** Parse a config document for the fake registry (asserting it is valid). */
export function config(doc: unknown): PtcConfig {
  const r = parseConfigText(JSON.stringify(doc), "/cfg", { registry });
  assert.ok(!Array.isArray(r), JSON.stringify(r));
  return r as PtcConfig;
}

/** In-memory env and files for credentials. */
export function memoryIo(env: Record<string, string>, files: Record<string, string> = {}): CredentialIo {
  return {
    getEnv: (n) => env[n],
    readFile: (p) => p in files ? Promise.resolve(files[p]) : Promise.reject(new Deno.errors.NotFound(p)),
  };
}

/** An input schema for `list-traces`-like tools. */
export const TRACES_INPUT = {
  type: "object",
  properties: {
    org_id: { type: "string", description: "Organization id" },
    environment: { type: "string", enum: ["production", "staging", "development"] },
    limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
    "x-trace-filter": { type: "string" },
  },
  required: ["org_id"],
};

/** An output schema with nested arrays and enums. */
export const TRACES_OUTPUT = {
  type: "object",
  properties: {
    traces: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "string" },
          status: { enum: ["ok", "error"] },
          cost_usd: { type: "number" },
        },
        required: ["id", "status", "cost_usd"],
      },
    },
    next_cursor: { type: "string" },
  },
  required: ["traces"],
};

/** A two-upstream document: `obs` (bearer env credential) and `files` (one write tool, writes allowed). */
export function twoUpstreams(extra: Record<string, unknown> = {}) {
  return {
    credentials: { tok: { source: "env", var: "OBS_TOKEN" } },
    upstreams: {
      obs: {
        transport: "fake",
        description: "Observatory traces",
        base_url: "https://obs.example.com",
        auth: [{ scheme: "bearer", binding: "tok" }],
        tools: [
          { name: "list-traces", description: "List traces", input_schema: TRACES_INPUT, output_schema: TRACES_OUTPUT },
          {
            name: "get-trace",
            description: "Get one trace by id",
            input_schema: { type: "object", properties: { trace_id: { type: "string" } }, required: ["trace_id"] },
          },
          { name: "slow", behavior: "slow" },
          { name: "big", behavior: "big" },
          { name: "headers", behavior: "headers" },
          { name: "fail", behavior: "error_headers" },
          { name: "boom", behavior: "throw" },
          { name: "empty", behavior: "none" },
          { name: "hello", behavior: "text" },
        ],
      },
      files: {
        transport: "fake",
        base_url: "https://files.example.com",
        allow_writes: true,
        tools: [{ name: "delete-file", description: "Delete a file", read_only: false }, { name: "read-file" }],
      },
    },
    ...extra,
  };
}

/**
 * Start a runtime over the fake registry with in-memory credentials and wait until every upstream is ready or has
 * failed its first attempt (the tests that check lazy start use `startRuntime` itself); the process write switch is on
 * unless `options` says otherwise.
 */
export async function start(
  doc: unknown,
  options: RuntimeOptions = {},
  env = { OBS_TOKEN: "tok-123" },
): Promise<Runtime> {
  const rt = await startRuntime(config(doc), {
    registry,
    credentialIo: memoryIo(env),
    log: () => {},
    allowWrites: true,
    start: "background",
    ...options,
  });
  await rt.settle(rt.clock.now() + 10_000);
  return rt;
}

/**
 * An in-process test transport ("fake") so runtime and config tests do not depend on openapi/mcp. Its upstream
 * entry takes the common HTTP keys plus `tools` (each with a `behavior`) and `fail_start`.
 */
import {
  type HttpCommonConfig,
  httpCommonSchemaProperties,
  parseHttpCommon,
} from "../../transports/http_common/config.ts";
import type { JsonObject } from "../../src/core/json.ts";
import {
  type ConfigError,
  type JsonSchema,
  type ToolEntry,
  type ToolResult,
  type Transport,
  type Upstream,
  UpstreamStartError,
} from "../../src/upstream/types.ts";
import { TransportRegistry } from "../../src/upstream/registry.ts";
import { publicEndpoint } from "../../transports/http_common/endpoint.ts";

/** What a fake tool does when called. */
export type Behavior = "echo" | "headers" | "error_headers" | "slow" | "big" | "text" | "none" | "throw";

interface FakeTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  readOnly: boolean;
  behavior: Behavior;
  hidden: boolean;
}

/** Parsed fake config. */
export interface FakeConfig extends HttpCommonConfig {
  tools: FakeTool[];
  failStart?: string;
}

/** Calls seen by every fake upstream (tests reset it). */
export const seenCalls: { server: string; tool: string; args: JsonObject }[] = [];
/** Upstream names whose start fails until removed (live-mode retry tests). */
export const failingUpstreams = new Set<string>();
/** Upstream names whose start waits until the promise settles (tests of "never waited for"). */
export const heldStarts = new Map<string, Promise<void>>();
/** Upstreams started and stopped (leak checks). */
export const lifecycle = { started: 0, stopped: 0 };

const schema: JsonSchema = {
  type: "object",
  properties: {
    ...httpCommonSchemaProperties({ urlKey: "base_url" }),
    tools: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1 },
          description: { type: "string" },
          input_schema: { type: "object" },
          output_schema: { type: "object" },
          read_only: { type: "boolean" },
          hidden: { type: "boolean" },
          behavior: { enum: ["echo", "headers", "error_headers", "slow", "big", "text", "none", "throw"] },
        },
        required: ["name"],
        additionalProperties: false,
      },
    },
    fail_start: { type: "string", description: "Make start fail with this message (plus the auth headers)." },
  },
  required: ["base_url", "tools"],
  additionalProperties: false,
};

/** The fake transport. */
export const fakeTransport: Transport<FakeConfig> = {
  name: "fake",
  configSchema: schema,
  parseConfig(raw, ctx) {
    const common = parseHttpCommon(raw, ctx, { urlKey: "base_url" });
    const errors: ConfigError[] = Array.isArray(common) ? [...common] : [];
    const tools: FakeTool[] = [];
    const seen = new Set<string>();
    (raw.tools as JsonObject[]).forEach((t, i) => {
      const name = String(t.name);
      if (seen.has(name)) errors.push({ path: `${ctx.path}.tools[${i}].name`, message: `duplicate tool "${name}"` });
      seen.add(name);
      tools.push({
        name,
        description: typeof t.description === "string" ? t.description : "",
        inputSchema: (t.input_schema as JsonSchema) ?? { type: "object", properties: {} },
        outputSchema: t.output_schema as JsonSchema | undefined,
        readOnly: t.read_only !== false,
        behavior: (t.behavior as Behavior) ?? "echo",
        hidden: t.hidden === true,
      });
    });
    if (errors.length > 0 || Array.isArray(common)) return errors;
    return { ...common, tools, failStart: raw.fail_start as string | undefined };
  },
  permissions(config) {
    return { net: [config.hostPort], read: [], env: [], run: [] };
  },
  endpoint: (config) => publicEndpoint({ url: config.url }),
  async start(config, deps): Promise<Upstream> {
    if (config.failStart !== undefined) {
      const headers = await deps.credentials.authHeaders(config.auth);
      // "login_required: …" starts with the code of an OAuth upstream that needs a login
      const code = /^login_required\b/.test(config.failStart) ? "login_required" : "connect_failed";
      throw new UpstreamStartError(code, `${config.failStart} ${JSON.stringify(headers)}`, "check it");
    }
    await heldStarts.get(deps.upstreamName);
    if (failingUpstreams.has(deps.upstreamName)) {
      throw new UpstreamStartError("not_ready", "not ready yet");
    }
    lifecycle.started++;
    const entries: ToolEntry[] = config.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      annotations: { readOnlyHint: t.readOnly },
      ...(t.hidden ? { hidden: true } : {}),
      _ptc: { transport: "fake", upstreamName: t.name, method: "GET", path: `/${t.name}` },
    }));
    return {
      listTools: () => entries,
      diagnostics: () => ({ base_url: config.url, tools: entries.length }),
      stop: () => {
        lifecycle.stopped++;
        return Promise.resolve();
      },
      async call(toolName, args, ctx): Promise<ToolResult> {
        seenCalls.push({ server: deps.upstreamName, tool: toolName, args });
        const tool = config.tools.find((t) => t.name === toolName);
        if (!tool) return { ok: false, reason: "upstream_error", message: `unknown tool ${toolName}` };
        const headers = await deps.credentials.authHeaders(config.auth);
        switch (tool.behavior) {
          case "echo":
            return { ok: true, value: { args }, valueKind: "json" };
          case "headers":
            return { ok: true, value: { headers }, valueKind: "json" };
          case "error_headers":
            return { ok: false, reason: "auth_failed", message: `401 for request with ${JSON.stringify(headers)}` };
          case "slow":
            await new Promise<void>((resolve) => {
              if (ctx.signal.aborted) resolve();
              else ctx.signal.addEventListener("abort", () => resolve(), { once: true });
            });
            return { ok: false, reason: "timeout", message: "aborted" };
          case "big":
            return { ok: true, value: "x".repeat(ctx.maxResponseBytes + 10), valueKind: "text" };
          case "text":
            return { ok: true, value: "hello", valueKind: "text" };
          case "none":
            return { ok: true, value: null, valueKind: "none" };
          case "throw":
            throw new Error(`exploded with ${JSON.stringify(headers)}`);
        }
      },
    };
  },
};

/** A registry holding only the fake transport. */
export function fakeRegistry(): TransportRegistry {
  const r = new TransportRegistry();
  r.register(fakeTransport);
  return r;
}

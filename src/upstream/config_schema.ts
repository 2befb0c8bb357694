/**
 * The published JSON Schema of the upstreams config (`ptc docs schema-config`), built from the top-level schema
 * plus every registered transport's `configSchema`, and the pieces the validator uses one section at a time.
 * @module
 */
import type { JsonSchema, Transport } from "./types.ts";
import { credentialSchema } from "./credentials.ts";

/** Default per-run limits (docs/architecture.md, docs/language.md §8). */
export const DEFAULT_RUN_LIMITS = {
  max_tool_calls: 50,
  max_write_calls: 5,
  max_catalog_ops: 25,
  call_timeout_ms: 5000,
  connect_timeout_ms: 5000,
  max_response_bytes: 2 * 1024 * 1024,
  max_catalog_result_bytes: 262144,
} as const;

/** Default catalog settings. */
export const DEFAULT_CATALOG = {
  exposure: "auto",
  inline_max_chars: 800,
  inline_max_tools: 8,
} as const;

const int = (minimum: number, maximum: number, description: string): JsonSchema => ({
  type: "integer",
  minimum,
  maximum,
  description,
});

/** Schema of `limits`. */
export const limitsSchema: JsonSchema = {
  type: "object",
  description: "Per-run budgets (each program evaluation gets fresh counters).",
  properties: {
    max_tool_calls: int(0, 100000, "tool/call budget per run; the next call returns :cap_exhausted (default 50)."),
    max_write_calls: int(0, 100000, "Calls to write tools per run; the next returns :cap_exhausted (default 5)."),
    max_catalog_ops: int(0, 100000, "Discovery operations per run (default 25)."),
    call_timeout_ms: int(1, 600000, "Timeout of one tool call in ms (default 5000)."),
    connect_timeout_ms: int(
      1,
      600000,
      "Connect timeout for HTTP upstreams in ms; an upstream's own connect_timeout_ms applies too, the smaller wins " +
        "(default 5000).",
    ),
    max_response_bytes: int(1, 1073741824, "Largest upstream response per call, in bytes (default 2 MiB)."),
    max_catalog_result_bytes: int(1, 67108864, "Largest discovery result, in JSON bytes (default 262144)."),
  },
  additionalProperties: false,
};

/** Schema of `catalog`. */
export const catalogSchema: JsonSchema = {
  type: "object",
  description: "How the tool catalog is shown to the model.",
  properties: {
    exposure: {
      enum: ["auto", "inline", "lazy"],
      description: "inline: every tool with its signature; lazy: servers only; auto: inline when small (default).",
    },
    inline_max_chars: int(0, 1000000, "auto picks lazy above this many characters of inline text (default 800)."),
    inline_max_tools: int(0, 100000, "auto picks lazy above this many tools (default 8)."),
  },
  additionalProperties: false,
};

/** Default of `max_concurrent_requests`. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

/** `start`: when an upstream is started (top level: the default of every upstream). */
const startSchema: JsonSchema = {
  enum: ["first_use", "background"],
  description: "When ptc starts this upstream: on the first call or discovery that needs it (first_use), or right " +
    "after ptc starts, without waiting for it (background). Default: background for ptc mcp and the REPL, " +
    "first_use for ptc eval.",
};

/** Properties every upstream entry has, whatever its transport. */
export const upstreamCommonSchemaProperties: Record<string, JsonSchema> = {
  transport: { type: "string", description: "Which transport reaches this upstream." },
  description: { type: "string", maxLength: 2000, description: "What this upstream is for (shown to the model)." },
  allow_writes: {
    type: "boolean",
    description:
      "Install this upstream's write tools (also needs the process flag --allow-writes); when set, it wins " +
      "over the top-level allow_writes (false keeps this upstream closed).",
  },
  start: startSchema,
  max_concurrent_requests: int(
    1,
    1024,
    "Calls to this upstream in flight at once; more wait in line within their call's time (default 8).",
  ),
  reconnect_backoff_ms: int(
    1,
    600000,
    "First wait before trying again after a failed start or a lost connection (500).",
  ),
  reconnect_max_backoff_ms: int(1, 3600000, "Longest wait between attempts; ptc keeps trying while it runs (30000)."),
  doctor_probe: {
    type: "object",
    description: "A read tool `ptc doctor --connect` calls to prove the credentials work: {tool, arguments}. " +
      "Without it doctor reports the service reachable but the credentials not checked.",
    properties: {
      tool: { type: "string", minLength: 1, description: "The tool's name as the catalog shows it (kebab-case)." },
      arguments: { type: "object", description: "Its arguments, as a program would pass them." },
    },
    required: ["tool"],
    additionalProperties: false,
  },
};

/** Upstream names become the `srv` of `srv/tool`. */
export const UPSTREAM_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_-]{0,63}$";

/** The top-level schema used for validation (upstream entries are checked per transport, separately). */
export function topLevelSchema(upstreamEntry: JsonSchema = { type: "object" }): JsonSchema {
  return {
    type: "object",
    properties: {
      $schema: { type: "string", description: "Editor hint: path or URL of this schema." },
      credentials: {
        type: "object",
        description: "Named secrets referenced by upstream auth emitters.",
        additionalProperties: credentialSchema,
      },
      upstreams: {
        type: "object",
        description: "The tool servers, by name (the name is the `srv` in (tool/call 'srv/tool …)).",
        additionalProperties: upstreamEntry,
      },
      read_only: { type: "boolean", description: "Hide and refuse every write tool, on every upstream." },
      allow_writes: {
        type: "boolean",
        description: "Install write tools on every upstream that does not set its own allow_writes (also needs the " +
          "process flag --allow-writes).",
      },
      approve_writes: {
        type: "boolean",
        description: "Every write waits for a person's approval before it is sent (MCP elicitation, the REPL's " +
          "y/N); ptc eval refuses writes unless --yes. Either this or --approve-writes turns it on.",
      },
      libraries: {
        type: "array",
        description: "PTC-Lisp library files (.clj, relative to this config) loaded into every sandbox at start.",
        items: { type: "string", pattern: "\\.clj$", minLength: 5 },
        maxItems: 64,
      },
      start: startSchema,
      limits: limitsSchema,
      catalog: catalogSchema,
    },
    required: ["upstreams"],
    additionalProperties: false,
  };
}

/** A transport's entry schema with the common upstream keys merged in (transport pinned to its name). */
export function transportEntrySchema(t: Transport<unknown>): JsonSchema {
  const own = (t.configSchema.properties ?? {}) as Record<string, JsonSchema>;
  return {
    ...t.configSchema,
    type: "object",
    properties: { ...upstreamCommonSchemaProperties, ...own, transport: { const: t.name } },
    required: [...new Set(["transport", ...((t.configSchema.required as string[] | undefined) ?? [])])],
    additionalProperties: false,
  };
}

/** The complete published schema: the top level plus one `$defs` entry per registered transport. */
export function buildConfigSchema(transports: Transport<unknown>[]): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  for (const t of transports) defs[`upstream_${t.name}`] = transportEntrySchema(t);
  const entry: JsonSchema = {
    type: "object",
    required: ["transport"],
    properties: { transport: { enum: transports.map((t) => t.name) } },
    allOf: transports.map((t) => ({
      if: { properties: { transport: { const: t.name } }, required: ["transport"] },
      then: { $ref: `#/$defs/upstream_${t.name}` },
    })),
  };
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "ptc upstreams config",
    description:
      "JSONC file named by --upstreams-config or PTC_UPSTREAMS, else ./ptc.jsonc or $XDG_CONFIG_HOME/ptc/config.jsonc.",
    ...topLevelSchema(entry),
    $defs: defs,
  };
}

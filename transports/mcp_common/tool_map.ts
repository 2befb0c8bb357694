/**
 * The operator's MCP tool mapping (`tools` on an MCP upstream): server tool name → what ptc installs it as. With a
 * mapping only the mapped tools exist for ptc; the operator's `effect` is authoritative (the server's annotations
 * cannot widen it). This is the one definition of a mapping entry: later per-tool keys are added here.
 * @module
 */
import type { ConfigError, JsonSchema, Pagination, ToolEffect } from "../../src/upstream/types.ts";
import { joinKey } from "../../src/upstream/messages.ts";
import { unknownKeys } from "../../src/upstream/config_keys.ts";
import { paginationParamProblems, paginationSchema, parsePagination } from "../../src/upstream/pagination.ts";

/** How much of a server's own error text (an `isError` result or a JSON-RPC error to `tools/call`) a program sees. */
export type ErrorFeedback = "closed" | "bounded";

/** Most bytes of server error text `error_feedback: "bounded"` passes on. */
export const BOUNDED_ERROR_BYTES = 1024;

/** One mapped tool. */
export interface ToolMapping {
  /** Exposed (kebab-case) name; default: the server's name kebab-cased. */
  as?: string;
  /** Replaces the server's description. */
  description?: string;
  /** What the tool does, as the operator declares it. */
  effect: ToolEffect;
  /** Callable, but left out of the prompt catalog. */
  hidden?: boolean;
  /** `closed`: only the reason; `bounded` (default): up to 1,024 bytes of the server's text, marked untrusted. */
  errorFeedback: ErrorFeedback;
  /** How the tool pages (`tool/pages`); its parameter names are checked when the server lists the tool. */
  pagination?: Pagination | false;
}

/** Server tool name → its mapping. */
export type ToolMap = Map<string, ToolMapping>;

const ENTRY_KEYS = ["as", "description", "effect", "hidden", "error_feedback", "pagination"];
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** JSON Schema of the `tools` key. */
export const toolMapSchema: JsonSchema = {
  type: "object",
  description: "Server tool name → how ptc installs it. With a mapping only the mapped tools are installed.",
  additionalProperties: {
    type: "object",
    properties: {
      as: { type: "string", description: "Exposed kebab-case name (default: the server's name kebab-cased)." },
      description: { type: "string", maxLength: 2000, description: "Replaces the server's description." },
      effect: {
        enum: ["read", "write"],
        description: "What the tool does; wins over the server's annotations. Write tools pass the write gate.",
      },
      hidden: { type: "boolean", description: "Callable but left out of the prompt catalog." },
      error_feedback: {
        enum: ["closed", "bounded"],
        description: "closed: only the reason; bounded (default): up to 1024 bytes of server text, marked untrusted.",
      },
      pagination: paginationSchema(
        "How the tool pages, for tool/pages (the descriptor OpenAPI's x-ptc-pagination takes); false: it does not " +
          "page (no inference).",
      ),
    },
    required: ["effect"],
    additionalProperties: false,
  },
};

/** Parse `tools` (absent → undefined: every server tool, effect from its annotations). */
export function parseToolMap(raw: unknown, path: string, errors: ConfigError[]): ToolMap | undefined {
  if (raw === undefined || raw === null) return undefined;
  const at = joinKey(path, "tools");
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push({ path: at, message: 'must be an object: server tool name → {"effect": "read" | "write", …}' });
    return undefined;
  }
  const map: ToolMap = new Map();
  const exposedBy = new Map<string, string>();
  for (const [server, value] of Object.entries(raw as Record<string, unknown>)) {
    const p = joinKey(at, server);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      errors.push({ path: p, message: 'must be an object like {"effect": "read"}' });
      continue;
    }
    const v = value as Record<string, unknown>;
    unknownKeys(v, ENTRY_KEYS, p, errors);
    if (v.effect !== "read" && v.effect !== "write") {
      errors.push({ path: joinKey(p, "effect"), message: 'required: "read" or "write"' });
      continue;
    }
    const entry: ToolMapping = { effect: v.effect, errorFeedback: "bounded" };
    if (v.as !== undefined) {
      if (typeof v.as !== "string" || !KEBAB.test(v.as)) {
        errors.push({ path: joinKey(p, "as"), message: "must be a kebab-case name like list-items" });
      } else entry.as = v.as;
    }
    if (v.description !== undefined) {
      if (typeof v.description !== "string") errors.push({ path: joinKey(p, "description"), message: "must be text" });
      else entry.description = v.description;
    }
    if (v.hidden !== undefined) {
      if (typeof v.hidden !== "boolean") errors.push({ path: joinKey(p, "hidden"), message: "must be true or false" });
      else if (v.hidden) entry.hidden = true;
    }
    if (v.error_feedback !== undefined) {
      if (v.error_feedback !== "closed" && v.error_feedback !== "bounded") {
        errors.push({ path: joinKey(p, "error_feedback"), message: 'must be "closed" or "bounded"' });
      } else entry.errorFeedback = v.error_feedback;
    }
    if (v.pagination !== undefined) {
      const parsed = parsePagination(v.pagination, joinKey(p, "pagination"), undefined);
      if (Array.isArray(parsed)) errors.push(...parsed.map(asConfigError));
      else entry.pagination = parsed;
    }
    if (entry.as !== undefined) {
      const other = exposedBy.get(entry.as);
      if (other !== undefined) {
        errors.push({ path: joinKey(p, "as"), message: `"${entry.as}" is already the name of mapped tool "${other}"` });
      } else exposedBy.set(entry.as, server);
    }
    map.set(server, entry);
  }
  return map;
}

/** A `key.path: message` problem line as a ConfigError. */
function asConfigError(problem: string): ConfigError {
  const i = problem.indexOf(": ");
  return i < 0 ? { path: "", message: problem } : { path: problem.slice(0, i), message: problem.slice(i + 2) };
}

/**
 * Problems with a mapped tool's pagination against the tool as the server lists it: each parameter it names must be
 * a property of the tool's `inputSchema`. Paths start at `tools.<server name>.pagination` (the runtime names the
 * upstream).
 */
export function mappedPaginationProblems(
  server: string,
  mapping: ToolMapping,
  inputSchema: Record<string, unknown> | undefined,
): string[] {
  if (!mapping.pagination) return [];
  const props = inputSchema?.properties;
  const params = props && typeof props === "object" ? Object.keys(props) : [];
  return paginationParamProblems(mapping.pagination, joinKey(joinKey("tools", server), "pagination"), params);
}

/**
 * What a program sees of a server's error text under `feedback`: nothing but the fact (closed), or the first
 * 1,024 bytes marked as untrusted server text (bounded). `what` says which kind of error it was (an `isError`
 * result by default; a JSON-RPC error names its code). `serverText` must already be redacted.
 */
export function errorFeedbackText(
  label: string,
  serverText: string,
  feedback: ErrorFeedback,
  what = "the tool reported an error",
): string {
  if (feedback === "closed") {
    return `${label}: ${what} (its text is withheld: error_feedback closed)`;
  }
  const bytes = new TextEncoder().encode(serverText);
  let text = serverText;
  if (bytes.length > BOUNDED_ERROR_BYTES) {
    text = new TextDecoder().decode(bytes.slice(0, BOUNDED_ERROR_BYTES)).replace(/\uFFFD+$/, "") + "…";
  }
  return `${label}: ${what}; untrusted server text follows: ${JSON.stringify(text)}`;
}

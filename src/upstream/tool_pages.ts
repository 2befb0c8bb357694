/**
 * The `tool/pages` host callback: follow a tool's declared pagination (`ToolEntry.pagination`) page by page, each
 * page an ordinary `tool/call` (validated, charged against the tool-call budget, bounded by the response cap,
 * recorded), concatenating the items. It stops at the last page, at `:max-pages`, at the end of the page that brings
 * the items to `:max-items` (pages are kept whole, so `next` resumes right after the last item returned — a cursor
 * cannot resume inside a page), when the items gathered would exceed the run's response cap, on a repeated cursor, or
 * on the first failed page — and says which. A descriptor the runtime inferred is followed like a declared one.
 * The loop lives here, on the host side of the tool seam, so every page is budgeted exactly like a call and the
 * language needs no knowledge of cursors or transports.
 *
 * Request: `{name: "pages", args: {server, tool, args, options: {max_pages?, max_items?}}}`. Answer: a `value`
 * outcome `{items, complete, pages, stopped, message?, next}` (`stopped` null when complete; `next` the cursor or
 * offset to resume from, null when complete).
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import type { ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import { didYouMean } from "../core/suggest.ts";
import type { JsonSchema, Pagination } from "./types.ts";
import type { RunScope } from "./run_records.ts";
import { atPath, showPath } from "./pagination.ts";
import { callTool } from "./tool_call.ts";
import { jsonBytes } from "./bytes.ts";
import { describeValue } from "./messages.ts";

/** Pages followed when the program does not say. */
export const DEFAULT_MAX_PAGES = 10;
/** The most pages one form may ask for (each is still a budgeted call). */
export const MAX_MAX_PAGES = 1000;

const OPTION_KEYS = ["max_pages", "max_items"];

interface PageState {
  items: JsonValue[];
  pages: number;
  bytes: number;
}

function raise(message: string): ToolOutcome {
  return { kind: "raise", reason: "runtime_error", message };
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function intOption(options: JsonObject, key: string, max: number, dflt: number | undefined): number | string {
  const v = options[key];
  if (v === undefined || v === null) return dflt ?? Infinity;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > max) {
    return `tool/pages :${key.replace(/_/g, "-")} must be an integer 1..${max}, got ${describeValue(v)}`;
  }
  return v;
}

function done(state: PageState, stopped: string | null, message?: string, next: JsonValue = null): ToolOutcome {
  return {
    kind: "value",
    value: {
      items: state.items,
      complete: stopped === null,
      pages: state.pages,
      stopped,
      ...(message ? { message } : {}),
      next: stopped === null ? null : next,
    },
  };
}

/** Follow the pages of one tool for a run. Never throws. */
export async function pagesTool(ctx: RunScope, request: ToolRequest): Promise<ToolOutcome> {
  const req = request.args;
  if (!isObject(req)) return raise("tool/pages expects 'server/tool, an argument map and an optional option map");
  const { server, tool } = req;
  if (typeof server !== "string" || typeof tool !== "string" || server === "" || tool === "") {
    return raise(`tool/pages needs a quoted 'server/tool, got ${describeValue(server)}/${describeValue(tool)}`);
  }
  const args = req.args ?? {};
  if (!isObject(args)) {
    return raise(`tool/pages '${server}/${tool}: arguments must be a map, got ${describeValue(args)}`);
  }
  const rawOptions = req.options ?? {};
  if (!isObject(rawOptions)) return raise(`tool/pages options must be a map like {:max-pages 20}`);
  const options: JsonObject = {};
  for (const [k, v] of Object.entries(rawOptions)) {
    const key = k.replace(/-/g, "_");
    if (!OPTION_KEYS.includes(key)) {
      const spelled = OPTION_KEYS.map((o) => o.replace(/_/g, "-"));
      return raise(
        `tool/pages: unknown option :${k}${didYouMean(k.replace(/_/g, "-"), spelled)} (options: :max-pages :max-items)`,
      );
    }
    options[key] = v;
  }
  const maxPages = intOption(options, "max_pages", MAX_MAX_PAGES, DEFAULT_MAX_PAGES);
  if (typeof maxPages === "string") return raise(maxPages);
  const maxItems = intOption(options, "max_items", Number.MAX_SAFE_INTEGER, undefined);
  if (typeof maxItems === "string") return raise(maxItems);

  const call = (pageArgs: JsonObject) => callTool(ctx, { name: "call", args: { server, tool, args: pageArgs } });
  let entry = ctx.runtime.findTool(server, tool);
  let pagination = entry?.pagination;
  let first: ToolOutcome | undefined;
  if (entry !== undefined && !pagination) return notPaged(server, tool, pagination === false);
  if (entry === undefined) {
    // Unknown upstream or tool, a withheld tool, an unavailable upstream: the call says so exactly as tool/call.
    first = await call(args);
    if (first.kind === "raise") return first;
    entry = ctx.runtime.findTool(server, tool);
    pagination = entry?.pagination;
    if (first.kind === "tagged" && !first.ok) return done(emptyState(1), first.reason, first.message);
    if (entry === undefined || !pagination) return notPaged(server, tool, pagination === false);
  }
  if (!pagination) return notPaged(server, tool, pagination === false);
  const limit = pagination.style === "offset" && pagination.limitParam
    ? pageSize(args, pagination.limitParam, entry?.inputSchema ?? {})
    : undefined;
  return await follow(ctx, pagination, args, { maxPages, maxItems, limit }, call, first);
}

function notPaged(server: string, tool: string, declared: boolean): ToolOutcome {
  const why = declared
    ? "the operator declared that it does not page (pagination: false)"
    : "it declares no pagination and none could be inferred from its schemas (a cursor argument and a next-cursor " +
      "result field)";
  return raise(
    `tool '${server}/${tool}' cannot be followed by tool/pages: ${why}; call it with tool/call ` +
      `((doc '${server}/${tool}) shows how it returns results)${
        declared ? "" : ", or ask the operator for a pagination setting"
      }`,
  );
}

function emptyState(pages = 0): PageState {
  return { items: [], pages, bytes: 2 };
}

async function follow(
  ctx: RunScope,
  p: Pagination,
  args: JsonObject,
  caps: { maxPages: number; maxItems: number; limit: number | undefined },
  call: (args: JsonObject) => Promise<ToolOutcome>,
  first: ToolOutcome | undefined,
): Promise<ToolOutcome> {
  const state = emptyState();
  const seen = new Set<string>();
  let cursor: JsonValue | undefined = p.style === "cursor" ? args[p.cursorParam] : undefined;
  if (typeof cursor === "string") seen.add(cursor);
  let offset = p.style === "offset" ? Number(args[p.offsetParam] ?? 0) : 0;
  const limit = caps.limit;
  const next = (): JsonValue => p.style === "cursor" ? (cursor ?? null) : offset;
  while (true) {
    if (state.pages >= caps.maxPages) {
      return done(state, "max_pages", `stopped after ${state.pages} pages (:max-pages ${caps.maxPages})`, next());
    }
    const pageArgs: JsonObject = { ...args };
    if (p.style === "cursor" && cursor !== undefined && cursor !== null) pageArgs[p.cursorParam] = cursor;
    if (p.style === "offset") pageArgs[p.offsetParam] = offset;
    const outcome = first ?? await call(pageArgs);
    first = undefined;
    if (outcome.kind === "raise") return outcome;
    if (outcome.kind === "value") return raise("tool/pages: a page came back untagged");
    state.pages++;
    if (!outcome.ok) {
      return done(state, outcome.reason, `page ${state.pages}: ${outcome.message}`, next());
    }
    const page = outcome.value;
    const items = atPath(page, p.items);
    if (!Array.isArray(items)) {
      return done(
        state,
        "invalid_response",
        `page ${state.pages} has no list at \`${showPath(p.items)}\` (got ${describeValue(items ?? null)})`,
        next(),
      );
    }
    const bytes = jsonBytes(items) - 1; // the brackets are counted once for the whole list
    if (state.bytes + bytes > ctx.limits.maxResponseBytes) {
      return done(
        state,
        "response_too_large",
        `page ${state.pages} would take the items past the ${ctx.limits.maxResponseBytes}-byte response cap; ` +
          "narrow the filters or lower :max-pages",
        next(),
      );
    }
    state.bytes += bytes;
    state.items.push(...items);
    // The whole page is kept: `next` then points right after the last item returned, never inside a page.
    const full = () =>
      done(
        state,
        "max_items",
        `stopped after page ${state.pages} with ${state.items.length} items (:max-items ${caps.maxItems}; pages ` +
          "are kept whole, so :next resumes right after the last item)",
        next(),
      );
    if (p.style === "offset") {
      offset += items.length;
      if (items.length === 0 || (limit !== undefined && items.length < limit)) return done(state, null);
      if (state.items.length >= caps.maxItems) return full();
      continue;
    }
    const nextCursor = atPath(page, p.nextCursor);
    if (nextCursor === undefined || nextCursor === null || nextCursor === "") return done(state, null);
    if (typeof nextCursor !== "string" && typeof nextCursor !== "number") {
      return done(state, "invalid_response", `page ${state.pages}: \`${showPath(p.nextCursor)}\` is not a cursor`);
    }
    const key = String(nextCursor);
    if (seen.has(key)) {
      return done(state, "repeated_cursor", `page ${state.pages} returned a cursor already followed; stopped`, null);
    }
    seen.add(key);
    cursor = nextCursor;
    if (state.items.length >= caps.maxItems) return full();
  }
}

/** The page size the upstream will use: the argument, else the parameter's schema default. */
function pageSize(args: JsonObject, limitParam: string, schema: JsonSchema): number | undefined {
  const given = args[limitParam];
  if (typeof given === "number") return given;
  const props = schema.properties as Record<string, { default?: unknown }> | undefined;
  const dflt = props?.[limitParam]?.default;
  return typeof dflt === "number" ? dflt : undefined;
}

/**
 * The MCP server factory: one `McpServer` per serving unit (an HTTP request or a stdio connection), answering both
 * protocol eras. Tools: `lisp_eval`, the `lisp_session_*` family (`--sessions`) and the introspection tools
 * (`--introspection`). Factories are cheap: everything expensive (the description, the catalog) is computed once.
 * @module
 */
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { elicitationApprover, type ElicitInput } from "./elicit_approval.ts";
import { type Approver, DEFAULT_APPROVAL_WAIT_MS } from "../upstream/approval.ts";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import type { Engine, EngineEvalResult } from "../engine/types.ts";
import type { JsonObject } from "../core/json.ts";
import { VERSION } from "../version.ts";
import { librariesCard, limitsInView, lispEvalDescription } from "./card.ts";
import { errorResponse, outputCaps, renderEvalResult, type ResponseProfile, type ToolResponse } from "./envelope.ts";
import type { AuditedEval, AuditTrail } from "./audit_trail.ts";
import type { EvalSubject } from "./audit_lines.ts";
import type { ConcurrencyGate } from "./gate.ts";
import type { ServerMetrics } from "./prometheus.ts";
import { getOperationSchema, IntrospectionError, listApiServices, listServiceOperations } from "./introspection.ts";
import { SessionError, type SessionManager } from "./sessions.ts";
import { ArgsError, checkContext, checkOutputSchema, checkProgram } from "./tool_args.ts";

const validator = new CfWorkerJsonSchemaValidator();

/** What the factory needs. */
export interface ServerDeps {
  engine: Engine;
  gate: ConcurrencyGate;
  sessions?: SessionManager;
  introspection: boolean;
  profile: ResponseProfile;
  /** The description's catalog exposure; undefined: the config's `catalog.exposure`. */
  catalogMode?: "auto" | "inline" | "lazy";
  maxProgramBytes: number;
  maxContextBytes: number;
  programTimeoutMs: number;
  /** `--approval-timeout-ms`: how long one write approval (elicitation) may take. */
  approvalTimeoutMs?: number;
  /** True once shutdown started: new calls get `shutting_down`. */
  isShuttingDown: () => boolean;
  /** `--audit-log`: every evaluation request and its upstream calls are logged; unwritable → `audit_unavailable`. */
  audit?: AuditTrail;
  /** Counts every evaluation answer (`GET /metrics` of the HTTP face). */
  metrics?: ServerMetrics;
  /** `--view`: told of every evaluation request and its response, like the audit trail (the live viewer). */
  view?: EvalObserver;
}

/** Something told of each evaluation request (`begin`) and, through what it returns, of its response. */
export interface EvalObserver {
  begin(subject: Omit<EvalSubject, "face">, program: unknown): AuditedEval;
}

/** The audit trail and the viewer, as one observer of an evaluation request (undefined when neither is on). */
function observe(deps: ServerDeps, subject: Omit<EvalSubject, "face">, program: unknown): AuditedEval | undefined {
  const seen = [deps.audit?.begin(subject, program), deps.view?.begin(subject, program)].filter((o) => o !== undefined);
  if (seen.length === 0) return undefined;
  return {
    end: async (response, result) => {
      for (const o of seen) await o.end(response, result);
    },
  };
}

const EVAL_PROPS = {
  program: { type: "string", description: "PTC-Lisp source; the value of the last form is the answer" },
  context: {
    type: "object",
    description: "JSON object; each key is readable in the program as data/<key>",
    additionalProperties: true,
  },
  output_schema: { type: "object", description: "optional JSON Schema the returned value must satisfy" },
};

type SchemaArg = Parameters<typeof fromJsonSchema>[0];

function schema(properties: Record<string, unknown>, required: string[]) {
  const json = { type: "object", properties, required, additionalProperties: false } as unknown as SchemaArg;
  return fromJsonSchema<Record<string, unknown>>(json, validator);
}

/** Input schemas, built once (factories run per HTTP request). */
const SCHEMAS = {
  eval: schema(EVAL_PROPS, ["program"]),
  empty: schema({}, []),
  sessionStart: schema({
    title: { type: "string", maxLength: 200 },
    ttl_ms: { type: "integer", minimum: 1 },
  }, []),
  sessionEval: schema({ session_id: { type: "string", minLength: 1 }, ...EVAL_PROPS }, ["session_id", "program"]),
  sessionClose: schema({ session_id: { type: "string", minLength: 1 } }, ["session_id"]),
  listOperations: schema({
    service: { type: "string", minLength: 1 },
    filter: { type: "string" },
    limit: { type: "integer", minimum: 1, maximum: 200 },
  }, ["service"]),
  operationSchema: schema({
    service: { type: "string", minLength: 1 },
    operation: { type: "string", minLength: 1 },
    view: { type: "string", enum: ["full", "input", "output"] },
  }, ["service", "operation"]),
};

/** True when any installed tool of the catalog is a write tool. */
export function hasWriteTools(catalog: ReturnType<Engine["catalog"]>): boolean {
  return catalog.some((s) => s.tools.some((t) => t.effect === "write"));
}

/**
 * `lisp_eval`'s annotations: destructive only when a write tool is installed, so clients can auto-approve an
 * installation that can only read; open-world whenever a program can reach an upstream tool (an external service),
 * closed when it can only compute.
 */
export function lispEvalAnnotations(catalog: ReturnType<Engine["catalog"]>) {
  const openWorldHint = catalog.some((s) => s.tools.length > 0);
  return hasWriteTools(catalog)
    ? { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint }
    : { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint };
}

/**
 * The `lisp_eval` description this face serves for `engine` — the one text `ptc catalog --prompt` prints, so an
 * operator sees exactly what the agent sees without an MCP client.
 */
export function lispEvalDescriptionOf(
  engine: Engine,
  view: Pick<ServerDeps, "catalogMode" | "profile" | "programTimeoutMs">,
): string {
  const hasTools = engine.catalog().length > 0;
  const writes = hasWriteTools(engine.catalog());
  return lispEvalDescription({
    hasTools,
    catalogText: hasTools ? engine.renderCatalog(view.catalogMode) : "",
    librariesText: librariesCard(engine.libraries()),
    slim: view.profile === "slim",
    limits: limitsInView(view.programTimeoutMs, hasTools ? engine.runLimits() : undefined, writes),
    writes,
    approval: engine.approvesWrites(),
    output: outputCaps(view.profile),
  });
}

/**
 * Build the factory. The description is rendered from the catalog as it is when a session starts, and kept current:
 * when an upstream comes up, fails or restarts, each live session's `lisp_eval` description is updated (clients hear
 * `notifications/tools/list_changed`).
 */
export function createServerFactory(deps: ServerDeps) {
  const describe = () => lispEvalDescriptionOf(deps.engine, deps);

  return (ctx: { authInfo?: { clientId: string } }) => {
    const owner = ctx.authInfo?.clientId ?? "local";
    const server = new McpServer(
      { name: "ptc", version: VERSION },
      {
        capabilities: { tools: { listChanged: true } },
        jsonSchemaValidator: validator,
        cacheHints: {
          "tools/list": { ttlMs: 60_000, cacheScope: "public" },
          "server/discover": { ttlMs: 300_000, cacheScope: "public" },
        },
      },
    );
    let description = describe();
    const tool = server.registerTool(
      "lisp_eval",
      {
        description,
        inputSchema: SCHEMAS.eval,
        annotations: lispEvalAnnotations(deps.engine.catalog()),
      },
      (args, extra) =>
        runEval(
          deps,
          args,
          extra.mcpReq.signal,
          fairnessOwner(owner, extra),
          (req) => deps.engine.evaluate({ ...req, owner, ...approvalFor(deps, extra) }),
          observe(deps, { owner, tool: "lisp_eval" }, args.program),
        ),
    );
    // Held weakly: a session that ended (its server collected) unsubscribes at the next event.
    const live = new WeakRef(tool);
    const unsubscribe = deps.engine.subscribe((e) => {
      if (e.type !== "phase" || !["ready", "failed", "reconnecting"].includes(e.to)) return;
      const current = live.deref();
      if (!current) return unsubscribe();
      const next = describe();
      if (next === description) return;
      description = next;
      current.update({ description, annotations: lispEvalAnnotations(deps.engine.catalog()) });
    });
    if (deps.sessions) registerSessionTools(server, deps, deps.sessions, owner);
    if (deps.introspection) registerIntrospection(server, deps);
    return server;
  };
}

/** The request's own approver: writes under `--approve-writes` ask this request's client (elicitation). */
function approvalFor(deps: ServerDeps, extra: unknown): { approver: Approver; approvalWaitMs: number } {
  const wait = deps.approvalTimeoutMs ?? DEFAULT_APPROVAL_WAIT_MS;
  const elicit = (extra as { mcpReq?: { elicitInput?: ElicitInput } }).mcpReq?.elicitInput;
  return { approver: elicitationApprover(elicit, wait), approvalWaitMs: wait };
}

type Evaluate = (req: {
  program: string;
  context?: JsonObject;
  timeoutMs: number;
  signal: AbortSignal;
  outputSchema?: JsonObject;
}) => Promise<EngineEvalResult>;

/**
 * Who a call counts against for the gate's per-owner share: the authenticated client, refined by the client name
 * the request declares (`clientInfo` of the 2026-07-28 envelope). The name is not authenticated: it only keeps
 * cooperating clients behind one token from starving each other; the gate's total bounds everyone.
 */
function fairnessOwner(owner: string, extra: unknown): string {
  const envelope = (extra as { mcpReq?: { envelope?: Record<string, { name?: unknown } | undefined> } }).mcpReq
    ?.envelope;
  const name = envelope?.["io.modelcontextprotocol/clientInfo"]?.name;
  return typeof name === "string" && name !== "" ? `${owner}|${name.slice(0, 200)}` : owner;
}

async function runEval(
  deps: ServerDeps,
  args: Record<string, unknown>,
  signal: AbortSignal,
  owner: string,
  evaluate: Evaluate,
  audit?: AuditedEval,
): Promise<ToolResponse> {
  // Every answer of an audited request is logged before it goes out (inside the permit when it ran), and counted.
  const answer = async (response: ToolResponse, result?: EngineEvalResult, refusal?: string) => {
    if (result) deps.metrics?.evaluation(result, refusal);
    else if (refusal) deps.metrics?.refused(refusal);
    await audit?.end(response, result);
    return response;
  };
  const refuse = (reason: string, message: string) =>
    answer(errorResponse(reason, message, deps.profile), undefined, reason);
  if (deps.isShuttingDown()) return refuse("shutting_down", "the server is shutting down");
  if (deps.audit && !(await deps.audit.admit())) {
    deps.metrics?.refused("audit_unavailable");
    return errorResponse("audit_unavailable", "the audit log cannot be written; ask the operator", deps.profile);
  }
  let program: string;
  let context: JsonObject | undefined;
  let output;
  try {
    program = checkProgram(args.program, deps);
    context = checkContext(args.context, deps);
    output = checkOutputSchema(args.output_schema);
  } catch (e) {
    if (e instanceof ArgsError) return refuse("args_error", e.message);
    throw e;
  }
  const permit = deps.gate.tryAcquire(owner);
  if (!permit.ok) return refuse("busy", permit.message);
  const release = permit.release;
  try {
    const result = await evaluate({
      program,
      context,
      timeoutMs: deps.programTimeoutMs,
      signal,
      outputSchema: output,
    });
    // A value that does not satisfy the client's output_schema is answered (and counted) as validation_error.
    const invalid = output !== undefined && result.ok && result.status !== "failed" &&
      result.outputCheck?.valid !== true;
    return await answer(
      renderChecked(result, output !== undefined, deps.profile),
      result,
      invalid ? "validation_error" : undefined,
    );
  } finally {
    release();
  }
}

/** The response of an evaluation, its value checked against the client's `output_schema` when one was given. */
function renderChecked(result: EngineEvalResult, checked: boolean, profile: ResponseProfile): ToolResponse {
  if (checked && result.ok && result.status !== "failed") {
    // Validated inside the sandbox process: a catastrophic schema costs that process, never the host.
    const check = result.outputCheck ??
      { valid: false, message: "the value could not be checked against output_schema" };
    if (!check.valid) {
      return renderEvalResult({ ...result, ok: false, reason: "validation_error", message: check.message }, {
        profile,
      });
    }
    return renderEvalResult(result, { profile, validated: true });
  }
  return renderEvalResult(result, { profile });
}

function sessionError(e: unknown, profile: ResponseProfile): ToolResponse {
  if (e instanceof SessionError) return errorResponse(e.reason, e.message, profile);
  throw e;
}

function registerSessionTools(
  server: McpServer,
  deps: ServerDeps,
  sessions: SessionManager,
  owner: string,
) {
  const json = (value: unknown): ToolResponse => ({
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value as JsonObject,
  });
  server.registerTool(
    "lisp_session_start",
    {
      description: "Open a PTC-Lisp session whose defs and *1 *2 *3 persist between lisp_session_eval calls. " +
        "Returns {session_id}. Close it with lisp_session_close when done.",
      inputSchema: SCHEMAS.sessionStart,
    },
    async (args, extra) => {
      if (deps.isShuttingDown()) return errorResponse("shutting_down", "the server is shutting down", deps.profile);
      // A start brings up a sandbox process: it holds an evaluation permit meanwhile, so starts cannot outrun the
      // gate. The manager reserves the session slot before it awaits anything.
      const permit = deps.gate.tryAcquire(fairnessOwner(owner, extra));
      if (!permit.ok) return errorResponse("busy", permit.message, deps.profile);
      try {
        return json(await sessions.start(owner, (args.title as string) ?? "", args.ttl_ms as number | undefined));
      } catch (e) {
        return sessionError(e, deps.profile);
      } finally {
        permit.release();
      }
    },
  );
  server.registerTool(
    "lisp_session_eval",
    {
      description: "Evaluate a PTC-Lisp program in an open session (see lisp_session_start): same language, tools, " +
        "arguments and results as lisp_eval, plus the session's earlier defs and *1 *2 *3.",
      inputSchema: SCHEMAS.sessionEval,
    },
    async (args, extra) => {
      try {
        return await sessions.use(
          owner,
          args.session_id as string,
          (s) =>
            runEval(
              deps,
              args,
              extra.mcpReq.signal,
              fairnessOwner(owner, extra),
              (req) => s.eval({ ...req, owner, ...approvalFor(deps, extra) }),
              observe(deps, { owner, sessionId: s.id, tool: "lisp_session_eval" }, args.program),
            ),
        );
      } catch (e) {
        const response = sessionError(e, deps.profile);
        if (e instanceof SessionError) deps.metrics?.refused(e.reason);
        // Refused before it ran (unknown, foreign or busy session): the client's session id is not logged.
        await observe(deps, { owner, tool: "lisp_session_eval" }, args.program)?.end(response);
        return response;
      }
    },
  );
  server.registerTool(
    "lisp_session_list",
    { description: "List your open PTC-Lisp sessions.", inputSchema: SCHEMAS.empty },
    () => json({ sessions: sessions.list(owner) }),
  );
  server.registerTool(
    "lisp_session_close",
    {
      description: "Close a PTC-Lisp session and free its sandbox.",
      inputSchema: SCHEMAS.sessionClose,
    },
    async (args) => {
      const closed = await sessions.close(owner, args.session_id as string);
      return closed
        ? json({ closed: true, session_id: args.session_id })
        : errorResponse("unknown_session", `no open session '${args.session_id}'`, deps.profile);
    },
  );
}

function registerIntrospection(server: McpServer, deps: ServerDeps) {
  const wrap = (fn: () => { json: JsonObject; text: string }): ToolResponse => {
    try {
      const { json, text } = fn();
      return { content: [{ type: "text", text }], structuredContent: json };
    } catch (e) {
      if (e instanceof IntrospectionError) return errorResponse("not_found", e.message, deps.profile);
      throw e;
    }
  };
  const asText = (json: JsonObject) => ({ json, text: JSON.stringify(json, null, 1) });
  server.registerTool(
    "list_api_services",
    {
      description: "List the configured services (upstreams) and how many operations each offers.",
      inputSchema: SCHEMAS.empty,
      annotations: { readOnlyHint: true },
    },
    () => wrap(() => asText(listApiServices(deps.engine.catalog()))),
  );
  server.registerTool(
    "list_service_operations",
    {
      description: "List a service's operations, optionally filtered by a substring.",
      inputSchema: SCHEMAS.listOperations,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      wrap(() =>
        asText(
          listServiceOperations(deps.engine.catalog(), args as { service: string; filter?: string; limit?: number }),
        )
      ),
  );
  server.registerTool(
    "get_operation_schema",
    {
      description: "Show an operation's input/output schema, its PTC-Lisp call and an unauthenticated curl template.",
      inputSchema: SCHEMAS.operationSchema,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      wrap(() =>
        getOperationSchema(
          deps.engine.catalog(),
          args as { service: string; operation: string; view?: "full" | "input" | "output" },
        )
      ),
  );
}

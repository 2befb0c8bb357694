/**
 * Where each key of the published config schema is observed to have its effect, per face that reads it. Checked by
 * `config_keys_test.ts` against `buildConfigSchema(listTransports())`: a schema key without an entry, an entry for a
 * key the schema no longer has, or a pointer to a file that does not hold the test or never names the key, fails.
 *
 * A new config key comes with one line here (and its observation). Key paths: `a.b`, a map's or an array's items as
 * `*`, a transport's keys as `upstreams.<transport>.<key>`.
 *
 * Faces: `eval`, `repl`, `mcp`, `catalog`, `doctor` are the commands; `upstream` is a transport key (read by the
 * transport itself, the same way whichever face started the upstream); `editor` is what an editor reads (`$schema`).
 * Who reads what (src/cli, src/engine): every face that starts upstreams reads the transport keys and `credentials`;
 * the run budgets (`limits.max_*`, `call_timeout_ms`, `max_response_bytes`) are spent by programs, so eval, repl and
 * mcp read them, and doctor's probe reads the per-call ones and `connect_timeout_ms`; `catalog.exposure` and
 * `inline_max_*` shape the `lisp_eval` description (mcp, `catalog --prompt`); `libraries` load into every engine
 * (eval, repl, mcp; catalog shows their card; doctor does not load them); `read_only` and `allow_writes` gate the
 * installed tools on every face.
 * @module
 */

/** The faces that read config. */
export const FACES = ["eval", "mcp", "repl", "catalog", "doctor", "upstream", "editor"] as const;
/** One face. */
export type Face = typeof FACES[number];

/** A test that sets the key and observes its effect on one face. */
export interface Observation {
  face: Face;
  /** Path from the repository root. */
  file: string;
  /** The test's name (or a unique part of it). */
  test: string;
  /** Work elsewhere that owns this key's behaviour and will replace the pointer. */
  owner?: string;
}

const at = (file: string) => (face: Face, test: string, owner?: string): Observation => ({
  face,
  file: `tests/${file}`,
  test,
  ...(owner ? { owner } : {}),
});

// The inline observations (config_keys_test.ts).
const here = at("integration/config_keys_test.ts");
const EVAL = "config keys on eval: limits, allow_writes, read_only, credentials, pass_path, inherit_environment";
const REPL = "config keys on repl: limits, allow_writes, read_only, credentials, pass_path, inherit_environment";
const MCP = "config keys on mcp: limits, allow_writes, read_only, credentials, catalog.inline_max_*";
const CATALOG = "config keys on catalog: catalog.*, allow_writes, read_only and a credential's var";
const DOCTOR =
  "config keys on doctor: limits.call_timeout_ms, max_response_bytes, allow_writes, read_only, credentials";
const STDERR = "config keys on mcp_stdio: stderr_bytes bounds the tail a start failure shows";
const OPENAPI = "config keys on openapi: result_path, conflicts, max_description_chars, pagination, timeouts";
const MCP_TIMEOUTS = "config keys on mcp_stdio and mcp_http: request_timeout_ms, and mcp_http's connect_timeout_ms";
const SCHEMA = "config keys: $schema is an editor hint ptc accepts (an unknown key is refused)";
const RUN_FACES = [here("eval", EVAL), here("repl", REPL), here("mcp", MCP)];

// Pointers to tests elsewhere.
const stdioTest = at("integration/mcp_stdio_test.ts");
const httpTest = at("integration/mcp_http_test.ts");
const toolMap = at("transports/mcp_common/tool_map_test.ts");
const mcpPages = at("transports/mcp_common/pagination_test.ts");
const httpCommon = at("transports/http_common/config_test.ts");
const credentials = at("upstream/credentials_test.ts");
const compiler = at("transports/openapi/compiler_test.ts");
const executor = at("transports/openapi/executor_integration_test.ts");

const MAPPED = "tool mapping: only mapped tools, renamed and hidden as the operator says; the gate on writes";
const MCP_CAPS = "mcp_http: paging, normalization, caps, timeout, read-only";
const MCP_PAGES = "MCP pagination: tool/pages follows a mapped tool's cursor, one recorded call per page";
const AUTH_SENT = "mcp_http: auth emitters and static headers are sent, secrets never in diagnostics";
const INSECURE = "http_common: one error per rule, each naming its key path";
const LOOPBACK = "http_common: allow_insecure_loopback admits only literal loopback without auth";
const OVERRIDES = "compiler: operator overrides win; the narrower byte cap wins";
const BINARY = "MCP content: binary_content";
const UPSTREAM_GATE = "runtime: the gate per upstream — config (upstream or global) AND process switch";

const supervision = at("upstream/runtime_test.ts");
const polite = at("upstream/polite_client_test.ts");
const START = "runtime: a config's start (top level, then per upstream) wins over the face's default";
const BACKOFF_CAP = "runtime: reconnect_backoff_ms doubles up to reconnect_max_backoff_ms, and ptc keeps trying";

/** The keys every upstream has whatever its transport (src/upstream/config.ts): its supervision. */
function supervised(t: string): Record<string, Observation[]> {
  const p = `upstreams.${t}.`;
  return {
    [`${p}start`]: [supervision("upstream", START)],
    [`${p}max_concurrent_requests`]: [polite("upstream", "max_concurrent_requests bounds the calls in flight")],
    [`${p}reconnect_backoff_ms`]: [supervision("upstream", BACKOFF_CAP)],
    [`${p}reconnect_max_backoff_ms`]: [supervision("upstream", BACKOFF_CAP)],
  };
}

/** The keys both MCP transports share (transports/mcp_common/config.ts), observed once for both. */
function mcpShared(t: "mcp_stdio" | "mcp_http"): Record<string, Observation[]> {
  const p = `upstreams.${t}.`;
  return {
    [`${p}description`]: [here("catalog", CATALOG)], // common key (src/upstream/config.ts), shown by every face
    [`${p}allow_writes`]: [at("upstream/install_test.ts")("upstream", UPSTREAM_GATE), toolMap("upstream", MAPPED)],
    [`${p}doctor_probe.tool`]: [here("doctor", DOCTOR)],
    [`${p}doctor_probe.arguments`]: [here("doctor", DOCTOR)],
    [`${p}max_response_bytes`]: [
      t === "mcp_http"
        ? httpTest("upstream", MCP_CAPS)
        : stdioTest("upstream", "mcp_stdio: byte caps (call cap and upstream hard cap) and timeout"),
    ],
    [`${p}max_tools`]: [httpTest("upstream", MCP_CAPS)],
    [`${p}max_list_pages`]: [httpTest("upstream", MCP_CAPS)],
    [`${p}request_timeout_ms`]: [here("upstream", MCP_TIMEOUTS)],
    [`${p}tools.*.as`]: [toolMap("upstream", MAPPED)],
    [`${p}tools.*.description`]: [toolMap("upstream", MAPPED)],
    [`${p}tools.*.effect`]: [toolMap("upstream", MAPPED)],
    [`${p}tools.*.hidden`]: [toolMap("upstream", MAPPED)],
    [`${p}tools.*.error_feedback`]: [
      toolMap("upstream", "tool mapping: error_feedback closed returns only the reason; bounded marks the server"),
    ],
    [`${p}tools.*.pagination`]: [mcpPages("upstream", MCP_PAGES)],
    [`${p}tools.*.pagination.style`]: [mcpPages("upstream", MCP_PAGES)],
    [`${p}tools.*.pagination.items`]: [mcpPages("upstream", MCP_PAGES)],
    [`${p}tools.*.pagination.cursor_param`]: [mcpPages("upstream", MCP_PAGES)],
    [`${p}tools.*.pagination.next_cursor`]: [mcpPages("upstream", MCP_PAGES)],
    // the offset descriptor is the one parser (src/upstream/pagination.ts) the OpenAPI override goes through
    [`${p}tools.*.pagination.offset_param`]: [here("upstream", OPENAPI)],
    [`${p}tools.*.pagination.limit_param`]: [here("upstream", OPENAPI)],
    [`${p}binary_content`]: [at("integration/mcp_content_test.ts")("upstream", BINARY)],
  };
}

const caFile = at("transports/http_common/ca_file_test.ts");
const CA_FILE = "with ca_file: schema, read and write (a fresh connection) all trust the CA";
const mcpOauth = at("transports/mcp_http/oauth_test.ts");
const openapiOauth = at("transports/openapi/oauth_test.ts");
const CLIENT_CREDENTIALS = "mcp_http oauth2: client credentials, by discovery and by token_url";
const OPENAPI_CC =
  "openapi oauth2: client credentials from a token_url, renewed after expiry, refused with a bad secret";

/** The oauth2 emitter's keys (transports/http_common/oauth*), per HTTP transport. */
function oauth(t: "mcp_http" | "openapi"): Record<string, Observation[]> {
  const p = `upstreams.${t}.auth.*.`;
  const cc = t === "mcp_http" ? mcpOauth("upstream", CLIENT_CREDENTIALS) : openapiOauth("upstream", OPENAPI_CC);
  return {
    [`${p}grant`]: [cc],
    [`${p}token_url`]: [cc],
    [`${p}client_id_binding`]: [cc],
    [`${p}client_secret_binding`]: [cc],
    [`${p}authorization_server`]: [
      mcpOauth("upstream", "mcp_http oauth2: client credentials refuse an authorization server other than"),
    ],
    // set in the flows below; the fixture's authorization server grants any scope, so no outcome depends on it yet
    [`${p}scopes`]: [cc],
    [`${p}token_file`]: [mcpOauth("upstream", "mcp_http oauth2: login, call, refresh after expiry")],
  };
}

/** Every key path of the schema → its observations. */
export const CONFIG_KEY_OBSERVATIONS: Record<string, Observation[]> = {
  // top level
  "$schema": [here("editor", SCHEMA)],
  "read_only": [...RUN_FACES, here("catalog", CATALOG), here("doctor", DOCTOR)],
  "allow_writes": [...RUN_FACES, here("catalog", CATALOG), here("doctor", DOCTOR)],
  "libraries": [...RUN_FACES, here("catalog", CATALOG)],
  "approve_writes": RUN_FACES,
  "start": [supervision("upstream", START)], // the faces that send writes; catalog and doctor send none
  "credentials.*.source": [...RUN_FACES, here("catalog", CATALOG), here("doctor", DOCTOR)],
  "credentials.*.var": [...RUN_FACES, here("catalog", CATALOG), here("doctor", DOCTOR)],
  "credentials.*.path": [credentials("upstream", "materializer: file re-read on every call (rotation)")],
  "credentials.*.value": [credentials("upstream", "materializer: basic from user:pass and JSON")],
  "credentials.*.scheme_hint": [
    at("upstream/config_test.ts")("upstream", "config rule: scheme_hint must match the emitter"),
  ],

  // limits
  "limits.max_tool_calls": RUN_FACES,
  "limits.max_write_calls": RUN_FACES,
  "limits.max_catalog_ops": RUN_FACES,
  "limits.max_catalog_result_bytes": RUN_FACES,
  "limits.call_timeout_ms": [...RUN_FACES, here("doctor", DOCTOR)],
  "limits.max_response_bytes": [...RUN_FACES, here("doctor", DOCTOR)],
  "limits.connect_timeout_ms": [
    here("eval", OPENAPI),
    here("repl", OPENAPI),
    here("mcp", OPENAPI),
    here("doctor", OPENAPI),
  ],

  // catalog
  "catalog.exposure": [
    at("integration/mcp_config_precedence_test.ts")("mcp", "config limits and catalog.exposure apply unless"),
    here("catalog", CATALOG),
  ],
  "catalog.inline_max_chars": [here("mcp", MCP), here("catalog", CATALOG)],
  "catalog.inline_max_tools": [here("mcp", MCP), here("catalog", CATALOG)],

  // mcp_stdio
  "upstreams.mcp_stdio.transport": [stdioTest("upstream", "mcp_stdio: ${era} server × protocol ${protocol}")],
  "upstreams.mcp_stdio.protocol": [stdioTest("upstream", "mcp_stdio: ${era} server × protocol ${protocol}")],
  "upstreams.mcp_stdio.start_timeout_ms": [stdioTest("upstream", "mcp_stdio: start failures are closed diagnostics")],
  "upstreams.mcp_stdio.command": [stdioTest("upstream", "mcp_stdio: start failures are closed diagnostics")],
  "upstreams.mcp_stdio.args": [stdioTest("upstream", "mcp_stdio: tool list paging, kebab-case names")],
  "upstreams.mcp_stdio.cwd": [stdioTest("upstream", "mcp_stdio: start failures are closed diagnostics")],
  "upstreams.mcp_stdio.env": [stdioTest("upstream", "mcp_stdio: explicit environment, literal and binding env")],
  "upstreams.mcp_stdio.env.*.binding": [here("upstream", EVAL)],
  "upstreams.mcp_stdio.inherit_environment": [here("upstream", EVAL)],
  "upstreams.mcp_stdio.pass_path": [here("upstream", EVAL)],
  "upstreams.mcp_stdio.stderr_bytes": [here("upstream", STDERR)],
  ...mcpShared("mcp_stdio"),
  ...supervised("mcp_stdio"),

  // mcp_http
  "upstreams.mcp_http.transport": [httpTest("upstream", "mcp_http: ${era} server × protocol ${protocol}")],
  "upstreams.mcp_http.protocol": [httpTest("upstream", "mcp_http: ${era} server × protocol ${protocol}")],
  "upstreams.mcp_http.url": [httpTest("upstream", "mcp_http: ${era} server × protocol ${protocol}")],
  "upstreams.mcp_http.start_timeout_ms": [
    at("transports/mcp_http/sse_hostile_test.ts")("upstream", "ends the start at start_timeout_ms"),
  ],
  "upstreams.mcp_http.connect_timeout_ms": [here("upstream", MCP_TIMEOUTS)],
  "upstreams.mcp_http.auth.*.scheme": [httpTest("upstream", AUTH_SENT)],
  "upstreams.mcp_http.auth.*.binding": [httpTest("upstream", AUTH_SENT)],
  "upstreams.mcp_http.auth.*.header": [httpTest("upstream", AUTH_SENT)],
  "upstreams.mcp_http.auth.*.cookie": [
    credentials("upstream", "materializer: cookie emitters share one Cookie header"),
  ],
  "upstreams.mcp_http.static_headers": [httpTest("upstream", AUTH_SENT)],
  "upstreams.mcp_http.allow_insecure_http": [httpCommon("upstream", INSECURE)],
  "upstreams.mcp_http.allow_insecure_auth": [httpCommon("upstream", INSECURE)],
  "upstreams.mcp_http.allow_insecure_loopback": [httpCommon("upstream", LOOPBACK)],
  "upstreams.mcp_http.ca_file": [caFile("upstream", CA_FILE)], // one TLS helper (http_common/tls.ts) for both
  ...oauth("mcp_http"),
  ...mcpShared("mcp_http"),

  // openapi
  "upstreams.openapi.transport": [here("upstream", OPENAPI)],
  "upstreams.openapi.description": [here("upstream", OPENAPI)],
  ...supervised("openapi"),
  ...supervised("mcp_http"),
  "upstreams.openapi.allow_writes": [
    at("transports/openapi/writes_runtime_test.ts")("upstream", "an upstream's allow_writes: false is not opened"),
  ],
  "upstreams.openapi.doctor_probe.tool": [at("integration/doctor_openapi_test.ts")("doctor", "reach, probe, and")],
  "upstreams.openapi.doctor_probe.arguments": [at("integration/doctor_openapi_test.ts")("doctor", "reach, probe, and")],
  "upstreams.openapi.base_url": [executor("upstream", "openapi integration: success, headers, path and query")],
  "upstreams.openapi.auth.*.scheme": [
    at("integration/doctor_openapi_test.ts")("upstream", "a wrong token with a probe"),
  ],
  "upstreams.openapi.auth.*.binding": [
    at("integration/doctor_openapi_test.ts")("upstream", "a wrong token with a probe"),
  ],
  "upstreams.openapi.auth.*.header": [credentials("upstream", "materializer: custom header emitted as written")],
  "upstreams.openapi.auth.*.param": [at("integration/openapi_coverage_test.ts")("upstream", "query and cookie keys")],
  "upstreams.openapi.auth.*.cookie": [at("integration/openapi_coverage_test.ts")("upstream", "query and cookie keys")],
  "upstreams.openapi.static_headers": [executor("upstream", "openapi integration: success, headers, path and query")],
  "upstreams.openapi.allow_insecure_http": [here("upstream", OPENAPI), httpCommon("upstream", INSECURE)],
  "upstreams.openapi.allow_insecure_auth": [httpCommon("upstream", INSECURE)],
  "upstreams.openapi.allow_insecure_loopback": [
    at("transports/openapi/config_test.ts")("upstream", "allow_insecure_loopback admits literal loopback base"),
  ],
  "upstreams.openapi.schema_file": [here("upstream", OPENAPI)],
  "upstreams.openapi.schema_url": [at("transports/openapi/loader_url_test.ts")("upstream", "openapi schema_url: JSON")],
  "upstreams.openapi.include_operations": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.name": [here("upstream", OPENAPI), compiler("upstream", OVERRIDES)],
  "upstreams.openapi.operation_overrides.*.description": [compiler("upstream", OVERRIDES)],
  "upstreams.openapi.operation_overrides.*.default_args": [compiler("upstream", OVERRIDES)],
  "upstreams.openapi.operation_overrides.*.max_response_bytes": [compiler("upstream", OVERRIDES)],
  "upstreams.openapi.operation_overrides.*.notes": [compiler("upstream", OVERRIDES)],
  "upstreams.openapi.operation_overrides.*.result_path": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.read_only": [
    compiler("upstream", "compiler: long names shortened; descriptions capped; a side-effecting GET"),
  ],
  "upstreams.openapi.operation_overrides.*.effect": [
    at("transports/openapi/writes_compile_test.ts")("upstream", "writes: on a GET the narrower effect wins"),
  ],
  "upstreams.openapi.operation_overrides.*.pagination": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.pagination.style": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.pagination.items": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.pagination.cursor_param": [
    at("upstream/tool_pages_test.ts")("upstream", "tool/pages: offset and cursor styles, every cap"),
  ],
  "upstreams.openapi.operation_overrides.*.pagination.next_cursor": [
    at("upstream/tool_pages_test.ts")("upstream", "tool/pages: offset and cursor styles, every cap"),
  ],
  "upstreams.openapi.operation_overrides.*.pagination.offset_param": [here("upstream", OPENAPI)],
  "upstreams.openapi.operation_overrides.*.pagination.limit_param": [here("upstream", OPENAPI)],
  "upstreams.openapi.request_timeout_ms": [here("upstream", OPENAPI)],
  "upstreams.openapi.connect_timeout_ms": [here("upstream", OPENAPI), executor("upstream", "headers timeout")],
  "upstreams.openapi.max_response_bytes": [here("upstream", OPENAPI)],
  "upstreams.openapi.conflicts": [here("upstream", OPENAPI)],
  "upstreams.openapi.max_description_chars": [here("upstream", OPENAPI)],
  "upstreams.openapi.schema_max_bytes": [
    at("transports/openapi/start_errors_test.ts")("upstream", "a schema over schema_max_bytes names the upstream"),
  ],
  "upstreams.openapi.ca_file": [caFile("upstream", CA_FILE)],
  ...oauth("openapi"),
  "upstreams.openapi.overlays": [at("integration/overlay_confined_test.ts")("upstream", "overlays through bin/ptc")],
};

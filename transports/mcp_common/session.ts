/**
 * Connecting an MCP client (official SDK v2) to one upstream with the configured protocol mode, and remembering the
 * era verdict so that a reconnect does not probe again:
 *
 * - `auto` (default): probe `server/discover`, fall back to `initialize`;
 * - `2026-07-28`: modern only — a server that does not offer it fails with a closed diagnostic that says whether
 *   `server/discover` is missing (method not found) or does not advertise the revision;
 * - `legacy`: plain 2025-11-25 `initialize`.
 *
 * A modern verdict is cached for the DiscoverResult's `ttlMs`; a legacy verdict (which carries no ttl) for
 * {@link LEGACY_VERDICT_TTL_MS}. Reconnects within that time use the SDK's `prior` (zero probe round trips).
 * @module
 */
import { Client, type DiscoverResult, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { Transport as SdkTransport } from "@modelcontextprotocol/client";
import { UpstreamStartError } from "../../src/upstream/types.ts";
import { findWireFailure } from "./errors.ts";
import { HostJsonSchemaValidator } from "./result_validator.ts";
import type { McpCommonConfig, ProtocolMode } from "./config.ts";

/** The modern revision ptc speaks. */
export const MODERN_REVISION = "2026-07-28";

/** How long a legacy verdict is reused before probing again. */
export const LEGACY_VERDICT_TTL_MS = 5 * 60_000;

/** ptc's identity as an MCP client. */
export const CLIENT_INFO = { name: "ptc", version: "0.1.0" };

type Verdict = { kind: "modern"; discover: DiscoverResult } | { kind: "legacy" };

const verdicts = new Map<string, { verdict: Verdict; expiresAt: number }>();

/** The cached era verdict for a cache key, if still fresh. */
export function cachedVerdict(key: string, now = Date.now()): Verdict | undefined {
  const hit = verdicts.get(key);
  if (!hit) return undefined;
  if (hit.expiresAt <= now) {
    verdicts.delete(key);
    return undefined;
  }
  return hit.verdict;
}

/** Forget every cached verdict (tests). */
export function clearVerdictCache(): void {
  verdicts.clear();
}

/**
 * Watches the `server/discover` exchange on the wire, so a failed modern-only connect can say *why*: the method is
 * not implemented, or the server implements it but does not advertise the revision.
 */
export class ProbeTap {
  #ids = new Set<string | number>();
  /** What the server answered to `server/discover`, if anything. */
  outcome: "method_not_found" | "version_not_advertised" | "modern" | "rejected" | undefined;

  /** Note an outgoing message. */
  sent(message: unknown): void {
    const m = message as { method?: unknown; id?: unknown };
    if (m?.method === "server/discover" && (typeof m.id === "string" || typeof m.id === "number")) this.#ids.add(m.id);
  }

  /** Note an incoming message (a JSON-RPC response). */
  received(message: unknown): void {
    const m = message as { id?: unknown; error?: { code?: unknown }; result?: { supportedVersions?: unknown } };
    if ((typeof m?.id !== "string" && typeof m?.id !== "number") || !this.#ids.has(m.id)) return;
    if (m.error) {
      this.outcome = m.error.code === -32601
        ? "method_not_found"
        : m.error.code === -32022
        ? "version_not_advertised"
        : "rejected";
    } else if (m.result) {
      const versions = Array.isArray(m.result.supportedVersions) ? m.result.supportedVersions : [];
      this.outcome = versions.includes(MODERN_REVISION) ? "modern" : "version_not_advertised";
    }
  }

  /** Note an HTTP answer to a probe that carried no JSON-RPC body we could read. */
  httpStatus(status: number): void {
    if (this.outcome === undefined) this.outcome = status === 404 ? "method_not_found" : "rejected";
  }
}

/** A connected client. */
export interface Connection {
  client: Client;
  era: "modern" | "legacy";
  protocolVersion: string;
  /** True when the connect reused a cached verdict (no probe). */
  reusedVerdict: boolean;
}

/**
 * What {@link connectClient} needs: from the upstream's config its name, `protocol`, `startTimeoutMs` (bound on the
 * handshake, probe included) and `maxListPages` (cap on `tools/list` pages), plus the transport-specific parts.
 */
export interface ConnectOptions extends Pick<McpCommonConfig, "protocol" | "startTimeoutMs" | "maxListPages"> {
  upstreamName: string;
  /** Key of the era-verdict cache (transport + endpoint identity). */
  cacheKey: string;
  /** A fresh transport (and the tap watching it) per attempt. */
  makeTransport: () => { transport: SdkTransport; tap: ProbeTap };
  /** Extra words for a failure (e.g. the tail of a child's stderr). */
  describeFailure?: () => string;
}

function negotiationMode(protocol: ProtocolMode) {
  if (protocol === "legacy") return "legacy" as const;
  if (protocol === "auto") return "auto" as const;
  return { pin: MODERN_REVISION };
}

function priorFor(protocol: ProtocolMode, verdict: Verdict | undefined) {
  if (!verdict) return undefined;
  if (verdict.kind === "modern" && protocol !== "legacy") return verdict;
  if (verdict.kind === "legacy" && protocol === "auto") return verdict;
  return undefined;
}

/** Connect a client to an upstream; throws {@link UpstreamStartError} with a closed code and a fix hint. */
export async function connectClient(options: ConnectOptions): Promise<Connection> {
  const prior = priorFor(options.protocol, cachedVerdict(options.cacheKey));
  let attempt = await tryConnect(options, prior);
  if ("error" in attempt && options.protocol === "auto" && !prior && closedDuringProbe(attempt.error)) {
    // A legacy server that exits on any pre-initialize request: it is simply a legacy server.
    attempt = await tryConnect(options, { kind: "legacy" });
  }
  if ("error" in attempt && prior) {
    // A stale cached verdict: forget it and negotiate from scratch once.
    verdicts.delete(options.cacheKey);
    attempt = await tryConnect(options, undefined);
  }
  if ("error" in attempt) throw startError(attempt.error, attempt.tap, options);
  const { client } = attempt;
  const era = client.getProtocolEra() === "modern" ? "modern" : "legacy";
  const discover = client.getDiscoverResult();
  if (era === "modern" && discover) {
    const ttl = typeof discover.ttlMs === "number" ? discover.ttlMs : 0;
    if (ttl > 0) verdicts.set(options.cacheKey, { verdict: { kind: "modern", discover }, expiresAt: Date.now() + ttl });
  } else if (era === "legacy" && options.protocol === "auto") {
    verdicts.set(options.cacheKey, { verdict: { kind: "legacy" }, expiresAt: Date.now() + LEGACY_VERDICT_TTL_MS });
  }
  return {
    client,
    era,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? "",
    reusedVerdict: prior !== undefined,
  };
}

async function tryConnect(
  options: ConnectOptions,
  prior: Verdict | undefined,
): Promise<{ client: Client } | { error: unknown; tap: ProbeTap }> {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: negotiationMode(options.protocol), probe: { timeoutMs: options.startTimeoutMs } },
    // outputSchema checks go through ptc's host schemas: patterns by RE2, never V8's backtracking engine
    jsonSchemaValidator: new HostJsonSchemaValidator(),
    listMaxPages: options.maxListPages,
  });
  const { transport, tap } = options.makeTransport();
  try {
    await client.connect(transport, { timeout: options.startTimeoutMs, ...(prior ? { prior } : {}) });
    return { client };
  } catch (error) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    return { error, tap };
  }
}

function closedDuringProbe(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed &&
    /closed during the server\/discover probe/.test(error.message);
}

function startError(error: unknown, tap: ProbeTap, options: ConnectOptions): UpstreamStartError {
  const n = options.upstreamName;
  const extra = options.describeFailure?.() ?? "";
  const tail = extra ? ` (${extra})` : "";
  const wire = findWireFailure(error);
  if (wire) {
    const codes: Record<string, [string, string]> = {
      connect_failed: ["connection_refused", "is the server running? check the host and port of `url`"],
      dns_failed: ["name_unresolved", "check the host name in `url`"],
      tls_failed: ["tls_failed", "check the server certificate (ptc verifies TLS; no override exists)"],
      timeout: ["start_timeout", "raise `start_timeout_ms` or check that the server answers"],
      response_too_large: ["response_too_large", "raise `max_response_bytes` for this upstream"],
      credential_failed: ["credential_unavailable", "run `ptc doctor` to check the credential bindings"],
      login_required: ["login_required", `log in once with \`ptc auth login ${n}\``],
      redirect_refused: ["redirect_refused", "point `url` at the final MCP endpoint"],
      too_many_redirects: ["redirect_refused", "point `url` at the final MCP endpoint"],
    };
    const [code, hint] = codes[wire.kind] ?? ["connection_failed", "check that the server is reachable"];
    return new UpstreamStartError(code, `upstream ${n}: ${wire.message}${tail}`, hint);
  }
  if (options.protocol === MODERN_REVISION && tap.outcome !== "modern") {
    if (tap.outcome === "method_not_found") {
      return new UpstreamStartError(
        "protocol_method_not_found",
        `upstream ${n}: requires protocol ${MODERN_REVISION}, but the server does not implement server/discover ` +
          `(method not found): it speaks an older revision`,
        `set "protocol": "auto" (or "legacy") for upstream ${n}, or upgrade the server`,
      );
    }
    if (tap.outcome === "version_not_advertised") {
      return new UpstreamStartError(
        "protocol_version_not_advertised",
        `upstream ${n}: requires protocol ${MODERN_REVISION}, but the server's server/discover does not advertise it`,
        `set "protocol": "auto" (or "legacy") for upstream ${n}, or upgrade the server`,
      );
    }
    if (tap.outcome === "rejected") {
      return new UpstreamStartError(
        "protocol_probe_rejected",
        `upstream ${n}: requires protocol ${MODERN_REVISION}, but the server rejected server/discover ` +
          `as a pre-${MODERN_REVISION} server would`,
        `set "protocol": "auto" (or "legacy") for upstream ${n}`,
      );
    }
  }
  const text = error instanceof Error ? error.message : "";
  const httpText = error instanceof SdkHttpError && typeof error.data?.text === "string" ? error.data.text : "";
  if (/unsupported protocol version/i.test(text) || /"code"\s*:\s*-32022/.test(httpText)) {
    return new UpstreamStartError(
      "protocol_legacy_rejected",
      `upstream ${n}: the server refuses protocol 2025-11-25 (it speaks only ${MODERN_REVISION})`,
      `set "protocol": "auto" or "${MODERN_REVISION}" for upstream ${n}`,
    );
  }
  if (error instanceof SdkHttpError) {
    if (error.status === 401 || error.status === 403) {
      return new UpstreamStartError(
        error.status === 401 ? "auth_failed" : "forbidden",
        `upstream ${n}: the server refused the connection (HTTP ${error.status})`,
        "check the credential bound in `auth`",
      );
    }
    return new UpstreamStartError(
      "handshake_failed",
      `upstream ${n}: the handshake failed with HTTP ${error.status}`,
      "check that `url` is the server's MCP endpoint",
    );
  }
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) {
      return new UpstreamStartError(
        "start_timeout",
        `upstream ${n}: no handshake within ${options.startTimeoutMs} ms${tail}`,
        "raise `start_timeout_ms` or check that the command starts an MCP server",
      );
    }
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.EraNegotiationFailed) {
      return new UpstreamStartError(
        "handshake_failed",
        `upstream ${n}: the connection closed during the handshake${tail}`,
        "check that the command or url is an MCP server",
      );
    }
  }
  if (error instanceof Deno.errors.NotFound) {
    return new UpstreamStartError(
      "command_not_found",
      `upstream ${n}: the command was not found`,
      "check `command` (a bare name is looked up on PATH; `ptc doctor` shows where)",
    );
  }
  if (error instanceof Deno.errors.PermissionDenied || (error instanceof Error && error.name === "NotCapable")) {
    return new UpstreamStartError(
      "permission_denied",
      `upstream ${n}: ptc is not allowed to start the command`,
      "grant the flags `ptc permissions` prints (--allow-run=<command>)",
    );
  }
  return new UpstreamStartError(
    "handshake_failed",
    `upstream ${n}: the MCP handshake failed${tail}`,
    "run `ptc doctor --connect` for details",
  );
}

/**
 * The checks `ptc doctor --connect` makes against a started upstream beyond listing its tools: that each HTTP endpoint
 * the transport names is reachable (a TCP connect, and a TLS handshake for https), and — when the operator names a
 * read tool in `doctor_probe` — that an authenticated call to it succeeds. Without a probe the report says plainly that
 * the credentials were not checked: doctor never claims a check it did not make.
 * @module
 */
import type { JsonObject, JsonValue } from "../core/json.ts";
import { didYouMean } from "../core/suggest.ts";
import type { PreflightCheck, Redactor, ToolEntry, Upstream } from "../upstream/types.ts";
import { effectOf } from "../upstream/install.ts";

/** Limits of the probe call. */
export interface ProbeLimits {
  callTimeoutMs: number;
  connectTimeoutMs: number;
  maxResponseBytes: number;
}

/** The http(s) URLs among a transport's public endpoint values. */
function endpointUrls(endpoint: JsonObject | undefined): URL[] {
  const out: URL[] = [];
  for (const v of Object.values(endpoint ?? {})) {
    if (typeof v !== "string") continue;
    try {
      const u = new URL(v);
      if (u.protocol === "http:" || u.protocol === "https:") out.push(u);
    } catch { /* not a URL */ }
  }
  return out;
}

function errorText(e: unknown): string {
  if (e instanceof Deno.errors.ConnectionRefused) return "connection refused";
  if (e instanceof Deno.errors.TimedOut) return "timed out";
  if (e instanceof Deno.errors.NotCapable) return "no --allow-net for it (`ptc permissions` prints the flags)";
  const text = e instanceof Error ? e.message.split("\n")[0] : String(e);
  if (/invalid peer certificate|certificate/i.test(text)) {
    return `TLS certificate not trusted (${text}); a private CA goes in ca_file or DENO_CERT`;
  }
  return text;
}

/** Connect to `url`'s host and port (a TLS handshake for https), within `timeoutMs`; one check line. */
async function reach(url: URL, timeoutMs: number): Promise<PreflightCheck> {
  const tls = url.protocol === "https:";
  const port = Number(url.port || (tls ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const target = `${url.hostname}:${port}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = tls ? Deno.connectTls({ hostname, port }) : Deno.connect({ hostname, port });
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Deno.errors.TimedOut(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    const conn = await Promise.race([attempt, timeout]);
    if (tls) await (conn as Deno.TlsConn).handshake();
    conn.close();
    return { check: `reach ${target}`, ok: true, detail: tls ? "TCP connected, TLS handshake ok" : "TCP connected" };
  } catch (e) {
    // a connection that arrives after the timeout is closed, never leaked
    attempt.then((c) => c.close()).catch(() => {});
    return { check: `reach ${target}`, ok: false, detail: errorText(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** One reachability check per http(s) endpoint of the upstream. */
export async function reachChecks(endpoint: JsonObject | undefined, timeoutMs: number): Promise<PreflightCheck[]> {
  const out: PreflightCheck[] = [];
  for (const url of endpointUrls(endpoint)) out.push(await reach(url, timeoutMs));
  return out;
}

/**
 * Call the `doctor_probe` tool once. It must be an installed read tool: doctor never writes. The answer is reported as
 * ok or with the failure's reason and (redacted) message.
 */
export async function probeCheck(
  upstream: Upstream,
  installed: ToolEntry[],
  probe: { tool: string; arguments: JsonObject },
  limits: ProbeLimits,
  redactor: Redactor,
): Promise<PreflightCheck> {
  const check = `doctor_probe ${probe.tool}`;
  const tool = installed.find((t) => t.name === probe.tool);
  if (!tool) {
    return {
      check,
      ok: false,
      detail: `no installed tool '${probe.tool}'${didYouMean(probe.tool, installed.map((t) => t.name))}`,
      hint: "doctor_probe.tool names a read tool as `ptc catalog` lists it",
    };
  }
  if (effectOf(tool) !== "read") {
    return {
      check,
      ok: false,
      detail: "is a write tool; doctor only ever calls a read tool",
      hint: "name a read tool",
    };
  }
  const signal = AbortSignal.timeout(limits.callTimeoutMs);
  const result = await upstream.call(probe.tool, probe.arguments, {
    signal,
    timeoutMs: limits.callTimeoutMs,
    maxResponseBytes: limits.maxResponseBytes,
    effect: "read",
  });
  if (result.ok) {
    return { check, ok: true, detail: `answered (${describe(result.value)}): credentials accepted` };
  }
  return {
    check,
    ok: false,
    detail: redactor.redact(`${result.reason}: ${result.message.split("\n")[0].slice(0, 300)}`),
    ...(result.reason === "auth_failed" ? { hint: "the credential was refused: check its value and scopes" } : {}),
  };
}

function describe(v: JsonValue): string {
  if (Array.isArray(v)) return `${v.length} item(s)`;
  if (v && typeof v === "object") return `${Object.keys(v).length} field(s)`;
  return typeof v;
}

/** The honest line when no probe is configured: the service answered a connection, the credentials were not tried. */
export function unprobedCheck(): PreflightCheck {
  return {
    check: "credentials",
    ok: true,
    detail: "reachable, credentials not checked",
    hint: "set doctor_probe to a read tool of this upstream so doctor calls it",
  };
}

/**
 * A guarded HTTP client shared by the HTTP transports (OpenAPI, MCP over Streamable HTTP).
 *
 * - never follows a redirect to another origin (`redirect: "manual"`; same-origin redirects are followed a bounded
 *   number of times);
 * - enforces the response byte cap while streaming, before anything is decoded;
 * - bounds the wait for the response headers (`connectTimeoutMs`) and the whole exchange (`timeoutMs`);
 * - classifies every failure into a closed set of kinds with messages written here — never the platform's error
 *   text (which quotes the URL) and never anything the remote sent;
 * - sends a write (`freshConnection`) on a connection of its own: fetch silently re-sends a request whose reused
 *   keep-alive connection closed before the answer — after the server received it — so a write on a pooled
 *   connection could reach the service twice (and a "connection refused" on the re-send would pass for never sent).
 * @module
 */
import { concatBytes } from "./bytes.ts";

/** Closed failure classes of {@link guardedFetch}. */
export type HttpFailureKind =
  | "timeout"
  | "aborted"
  | "connect_failed"
  | "dns_failed"
  | "tls_failed"
  | "network_error"
  | "redirect_refused"
  | "too_many_redirects"
  | "response_too_large";

/** A classified failure. `message` is safe to show: no URL query, no header, no remote text. */
export interface HttpFailure {
  ok: false;
  kind: HttpFailureKind;
  message: string;
  /** Bytes received before the failure (for call records). */
  bytes?: number;
}

/** A received response with its body fully read (within the cap). */
export interface HttpResponse {
  ok: true;
  status: number;
  headers: Headers;
  bodyBytes: Uint8Array;
  /** True when a non-2xx body was cut at `errorBodyBytes` (or the cap); 2xx bodies are never truncated. */
  truncated: boolean;
  /** The URL finally answered (after same-origin redirects). */
  url: string;
}

/** Options of {@link guardedFetch}. */
export interface GuardedFetchOptions {
  method?: string;
  headers?: HeadersInit;
  /** Request body (re-sent on 307/308 same-origin redirects; dropped on 301/302/303 which become GET). */
  body?: string | Uint8Array<ArrayBuffer>;
  /** Bound on the whole exchange, body included, in ms. */
  timeoutMs: number;
  /** Bound on the wait for the response headers (connect + first response), in ms. Optional. */
  connectTimeoutMs?: number;
  /** Cap on a 2xx body; over it the request is aborted and classified `response_too_large`. */
  maxResponseBytes: number;
  /** How much of a non-2xx body to keep (never more than the cap). Default 16 KiB. */
  errorBodyBytes?: number;
  /** External cancellation (run context, program timeout). A `TimeoutError` reason classifies as `timeout`. */
  signal?: AbortSignal;
  /** The fetch to use (tests substitute it). Default: global fetch. */
  fetch?: typeof fetch;
  /** Origin redirects may stay within. Default: the origin of `url`. */
  allowedOrigin?: string;
  /** Maximum same-origin redirects followed. Default 5. */
  maxRedirects?: number;
  /**
   * Refuse a 301/302 answer to a request other than GET/HEAD instead of re-sending it as a GET (what fetch does): a
   * write must not turn into a read of another URL whose answer then looks like the write's. 303 (See Other: the
   * result of what was done) and 307/308 (same method and body) are still followed.
   */
  keepMethod?: boolean;
  /**
   * Send on a new connection that is closed afterwards, never on a reused one (writes: see the module doc). A
   * connection refused then really means the request was never sent.
   */
  freshConnection?: boolean;
}

const DEFAULT_ERROR_BODY_BYTES = 16 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Why the internal controller aborted (so the catch block can classify). */
type AbortCause = "timeout" | "connect_timeout" | "cap" | "external" | undefined;

/**
 * Perform one HTTP exchange under the guards described in the module doc. Never throws for network conditions:
 * returns `{ok:true, status, headers, bodyBytes}` or a classified `{ok:false, kind, message}`.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<HttpResponse | HttpFailure> {
  const doFetch = options.fetch ?? fetch;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return { ok: false, kind: "network_error", message: "the request URL is malformed" };
  }
  const allowedOrigin = options.allowedOrigin ?? current.origin;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  let cause: AbortCause;
  const abort = (why: AbortCause) => {
    if (cause === undefined) cause = why;
    controller.abort();
  };
  const onExternal = () => abort("external");
  if (options.signal?.aborted) return externalFailure(options.signal);
  options.signal?.addEventListener("abort", onExternal, { once: true });
  const totalTimer = setTimeout(() => abort("timeout"), Math.max(0, options.timeoutMs));
  let headersTimer: ReturnType<typeof setTimeout> | undefined;
  if (options.connectTimeoutMs !== undefined && options.connectTimeoutMs < options.timeoutMs) {
    headersTimer = setTimeout(() => abort("connect_timeout"), Math.max(0, options.connectTimeoutMs));
  }
  let method = (options.method ?? "GET").toUpperCase();
  let body = options.body;
  let received = 0;
  // No idle connection is kept, so none is reused: every request of this exchange opens its own (trusting the same
  // extra CA certificates as the upstream's pooled client, see `trustingFetch`).
  const caCerts = (doFetch as { caCerts?: string[] }).caCerts;
  const client = options.freshConnection
    ? Deno.createHttpClient({ poolMaxIdlePerHost: 0, ...(caCerts ? { caCerts } : {}) })
    : undefined;
  try {
    for (let hop = 0;; hop++) {
      const response = await doFetch(current.href, {
        method,
        headers: options.headers,
        body,
        redirect: "manual",
        signal: controller.signal,
        ...(client ? { client } : {}),
      } as RequestInit);
      if (headersTimer !== undefined) {
        clearTimeout(headersTimer);
        headersTimer = undefined;
      }
      if (REDIRECT_STATUSES.has(response.status)) {
        await response.body?.cancel().catch(() => {});
        const location = response.headers.get("location");
        if (location === null) {
          return { ok: false, kind: "network_error", message: `redirect (HTTP ${response.status}) without a Location` };
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return { ok: false, kind: "redirect_refused", message: "refused a redirect to a malformed location" };
        }
        if (next.origin !== allowedOrigin) {
          return { ok: false, kind: "redirect_refused", message: "refused a redirect to another origin" };
        }
        if (hop >= maxRedirects) {
          return { ok: false, kind: "too_many_redirects", message: `more than ${maxRedirects} redirects` };
        }
        const changesMethod = (response.status === 301 || response.status === 302) && method !== "GET" &&
          method !== "HEAD";
        if (changesMethod && options.keepMethod) {
          return {
            ok: false,
            kind: "redirect_refused",
            message: `refused a redirect (HTTP ${response.status}) that would re-send the ${method} as a GET`,
          };
        }
        if (response.status === 303 || changesMethod) {
          method = method === "HEAD" ? "HEAD" : "GET";
          body = undefined;
        }
        current = next;
        continue;
      }
      const success = response.status >= 200 && response.status < 300;
      const limit = success
        ? options.maxResponseBytes
        : Math.min(options.maxResponseBytes, options.errorBodyBytes ?? DEFAULT_ERROR_BODY_BYTES);
      const declared = Number(response.headers.get("content-length"));
      if (success && Number.isFinite(declared) && declared > options.maxResponseBytes) {
        abort("cap");
        await response.body?.cancel().catch(() => {});
        return tooLarge(options.maxResponseBytes, 0);
      }
      const read = await readCapped(response, limit, (n) => received = n);
      if (read.over && success) {
        abort("cap");
        return tooLarge(options.maxResponseBytes, read.bytes.length);
      }
      return {
        ok: true,
        status: response.status,
        headers: response.headers,
        bodyBytes: read.bytes,
        truncated: read.over,
        url: current.href,
      };
    }
  } catch (error) {
    return classifyFetchError(error, cause, options, received);
  } finally {
    clearTimeout(totalTimer);
    if (headersTimer !== undefined) clearTimeout(headersTimer);
    options.signal?.removeEventListener("abort", onExternal);
    client?.close();
  }
}

/**
 * Read a body (a fetch Response's, or an incoming Request's) up to `limit` bytes. Stops (and cancels the stream) as
 * soon as the limit is exceeded, so an endless or huge body is never buffered. `onProgress` sees the running byte
 * count.
 */
export async function readCapped(
  response: Pick<Body, "body">,
  limit: number,
  onProgress?: (bytes: number) => void,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  if (response.body === null) return { bytes: new Uint8Array(0), over: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (total + value.byteLength > limit) {
        chunks.push(value.subarray(0, limit - total));
        total = limit;
        over = true;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
      onProgress?.(total);
    }
  } finally {
    if (over) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return { bytes: concatBytes(chunks, total), over };
}

/**
 * Classify an error thrown by fetch (or a body read) into a closed failure kind. The platform's message is only
 * inspected, never returned (it quotes the URL).
 */
export function classifyFetchError(
  error: unknown,
  cause: AbortCause,
  options: Pick<GuardedFetchOptions, "timeoutMs" | "connectTimeoutMs" | "signal" | "maxResponseBytes">,
  bytes = 0,
): HttpFailure {
  if (cause === "timeout") {
    return { ok: false, kind: "timeout", message: `no complete response within ${options.timeoutMs} ms`, bytes };
  }
  if (cause === "connect_timeout") {
    return {
      ok: false,
      kind: "timeout",
      message: `no response headers within ${options.connectTimeoutMs} ms (connect timeout)`,
      bytes,
    };
  }
  if (cause === "cap") return tooLarge(options.maxResponseBytes, bytes);
  if (cause === "external" && options.signal) return { ...externalFailure(options.signal), bytes };
  const text = errorText(error).toLowerCase();
  if (/dns error|failed to lookup|name or service not known|no address associated|nodename nor servname/.test(text)) {
    return { ok: false, kind: "dns_failed", message: "the host name could not be resolved", bytes };
  }
  if (/corrupt message|invalidcontenttype|wrong version number|http request to an https server/.test(text)) {
    // rustls' words for a peer that answered the ClientHello with something other than TLS: a plain-HTTP port.
    return {
      ok: false,
      kind: "tls_failed",
      message: "the TLS handshake failed: the server did not answer TLS (is this a plain-HTTP port?)",
      bytes,
    };
  }
  if (/certificate|tls|ssl|handshake|unknownissuer|notvalidforname|peer is incompatible|alert/.test(text)) {
    const untrusted = /unknownissuer|unknown issuer|invalid peer certificate|self.signed/.test(text);
    return {
      ok: false,
      kind: "tls_failed",
      message: untrusted
        ? "the TLS handshake failed: the server's certificate is not trusted (a private CA goes in the upstream's " +
          "ca_file, or DENO_CERT for the whole process)"
        : "the TLS handshake failed (certificate or protocol)",
      bytes,
    };
  }
  if (/requests to port \d+ are blocked/.test(text)) {
    // Deno's fetch refuses the WHATWG "bad ports" (6000, 6665-6669, 10080, …) before it connects
    return {
      ok: false,
      kind: "connect_failed",
      message: 'the port is one that fetch never contacts (a WHATWG "bad port"); serve the upstream on another port',
      bytes,
    };
  }
  if (/connection refused|connect error|econnrefused|os error 111|tcp connect/.test(text)) {
    return { ok: false, kind: "connect_failed", message: "the connection was refused", bytes };
  }
  if (/connection reset|broken pipe|connection closed|unexpected eof|incomplete message|os error 104/.test(text)) {
    return {
      ok: false,
      kind: "network_error",
      message: "the connection was closed before the response completed",
      bytes,
    };
  }
  return { ok: false, kind: "network_error", message: "the request failed at the network level", bytes };
}

function externalFailure(signal: AbortSignal): HttpFailure {
  const reason = signal.reason;
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return { ok: false, kind: "timeout", message: "the call timed out" };
  }
  return { ok: false, kind: "aborted", message: "the call was cancelled" };
}

function tooLarge(cap: number, bytes: number): HttpFailure {
  return { ok: false, kind: "response_too_large", message: `response exceeded ${cap} bytes`, bytes };
}

function errorText(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (e instanceof Error) {
      parts.push(e.name, e.message);
      e = (e as { cause?: unknown }).cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  return parts.join(" ");
}

/** Longest `Retry-After` ptc honours (one day): a larger or malformed value counts as absent. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * A `Retry-After` header (delay-seconds or an HTTP date, RFC 9110 §10.2.3) as milliseconds from `now`; undefined
 * when absent, malformed or more than a day away. A date in the past is 0.
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^\d{1,9}$/.test(v)) ms = Number(v) * 1000;
  else {
    const date = Date.parse(v);
    if (Number.isNaN(date) || !/[a-z]/i.test(v)) return undefined;
    ms = Math.max(0, date - now);
  }
  return ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

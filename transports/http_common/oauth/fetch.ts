/**
 * The fetch the SDK's OAuth helpers use (discovery, registration, token requests): every exchange goes through the
 * guarded HTTP client — a time bound, a small byte cap (metadata and token answers are small), same-origin redirects
 * only — and a failure becomes an {@link OAuthWireError} whose message names the host, never a token.
 * @module
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { guardedFetch } from "../../../src/upstream/http_client.ts";

/** Bytes an OAuth answer may have (metadata documents and token responses are a few KiB). */
export const OAUTH_MAX_RESPONSE_BYTES = 256 * 1024;

/** An OAuth exchange that never got an answer (timeout, refused connection, …). */
export class OAuthWireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OAuthWireError";
  }
}

/** A guarded `FetchLike` for OAuth requests. */
export function oauthFetch(fetchImpl: typeof fetch, timeoutMs: number): FetchLike {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    let body: string | undefined;
    if (init?.body instanceof URLSearchParams) {
      body = init.body.toString();
      if (!headers.has("content-type")) headers.set("content-type", "application/x-www-form-urlencoded");
    } else if (typeof init?.body === "string") body = init.body;
    const result = await guardedFetch(url.href, {
      method: (init?.method ?? "GET").toUpperCase(),
      headers,
      body,
      timeoutMs,
      maxResponseBytes: OAUTH_MAX_RESPONSE_BYTES,
      signal: init?.signal ?? undefined,
      fetch: fetchImpl,
    });
    if (!result.ok) throw new OAuthWireError(`${url.host}: ${result.message}`);
    const empty = [101, 103, 204, 205, 304].includes(result.status);
    return new Response(empty ? null : result.bodyBytes as Uint8Array<ArrayBuffer>, {
      status: result.status,
      headers: result.headers,
    });
  };
}

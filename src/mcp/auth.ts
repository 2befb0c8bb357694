/**
 * Bearer-token authentication for the HTTP face: a token read from a file (≥ 32 characters), compared in constant
 * time, and a limiter that blocks a client address after repeated failures.
 * @module
 */

/** Minimum accepted token length. */
export const MIN_TOKEN_LENGTH = 32;

/**
 * Read and check the bearer token file: one token per line (blank lines and `#` comments skipped), each at least
 * `MIN_TOKEN_LENGTH` characters. Each token is a client of its own (its own sessions and fairness share), and a
 * proxy hashing on `Authorization` keeps each client on one replica. Throws an Error with an actionable message
 * naming the line (never a token).
 */
export async function readTokenFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound ? "file not found" : (e as Error).name;
    throw new Error(`--http-auth-token-file ${path}: cannot read the token (${why})`);
  }
  const tokens: string[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const token = raw.trim();
    if (token === "" || token.startsWith("#")) continue;
    const where = lines.filter((l) => l.trim() !== "" && !l.trim().startsWith("#")).length > 1
      ? ` (line ${i + 1})`
      : "";
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new Error(
        `--http-auth-token-file ${path}${where}: the token must be at least ${MIN_TOKEN_LENGTH} characters (it has ${token.length})`,
      );
    }
    if (/\s/.test(token)) {
      throw new Error(`--http-auth-token-file ${path}${where}: the token must not contain whitespace`);
    }
    tokens.push(token);
  }
  if (tokens.length === 0) {
    throw new Error(
      `--http-auth-token-file ${path}: the token must be at least ${MIN_TOKEN_LENGTH} characters (it has 0)`,
    );
  }
  return tokens;
}

/**
 * The one token of a file for a face that takes a single token (the viewer): the file's tokens must be exactly one,
 * else an Error naming `flag` (a file of one token per client gives no single viewer).
 */
export function singleToken(tokens: string[], flag: string, path: string): string {
  if (tokens.length === 1) return tokens[0];
  throw new Error(`${flag} ${path}: the viewer takes one bearer token; the file has ${tokens.length} (one per client)`);
}

const encoder = new TextEncoder();

/** Constant-time comparison of two strings (time depends only on the expected length). */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i % Math.max(1, a.length)] ?? 0) ^ b[i];
  return diff === 0;
}

/** Result of checking a request's Authorization header: the matched token when it is one of the expected. */
export type AuthCheck = { ok: true; token: string } | { ok: false; status: 401; challenge: string };

/** Check `Authorization: Bearer <token>` against the expected tokens (each compared in constant time). */
export function checkBearer(header: string | null, expected: string | string[]): AuthCheck {
  if (!header) return { ok: false, status: 401, challenge: 'Bearer realm="ptc"' };
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  let matched: string | undefined;
  // Every token is compared (no early exit): the time does not say which one matched.
  if (m) {
    for (const token of Array.isArray(expected) ? expected : [expected]) {
      if (constantTimeEqual(m[1], token)) matched = token;
    }
  }
  if (matched === undefined) {
    return { ok: false, status: 401, challenge: 'Bearer realm="ptc", error="invalid_token"' };
  }
  return { ok: true, token: matched };
}

/**
 * Counts failed authentications per client address: after `maxFailures` within `windowMs` the address's further
 * failures are refused (429) for `blockMs`. It only ever judges failures — the face checks the token first, so a
 * request with the valid token is never refused — and a success does not reset the count (a guesser sharing an
 * address with the rightful client gets no fresh attempts from the client's successes).
 */
export class FailedAuthLimiter {
  #failures = new Map<string, { count: number; windowStart: number; blockedUntil: number }>();

  constructor(
    readonly maxFailures = 5,
    readonly windowMs = 60_000,
    readonly blockMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the client must wait, or 0 when it may try. */
  retryAfter(client: string): number {
    const f = this.#failures.get(client);
    if (!f) return 0;
    const t = this.now();
    return f.blockedUntil > t ? Math.ceil((f.blockedUntil - t) / 1000) : 0;
  }

  /** Record a failure. */
  fail(client: string): void {
    const t = this.now();
    const f = this.#failures.get(client);
    if (!f || t - f.windowStart > this.windowMs) {
      this.#failures.set(client, { count: 1, windowStart: t, blockedUntil: 0 });
    } else {
      f.count++;
      if (f.count >= this.maxFailures) f.blockedUntil = t + this.blockMs;
    }
    if (this.#failures.size > 10_000) this.#prune(t);
  }

  #prune(t: number) {
    for (const [k, f] of this.#failures) {
      if (f.blockedUntil <= t && t - f.windowStart > this.windowMs) this.#failures.delete(k);
    }
  }
}

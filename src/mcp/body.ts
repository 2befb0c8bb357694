/**
 * Admission and reading of HTTP request bodies for the MCP face. A body is buffered only once the request is
 * admitted: small declared bodies (a program, a `tools/list`) go straight in, larger or undeclared ones need one of
 * a few read permits (the rest are refused with 503 before a byte is read), and every read has a size cap and a
 * deadline, so slow or stalled uploads cannot pile up memory or hold a permit for long.
 * @module
 */

/** Bodies up to this declared size are read without a read permit (their total is bounded by the request cap). */
export const SMALL_BODY_BYTES = 64 * 1024;

/** Limits of body reading. */
export interface BodyLimits {
  /** Largest accepted body. */
  maxBytes: number;
  /** Longest time a body may take to arrive. */
  timeoutMs: number;
  /** Bodies larger than `SMALL_BODY_BYTES` (or of undeclared size) read at once. */
  maxLargeReads: number;
}

/** Outcome of reading one body. */
export type BodyRead =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  | { ok: false; status: 408 | 413 | 503; error: string; retryAfter?: number };

/** Reads request bodies under `BodyLimits`. */
export class BodyReader {
  readonly #limits: BodyLimits;
  /** Large bodies being read right now (a plain count: read permits are not evaluation permits). */
  #largeReads = 0;

  constructor(limits: BodyLimits) {
    this.#limits = limits;
  }

  /** Large bodies being read right now. */
  get largeReads(): number {
    return this.#largeReads;
  }

  /** Admit and read the body of `req` (declared size checked first, then the bytes as they arrive). */
  async read(req: Request): Promise<BodyRead> {
    const header = req.headers.get("content-length");
    const declared = header === null ? NaN : Number(header);
    if (declared > this.#limits.maxBytes) return tooLarge();
    if (req.body === null) return { ok: true, bytes: new Uint8Array(0) };
    const large = !(declared <= SMALL_BODY_BYTES);
    if (large) {
      if (this.#largeReads >= this.#limits.maxLargeReads) {
        await req.body.cancel().catch(() => {});
        return {
          ok: false,
          status: 503,
          error: `server busy: ${this.#limits.maxLargeReads} large request bodies are being read; retry shortly`,
          retryAfter: 1,
        };
      }
    }
    if (large) this.#largeReads++;
    try {
      return await readWithin(req.body, this.#limits.maxBytes, this.#limits.timeoutMs);
    } finally {
      if (large) this.#largeReads--;
    }
  }
}

function tooLarge(): BodyRead {
  return { ok: false, status: 413, error: "request body too large" };
}

/** Read `body` up to `maxBytes`, giving up (and cancelling the stream) after `timeoutMs`. */
async function readWithin(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  timeoutMs: number,
): Promise<BodyRead> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
  let outcome: BodyRead | undefined;
  try {
    while (outcome === undefined) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === "timeout") {
        outcome = { ok: false, status: 408, error: `request body not received within ${timeoutMs} ms` };
      } else if (next.done) {
        const bytes = new Uint8Array(total);
        let o = 0;
        for (const c of chunks) {
          bytes.set(c, o);
          o += c.byteLength;
        }
        outcome = { ok: true, bytes };
      } else if ((total += next.value.byteLength) > maxBytes) outcome = tooLarge();
      else chunks.push(next.value);
    }
  } catch {
    outcome = { ok: false, status: 408, error: "request body could not be read (the client went away)" };
  } finally {
    clearTimeout(timer);
    chunks.length = 0;
    if (outcome === undefined || !outcome.ok) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return outcome;
}

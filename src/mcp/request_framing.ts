/**
 * Where the requests begin in the bytes a client sends on one HTTP/1.1 connection, so the door can time every request
 * head, not only the first: a head is followed to its blank line, then its body is skipped by `Content-Length`. A
 * request with `Transfer-Encoding` (a chunked body) or conflicting lengths ends the following: from then on only the
 * door's idle timeout applies to the connection (its bytes still pass unchanged; the HTTP server judges them).
 * @module
 */

/** What feeding bytes found. */
export type FramingVerdict = "ok" | "head_too_large";

const CR = 13;
const LF = 10;
const decoder = new TextDecoder();

/** Follows request boundaries in a client's byte stream (see the module comment). */
export class RequestFraming {
  #head: Uint8Array;
  #headLen = 0;
  #bodyLeft = 0;
  #following = true;
  /** When the head being received began (its first byte), or undefined between requests. */
  headStartedAt: number | undefined;

  constructor(private readonly maxHeaderBytes: number, private readonly now: () => number = Date.now) {
    this.#head = new Uint8Array(maxHeaderBytes);
  }

  /** False once a request's body could not be followed (chunked, conflicting lengths). */
  get following(): boolean {
    return this.#following;
  }

  /** Take the next bytes the client sent. */
  feed(bytes: Uint8Array): FramingVerdict {
    let i = 0;
    while (i < bytes.length && this.#following) {
      if (this.#bodyLeft > 0) {
        const n = Math.min(this.#bodyLeft, bytes.length - i);
        this.#bodyLeft -= n;
        i += n;
        continue;
      }
      const b = bytes[i++];
      // Empty lines before a request line are tolerated (RFC 9112 §2.2) and start no head.
      if (this.#headLen === 0 && (b === CR || b === LF)) continue;
      if (this.#headLen === 0) this.headStartedAt = this.now();
      if (this.#headLen >= this.maxHeaderBytes) return "head_too_large";
      this.#head[this.#headLen++] = b;
      const n = this.#headLen;
      if (b === LF && n >= 4 && this.#head[n - 2] === CR && this.#head[n - 3] === LF && this.#head[n - 4] === CR) {
        this.#endOfHead(decoder.decode(this.#head.subarray(0, n)));
      }
    }
    return "ok";
  }

  #endOfHead(text: string): void {
    this.#headLen = 0;
    this.headStartedAt = undefined;
    if (/^transfer-encoding\s*:/im.test(text)) {
      this.#following = false;
      return;
    }
    const lengths = [...text.matchAll(/^content-length\s*:\s*(\S*)\s*$/gim)].map((m) => m[1]);
    if (lengths.length === 0) return;
    if (new Set(lengths).size !== 1 || !/^\d{1,15}$/.test(lengths[0])) {
      this.#following = false;
      return;
    }
    this.#bodyLeft = Number(lengths[0]);
  }
}

/**
 * The host side of the tool bridge: receives a worker's tool and discovery requests, performs them with the
 * callbacks of the current evaluation, writes the JSON answer into the worker's mailbox and wakes the worker.
 *
 * Answers are written only for the evaluation (epoch) and request (seq) they belong to: a slow tool that answers
 * after its evaluation ended can never leak into the next one.
 * @module
 */
import type { DiscoveryOp, DiscoveryOutcome, JsonObject, ToolOutcome, ToolRequest } from "../lisp/api.ts";
import { ABORT, type BridgeRequest, DATA_OFFSET, HEADER_SLOTS, SLOT, STATE } from "./protocol.ts";

/**
 * What the host offers one evaluation. The upstream runtime provides this (one run context per evaluation);
 * tests supply fakes.
 */
export interface SandboxHost {
  /** Names callable as `tool/<name>` (e.g. `["call"]` for the aggregator). */
  toolNames: string[];
  /** Perform one tool call. Several may run concurrently (`pmap`). */
  callTool(request: ToolRequest): Promise<ToolOutcome>;
  /** Discovery backend (`apropos`, `dir`, `doc`, `meta`, `tool/servers`); absent → the language sees none. */
  discovery?(op: DiscoveryOp, args: JsonObject): Promise<DiscoveryOutcome>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function faultMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Per-worker bridge endpoint on the host. */
export class HostBridge {
  #ctrl: Int32Array;
  #epoch = 0;
  #host: SandboxHost | undefined;
  #active = false;

  /** `maxAnswerBytes` must match the mailbox's capacity (see protocol.createMailbox). */
  constructor(
    private mailbox: SharedArrayBuffer,
    private outbox: SharedArrayBuffer,
    private maxAnswerBytes: number,
  ) {
    this.#ctrl = new Int32Array(mailbox, 0, HEADER_SLOTS);
  }

  /** Start serving a new evaluation with `host` (undefined: the evaluation has no tools). */
  begin(host: SandboxHost | undefined): void {
    this.#epoch++;
    this.#host = host;
    this.#active = true;
    Atomics.store(this.#ctrl, SLOT.ABORT, 0);
    void this.#listen(this.#epoch);
  }

  /** The evaluation ended: late answers are dropped and the request listener stops. */
  end(): void {
    if (!this.#active) return;
    this.#epoch++;
    this.#active = false;
    this.#host = undefined;
    Atomics.notify(this.#ctrl, SLOT.REQ_SEQ); // wake the listener so it sees the new epoch and returns
  }

  /** Watch the outbox for requests while evaluation `epoch` runs; each request is served concurrently. */
  async #listen(epoch: number): Promise<void> {
    const ctrl = this.#ctrl;
    let seen = Atomics.load(ctrl, SLOT.REQ_SEQ);
    while (epoch === this.#epoch) {
      const wait = Atomics.waitAsync(ctrl, SLOT.REQ_SEQ, seen);
      if (wait.async) await wait.value;
      if (epoch !== this.#epoch) return;
      const seq = Atomics.load(ctrl, SLOT.REQ_SEQ);
      if (seq === seen) continue;
      seen = seq;
      const length = Atomics.load(ctrl, SLOT.REQ_LENGTH);
      let request: BridgeRequest;
      try {
        request = JSON.parse(decoder.decode(new Uint8Array(this.outbox, 0, length).slice()));
      } catch {
        this.abort("deadline");
        return;
      }
      if (request.type === "tools") void this.tools(seq, request.requests);
      else void this.discovery(seq, request.op, request.args);
    }
  }

  /** Tell a worker blocked on (or about to make) a request that its evaluation is over. */
  abort(why: "deadline" | "cancelled" = "deadline"): void {
    Atomics.store(this.#ctrl, SLOT.ABORT, why === "cancelled" ? ABORT.CANCELLED : ABORT.DEADLINE);
    Atomics.notify(this.#ctrl, SLOT.STATE);
  }

  /** Serve one batch of tool requests (a single `tool/call` is a batch of one). */
  async tools(seq: number, requests: ToolRequest[]): Promise<void> {
    const epoch = this.#epoch;
    const host = this.#host;
    const outcomes = await Promise.all(requests.map(async (request): Promise<ToolOutcome> => {
      if (!host) {
        return { kind: "raise", reason: "unknown_tool", message: `no tools are available (tool/${request.name})` };
      }
      try {
        return await host.callTool(request);
      } catch (e) {
        return {
          kind: "raise",
          reason: "internal_error",
          message: `tool/${request.name} failed in the host: ${faultMessage(e)}`,
        };
      }
    }));
    if (epoch === this.#epoch && this.#active) this.#write(seq, this.#encodeOutcomes(outcomes));
  }

  /** Serve one discovery request. */
  async discovery(seq: number, op: DiscoveryOp, args: JsonObject): Promise<void> {
    const epoch = this.#epoch;
    const host = this.#host;
    let outcome: DiscoveryOutcome;
    if (!host?.discovery) {
      outcome = {
        kind: "programmer_fault",
        message: `discovery '${op}' is not available: no upstreams are configured`,
      };
    } else {
      try {
        outcome = await host.discovery(op, args);
      } catch (e) {
        outcome = { kind: "programmer_fault", message: `discovery '${op}' failed in the host: ${faultMessage(e)}` };
      }
    }
    if (epoch !== this.#epoch || !this.#active) return;
    let bytes = encoder.encode(JSON.stringify(outcome));
    if (bytes.length > this.maxAnswerBytes) {
      bytes = encoder.encode(JSON.stringify({
        kind: "world_fault",
        reason: "response_too_large",
        message:
          `discovery '${op}' answered ${bytes.length} bytes; the sandbox bridge carries at most ${this.maxAnswerBytes}`,
      }));
    }
    this.#write(seq, bytes);
  }

  /** Encode outcomes; the largest ones are replaced by `response_too_large` until the answer fits the mailbox. */
  #encodeOutcomes(outcomes: ToolOutcome[]): Uint8Array {
    const parts = outcomes.map((o) => JSON.stringify(o));
    let bytes = encoder.encode(`[${parts.join(",")}]`);
    if (bytes.length <= this.maxAnswerBytes) return bytes;
    const order = parts.map((p, i) => [p.length, i]).sort((a, b) => b[0] - a[0]);
    for (const [, i] of order) {
      const size = encoder.encode(parts[i]).length;
      parts[i] = JSON.stringify({
        kind: "tagged",
        ok: false,
        reason: "response_too_large",
        message: `the tool answered ${size} bytes; the sandbox bridge carries at most ${this.maxAnswerBytes} ` +
          `bytes per call (ask the tool for less: filters, pagination, fields)`,
      });
      bytes = encoder.encode(`[${parts.join(",")}]`);
      if (bytes.length <= this.maxAnswerBytes) return bytes;
    }
    return bytes;
  }

  #write(seq: number, bytes: Uint8Array): void {
    const needed = DATA_OFFSET + bytes.length;
    if (needed > this.mailbox.maxByteLength) {
      // Only reachable with an absurdly small bridge limit: end the evaluation rather than answer wrongly.
      this.abort();
      return;
    }
    if (this.mailbox.byteLength < needed) {
      // Grow geometrically so a stream of large answers does not grow the buffer every time.
      const max = this.mailbox.maxByteLength;
      this.mailbox.grow(Math.min(max, Math.max(needed, this.mailbox.byteLength * 2)));
    }
    new Uint8Array(this.mailbox, DATA_OFFSET, bytes.length).set(bytes);
    const ctrl = this.#ctrl;
    Atomics.store(ctrl, SLOT.LENGTH, bytes.length);
    Atomics.store(ctrl, SLOT.SEQ, seq);
    Atomics.store(ctrl, SLOT.STATE, STATE.READY);
    Atomics.notify(ctrl, SLOT.STATE);
  }
}

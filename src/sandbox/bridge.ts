/**
 * The host side of the tool bridge: receives a sandbox process's tool and discovery requests, performs them with the
 * callbacks of the current evaluation and sends the answer back as an `answer` frame (tool answers in V8's format
 * when the evaluation takes it, v8_frames.ts; otherwise, and for discovery, JSON).
 *
 * Answers are written only for the evaluation (epoch) and request (seq) they belong to: a slow tool that answers
 * after its evaluation ended can never leak into the next one.
 * @module
 */
import type { DiscoveryOp, DiscoveryOutcome, RunClock, ToolOutcome, ToolRequest } from "../core/tool_seam.ts";
import type { JsonObject } from "../core/json.ts";
import { answerFrame, type BridgeRequest, framed } from "./protocol.ts";
import { v8AnswerBody, v8Loaded, v8Size, worthV8 } from "./v8_frames.ts";

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
  /** Receives the evaluation's clock when it starts (write approval holds it while a person decides). */
  attachClock?(clock: RunClock): void;
}

const encoder = new TextEncoder();

function faultMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function hostFault(request: ToolRequest, e: unknown): ToolOutcome {
  return {
    kind: "raise",
    reason: "internal_error",
    message: `tool/${request.name} failed in the host: ${faultMessage(e)}`,
  };
}

/** An outcome without its undefined members (an absent `mutationState`), as JSON would carry it. */
function withoutUndefined(o: ToolOutcome): ToolOutcome {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as ToolOutcome;
}

/** Per-process bridge endpoint on the host: serves the requests of the running evaluation. */
export class HostBridge {
  #epoch = 0;
  #host: SandboxHost | undefined;
  #active = false;
  #binary = false;

  /**
   * `send(frame)` writes an answer frame (a body of at most `maxAnswerBytes`, plus the header) to the process;
   * `abort()` ends the evaluation when no answer can be given.
   */
  constructor(
    private maxAnswerBytes: number,
    private send: (frame: Uint8Array) => void,
    private abort: () => void,
  ) {}

  /**
   * Start serving a new evaluation with `host` (undefined: the evaluation has no tools); `binary`: its tool answers
   * go in V8's format (the evaluation's message said so, v8_frames.ts).
   */
  begin(host: SandboxHost | undefined, binary = false): void {
    this.#epoch++;
    this.#host = host;
    this.#active = true;
    this.#binary = binary && v8Loaded();
  }

  /** The evaluation ended: late answers are dropped. */
  end(): void {
    if (!this.#active) return;
    this.#epoch++;
    this.#active = false;
    this.#host = undefined;
  }

  /** Serve one request of the running evaluation (concurrently with others). */
  serve(seq: number, request: BridgeRequest): void {
    if (!this.#active) return;
    const host = this.#host;
    if (request.type === "tools" && request.requests.length === 1 && host) {
      // The common case, one `tool/call`: no batch bookkeeping on the round trip.
      const epoch = this.#epoch;
      const [one] = request.requests;
      const answer = (o: ToolOutcome) => {
        if (epoch === this.#epoch && this.#active) this.#answerTools(seq, [o]);
      };
      let pending: Promise<ToolOutcome>;
      try {
        pending = host.callTool(one);
      } catch (e) {
        pending = Promise.reject(e);
      }
      pending.then(answer, (e) => answer(hostFault(one, e)));
      return;
    }
    if (request.type === "tools") void this.tools(seq, request.requests);
    else void this.discovery(seq, request.op, request.args);
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
        return hostFault(request, e);
      }
    }));
    if (epoch === this.#epoch && this.#active) this.#answerTools(seq, outcomes);
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

  /** Answer a tools request: in V8's format when this evaluation takes it, else as JSON. */
  #answerTools(seq: number, outcomes: ToolOutcome[]): void {
    const plain = this.#binary ? outcomes.map(withoutUndefined) : null;
    if (plain !== null && worthV8(plain)) {
      const body = this.#encodeOutcomesV8(seq, plain);
      if (body !== null) {
        if (body.length > this.maxAnswerBytes + 1024) this.abort();
        else this.send(framed(body));
        return;
      }
    }
    this.#write(seq, this.#encodeOutcomes(outcomes));
  }

  /**
   * The answer body in V8's format; the largest outcomes are replaced by `response_too_large` until it fits the
   * bridge limit (sizes counted in that format). Null when a value cannot be serialized so (then JSON decides).
   */
  #encodeOutcomesV8(seq: number, outcomes: ToolOutcome[]): Uint8Array | null {
    try {
      let body = v8AnswerBody(seq, outcomes);
      if (body.length <= this.maxAnswerBytes) return body;
      const out = outcomes.slice();
      const sizes = out.map((o) => v8Size(o));
      const order = sizes.map((n, i) => [n, i]).sort((a, b) => b[0] - a[0]);
      for (const [size, i] of order) {
        out[i] = this.#tooLarge(out[i], size);
        body = v8AnswerBody(seq, out);
        if (body.length <= this.maxAnswerBytes) return body;
      }
      return body;
    } catch {
      return null;
    }
  }

  /** The outcome that replaces one whose answer of `size` bytes does not fit the bridge. */
  #tooLarge(o: ToolOutcome, size: number): ToolOutcome {
    return {
      kind: "tagged",
      ok: false,
      // A write the upstream applied stays applied, however large its answer.
      ...(o.kind === "tagged" && o.mutationState ? { mutationState: o.mutationState } : {}),
      reason: "response_too_large",
      message: `the tool answered ${size} bytes; the sandbox bridge carries at most ${this.maxAnswerBytes} ` +
        `bytes per call (ask the tool for less: filters, pagination, fields)`,
    } as ToolOutcome;
  }

  /** Encode outcomes; the largest ones are replaced by `response_too_large` until the answer fits the bridge limit. */
  #encodeOutcomes(outcomes: ToolOutcome[]): Uint8Array {
    const parts = outcomes.map((o) => JSON.stringify(o));
    let bytes = encoder.encode(`[${parts.join(",")}]`);
    if (bytes.length <= this.maxAnswerBytes) return bytes;
    const order = parts.map((p, i) => [p.length, i]).sort((a, b) => b[0] - a[0]);
    for (const [, i] of order) {
      const size = encoder.encode(parts[i]).length;
      parts[i] = JSON.stringify(this.#tooLarge(outcomes[i], size));
      bytes = encoder.encode(`[${parts.join(",")}]`);
      if (bytes.length <= this.maxAnswerBytes) return bytes;
    }
    return bytes;
  }

  #write(seq: number, bytes: Uint8Array): void {
    // Only reachable with an absurdly small bridge limit: end the evaluation rather than answer wrongly.
    if (bytes.length > this.maxAnswerBytes + 1024) this.abort();
    else this.send(answerFrame(seq, bytes));
  }
}

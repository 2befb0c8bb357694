/**
 * The `context` and `globals` of an evaluation are sent to a process once: an object the process already holds (the
 * same object, by identity) travels as its id only. One cache per process remembers what it holds.
 * @module
 */
import type { CachedPayload } from "./protocol.ts";

/** The two payload slots a process holds. */
export type PayloadKind = "context" | "globals";

const payloadIds = new WeakMap<object, number>();
let nextPayloadId = 1;

/** A stable id per object (by identity), shared by every process. */
function payloadId(value: object): number {
  let id = payloadIds.get(value);
  if (id === undefined) {
    id = nextPayloadId++;
    payloadIds.set(value, id);
  }
  return id;
}

/** What one process holds in each slot. */
export class PayloadCache {
  #held: { context?: number; globals?: number } = {};

  /**
   * The wire form of `value` for `kind` (absent: keep what the process holds; held: the id only; else id and value)
   * and the id the slot holds once the frame is sent; {@link hold} it after the frame was encoded.
   */
  prepare<T extends object>(
    kind: PayloadKind,
    value: T | undefined,
  ): { id: number | undefined; wire: CachedPayload<T> | undefined } {
    if (value === undefined) return { id: this.#held[kind], wire: undefined };
    const id = payloadId(value);
    return { id, wire: this.#held[kind] === id ? { id } : { id, value } };
  }

  /** The process now holds payload `id` in `kind`. */
  hold(kind: PayloadKind, id: number | undefined): void {
    this.#held[kind] = id;
  }
}

/**
 * Per-call limits that must reach code the SDK calls on our behalf (the HTTP transport's fetch): the call's byte
 * cap travels in an AsyncLocalStorage scope around `client.callTool`, so a response over the cap is cut while it
 * streams instead of after it was buffered up to the upstream's hard cap.
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Limits of the call in progress. */
export interface CallScope {
  maxResponseBytes: number;
  /** The call is to a write tool: its request goes on a connection of its own (`freshConnection`). */
  write?: boolean;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Run `fn` with `scope` visible to {@link currentCallScope}. */
export function withCallScope<T>(scope: CallScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/** The limits of the call in progress, if any (undefined during start-up and tools/list). */
export function currentCallScope(): CallScope | undefined {
  return storage.getStore();
}

/**
 * A demo session plus an upstream runtime of the test's own over the session's concrete config, for tests that call
 * tools exactly as a program's `tool/call` would (through a run context) without going through a sandbox.
 */
import { type DemoSession, type DemoSessionOptions, startDemoSession } from "../../src/cli/demo_session.ts";
import { startSettled } from "../upstream/settled.ts";
import { loadConfigOrThrow } from "../../src/upstream/config.ts";
import type { Runtime } from "../../src/upstream/runtime.ts";
import { registerBuiltins } from "../../transports/mod.ts";

/** A demo session and a runtime over its config. */
export type RuntimeSession = DemoSession & { runtime: Runtime };

/** Run `fn` with a fresh demo session and runtime; both are stopped afterwards. */
export async function withDemoRuntime(
  options: DemoSessionOptions,
  fn: (s: RuntimeSession) => Promise<void>,
): Promise<void> {
  const session = await startDemoSession(options);
  try {
    const registry = registerBuiltins();
    const config = await loadConfigOrThrow(session.configPath, { registry });
    const runtime = await startSettled(config, { registry, log: () => {} });
    try {
      await fn(Object.assign(session, { runtime }));
    } finally {
      await runtime.stop();
    }
  } finally {
    await session.close();
  }
}

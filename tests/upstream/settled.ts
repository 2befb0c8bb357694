/** Start a runtime whose upstreams all start at once, and wait until each is ready or has failed its first attempt. */
import type { PtcConfig } from "../../src/upstream/config.ts";
import { type Runtime, type RuntimeOptions, startRuntime } from "../../src/upstream/runtime.ts";

export async function startSettled(config: PtcConfig, options: RuntimeOptions = {}): Promise<Runtime> {
  const rt = await startRuntime(config, { start: "background", ...options });
  await rt.settle(Date.now() + 30_000);
  return rt;
}

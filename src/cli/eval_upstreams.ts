/**
 * The upstream side of `ptc eval`: loads the config named by `--upstreams-config` (or PTC_UPSTREAMS), checks the
 * Deno permissions it needs, starts the runtime (frozen: a failing upstream is a start-up error), and gives every
 * evaluation a fresh run context.
 * @module
 */
import { loadBuiltinTransports } from "../../transports/mod.ts";
import { withRunContext } from "../upstream/run_context.ts";
import { RuntimeStartError, startRuntime } from "../upstream/runtime.ts";
import { prepareConfig } from "../upstream/startup.ts";
import type { HostProvider } from "./eval.ts";

/** A provider, none (no config named), or the problems that stop `ptc eval` with exit 2. */
export type OpenedProvider = { ok: true; provider: HostProvider | undefined } | { ok: false; problems: string[] };

/** Open the upstream provider for `ptc eval`. */
export async function openUpstreamProvider(configFlag: string | undefined, readOnly: boolean): Promise<OpenedProvider> {
  const registry = await loadBuiltinTransports();
  const prepared = await prepareConfig({ configFlag, readOnly, registry });
  if (!prepared.ok) return { ok: false, problems: prepared.problems };
  for (const w of prepared.warnings) console.error(`ptc eval: ${w}`);
  if (!prepared.config) return { ok: true, provider: undefined };
  let runtime;
  try {
    runtime = await startRuntime(prepared.config, { registry, snapshot: "frozen", failurePolicy: "fatal", readOnly });
  } catch (e) {
    if (e instanceof RuntimeStartError) return { ok: false, problems: e.problems };
    throw e;
  }
  const rt = runtime;
  return {
    ok: true,
    provider: {
      withHost: async (fn) => (await withRunContext(rt, (ctx) => fn(ctx.callbacks()))).value,
      close: () => rt.stop(),
    },
  };
}

/**
 * The live Observatory with its write section applied (`allow_writes` in a concrete config), for tests that count
 * writes at its write log. Always stopped and removed.
 * @module
 */
import { join } from "node:path";
import { createTokenDir, type RunningObservatory, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";

/** Run `fn` with a fresh Observatory (`traces` traces) and the path of a config that allows its writes. */
export async function withWriteObservatory(
  fn: (observatory: RunningObservatory, configPath: string, dir: string) => Promise<void>,
  traces = 20,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-write-observatory-" });
  try {
    await Deno.mkdir(join(dir, ".observatory"), { mode: 0o700 });
    const tokens = await createTokenDir(join(dir, ".observatory"));
    const observatory = await startObservatory({ seed: "approve", traces, tokensFile: tokens.tokensFile });
    try {
      const configPath = await writeConcreteConfig(dir, observatory.url, { upstreams: ["observatory"], writes: true });
      await fn(observatory, configPath, dir);
    } finally {
      await observatory.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

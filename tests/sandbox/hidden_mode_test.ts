/**
 * The hidden mode a compiled ptc uses for its sandbox processes (`ptc __sandbox`), run from source WITH every
 * permission granted (as a binary baked with permissions would be): the child must revoke them all before serving.
 * (`deno compile` itself needs a denort runtime this machine does not have; this is the closest faithful run.)
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { encodeFrame, FrameDecoder } from "../../src/sandbox/protocol.ts";
import type { ChildMessage } from "../../src/sandbox/protocol.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

Deno.test("hidden mode: `main.ts __sandbox` with -A revokes every permission, then evaluates", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "__sandbox"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const frames = new FrameDecoder(1 << 24);
  const reader = child.stdout.getReader();
  const next = async (): Promise<ChildMessage> => {
    while (true) {
      const body = frames.next();
      if (body) return JSON.parse(new TextDecoder().decode(body));
      const { value, done } = await reader.read();
      if (done) throw new Error("the sandbox process closed its stdout");
      frames.push(value);
    }
  };
  try {
    await writer.write(encodeFrame({ type: "init", libraries: [] }));
    assert.deepEqual(await next(), { type: "ready" });
    await writer.write(encodeFrame({ type: "probe", id: 1 }));
    const probe = await next() as unknown as {
      type: "reply";
      value: Record<string, unknown> & { permissions: object };
    };
    assert.equal(probe.type, "reply");
    for (const [name, state] of Object.entries(probe.value.permissions)) {
      assert.notEqual(state, "granted", `permission ${name} was not revoked`);
    }
    for (const action of ["readFile", "writeFile", "readEnv", "connect", "run"]) {
      assert.equal(probe.value[action], "NotCapable", action);
    }
    await writer.write(encodeFrame({
      type: "eval",
      id: 2,
      source: "(+ 40 2)",
      mode: "fresh",
      toolNames: null,
      hasDiscovery: false,
      limits: { deadline: Date.now() + 10_000 },
      streamPrints: false,
      maxResultChars: 1000,
    }));
    const result = await next() as unknown as { type: "result"; result: { ok: boolean; printed?: string } };
    assert.equal(result.result.printed, "42");
  } finally {
    await writer.close().catch(() => {});
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    await child.status;
  }
});

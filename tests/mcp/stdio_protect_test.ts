import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const STDIO = new URL("../../src/mcp/stdio.ts", import.meta.url).href;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("protectStdout: a library's console.dir (yaml under LOG_TOKENS) reaches stderr, never stdout", async () => {
  const script = `
    import { protectStdout } from "${STDIO}";
    import { parse } from "yaml";
    protectStdout();
    parse("a: 1\\nb: [2, 3]\\n");
    console.log("log"); console.info("info"); console.debug("debug"); console.dir({ dir: 1 });
    console.table([{ t: 1 }]); console.trace("trace");
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    cwd: ROOT,
    env: { LOG_TOKENS: "1", LOG_STREAM: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  assert.equal(new TextDecoder().decode(out.stdout), "");
  // the yaml package really printed its tokens (else this test proves nothing)
  assert.match(stderr, /doc-start|document|block-map|scalar/);
  for (const word of ["log", "info", "debug", "dir", "trace"]) assert.match(stderr, new RegExp(word));
});

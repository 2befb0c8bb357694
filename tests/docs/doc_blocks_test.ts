/**
 * Docs that run: every shell block of README.md and docs/*.md is either executed here — as a user pastes it, from a
 * temporary folder, with `ptc` the launcher on PATH (so confined to the flags `ptc permissions` computes) and the
 * Observatory fixture running — or marked as illustrative (or run by CI) with a reason. See ./doc_blocks.ts for the
 * markers. A transcript block (`$ command` then its output) must print what it shows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { expectedPattern, isTranscript, type ShellBlock, shellBlocks, transcriptSteps } from "./doc_blocks.ts";
import { freePort } from "../integration/launcher_helpers.ts";

const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const DOCS = ["README.md", ...[...Deno.readDirSync(join(ROOT, "docs"))].map((e) => `docs/${e.name}`)]
  .filter((f) => f.endsWith(".md"))
  .sort();
const BLOCKS: ShellBlock[] = DOCS.flatMap((f) => shellBlocks(f, Deno.readTextFileSync(join(ROOT, f))));
const where = (b: ShellBlock) => `${b.file}:${b.line}`;
const dec = new TextDecoder();

Deno.test("every shell block in README.md and docs/ is executed by this test or marked with a reason", () => {
  const unmarked = BLOCKS.filter((b) => !b.marker).map(where);
  assert.deepEqual(unmarked, [], "add <!-- doc-test: run --> or <!-- doc-test: illustrative — why --> before each");
  const unexplained = BLOCKS.filter((b) => b.marker && b.marker.kind !== "run" && !b.marker.reason).map(where);
  assert.deepEqual(unexplained, [], "an illustrative or ci block says why");
  assert.ok(BLOCKS.filter((b) => b.marker?.kind === "run").length >= 10, "most paste-able blocks run");
});

/**
 * A user's folder: `ptc` on PATH, a HOME of its own, the example config (and its usual other names), a program. A
 * `ptc.jsonc` is there only for a block that names it: ptc finds that file without being told.
 */
async function userFolder(
  fixtureUrl: string,
  blockText: string,
): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-doc-" });
  await Deno.mkdir(join(dir, "bin"));
  await Deno.mkdir(join(dir, "home"));
  await Deno.symlink(join(ROOT, "bin/ptc"), join(dir, "bin/ptc"));
  const config = await writeConcreteConfig(dir, fixtureUrl, { upstreams: "all", fileName: "upstreams.example.jsonc" });
  const names = ["upstreams.jsonc", "ci.jsonc", ...(blockText.includes("ptc.jsonc") ? ["ptc.jsonc"] : [])];
  for (const name of names) await Deno.copyFile(config, join(dir, name));
  await Deno.writeTextFile(
    join(dir, "question.clj"),
    `(->> (tool/call 'observatory/list-traces {:org_id "acme" :status "error" :limit 20}) :value :traces count)\n`,
  );
  const env = {
    PATH: `${join(dir, "home/.local/bin")}:${join(dir, "bin")}:${ROOT}/node_modules/.bin:/usr/local/bin:/usr/bin:/bin`,
    HOME: join(dir, "home"),
    NO_COLOR: "1",
  };
  return { dir, env };
}

/** Start `ptc fixture observatory` as a user would (its defaults), tokens in DIR/.observatory; resolves its URL. */
async function startFixture(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(join(ROOT, "bin/ptc"), {
    args: ["fixture", "observatory", "--port", "0", "--token-dir", join(dir, ".observatory")],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/listening on (http:\/\/\S+)/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the fixture did not start: ${seen}`);
    seen += value;
  }
  const url = /listening on (http:\/\/\S+)/.exec(seen)![1];
  // keep draining its stdout so it never blocks
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

async function bash(script: string, cwd: string, env: Record<string, string>) {
  const out = await new Deno.Command("bash", {
    args: ["-e", "-o", "pipefail", "-c", script],
    cwd,
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("the runnable shell blocks of the docs run as written", async (t) => {
  const shared = await Deno.makeTempDir({ prefix: "ptc-doc-fixture-" });
  const fixture = await startFixture(shared);
  try {
    const port = new URL(fixture.url).port;
    for (const block of BLOCKS.filter((b) => b.marker?.kind === "run")) {
      await t.step(where(block), async () => {
        const own = block.marker!.ownFixture;
        const blockPort = own ? String(freePort()) : port;
        const { dir, env } = await userFolder(`http://127.0.0.1:${blockPort}`, block.text);
        try {
          if (!own) {
            await Deno.mkdir(join(dir, ".observatory"), { mode: 0o700 });
            const token = join(".observatory", "observatory.token");
            await Deno.copyFile(join(shared, token), join(dir, token));
          }
          const cwd = block.marker!.inCheckout ? ROOT : dir;
          const text = block.text.replaceAll("8765", blockPort).replaceAll("/path/to/ptc", ROOT);
          if (isTranscript(block)) {
            for (const step of transcriptSteps(text)) {
              const r = await bash(step.command, cwd, env);
              const shown = `${r.stdout}${r.stderr}`.trim();
              assert.match(
                shown,
                expectedPattern(step.expected),
                `${where(block)}: $ ${step.command}\n--- printed:\n${shown}`,
              );
            }
          } else {
            const r = await bash(text, cwd, env);
            assert.equal(r.code, 0, `${where(block)} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
          }
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      });
    }
  } finally {
    await fixture.stop();
    await Deno.remove(shared, { recursive: true });
  }
});

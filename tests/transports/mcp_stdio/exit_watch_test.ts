/**
 * A dead server is noticed by its exit: pipes an orphan still holds are drained of what the server wrote, then
 * cancelled, instead of being waited on for ever.
 */
import assert from "node:assert/strict";
import { drainAfterExit, PipeReader } from "../../../transports/mcp_stdio/exit_watch.ts";
import { groupSignalling } from "../../../transports/mcp_stdio/group.ts";
import { pidAlive } from "../mcp_common/helpers.ts";

Deno.test("exit watch: an orphan holding the pipes does not hide the exit; what was written is delivered", async () => {
  // `sleep` inherits the shell's stdout and stderr and outlives it; the shell prints the orphan's pid and exits.
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", "sleep 30 & echo $!; echo done"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = new PipeReader(child.stdout);
  const err = new PipeReader(child.stderr);
  let text = "";
  const decoder = new TextDecoder();
  out.pump((chunk) => text += decoder.decode(chunk, { stream: true }));
  err.pump(() => {});
  assert.equal((await child.status).code, 0);
  await drainAfterExit([out, err]); // resolves although `sleep` keeps both pipes open
  const [orphan, done] = text.trim().split("\n");
  assert.equal(done, "done");
  assert.ok(pidAlive(Number(orphan)), "the orphan still runs (it holds the pipes)");
  Deno.kill(Number(orphan), "SIGKILL");
});

Deno.test("exit watch: with every program allowed, a group is signalled by Deno itself", () => {
  assert.equal(groupSignalling(), Deno.build.os === "windows" ? "child-only" : "deno");
});

Deno.test("group: kill is asked for only where PATH has it, so a machine without it still starts", async () => {
  const probe = `import { killProgramFound } from ${
    JSON.stringify(new URL("../../../transports/mcp_stdio/group.ts", import.meta.url).href)
  };
console.log(killProgramFound());`;
  const run = async (path: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", probe],
      env: { PATH: path },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return new TextDecoder().decode(out.stdout).trim();
  };
  const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
  assert.equal(await run(path), Deno.build.os === "windows" ? "false" : "true");
  assert.equal(await run("/nowhere"), "false");
});

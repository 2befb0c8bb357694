/**
 * `ptc repl --approve-writes` on a real terminal (tmux): each write shows the approval summary and waits for y/N
 * before anything is sent — `y` sends exactly one write, Enter (the default, N) sends none and the program sees
 * `:declined`. Counted at the live Observatory's write log.
 */
import assert from "node:assert/strict";
import { withWriteObservatory } from "./write_observatory.ts";
import { tmuxAvailable, TmuxRepl } from "./repl_tmux.ts";

if (!(await tmuxAvailable())) {
  throw new Error("these tests need tmux (apt-get install -y tmux; .ci/run installs it)");
}

Deno.test("tty: --approve-writes asks y/N with the summary; y sends one write, N sends none", async () => {
  await withWriteObservatory(async (observatory, config) => {
    const trace = observatory.dataset.traces[0].id;
    const program =
      `(let [r (tool/call 'observatory/create-trace-annotation {:trace_id "${trace}" :label "needs-review"}` +
      ` {:reason "from the repl"})] [(:ok r) (:reason r) (:mutation_state r)])`;
    const repl = await TmuxRepl.start({
      args: ["--upstreams-config", config, "--allow-writes", "--approve-writes"],
      env: { NO_COLOR: "1" },
    });
    try {
      await repl.waitFor(/Ctrl-D to exit\.\n.*ptc>$/s);
      await repl.line(program);
      const asked = await repl.waitFor(/approve\? \[y\/N\]$/);
      assert.match(asked, /observatory\/create-trace-annotation \(effect: write\)/);
      assert.match(asked, /Reason given by the program: from the repl/);
      assert.equal(observatory.writes().length, 0, "nothing sent while the person decides");
      await repl.line("y");
      await repl.waitFor(/\[true nil :applied\][\s\S]*ptc>$/);
      assert.equal(observatory.writes().length, 1);

      await repl.line(program);
      await repl.waitFor(/approve\? \[y\/N\]$/);
      await repl.send("Enter");
      await repl.waitFor(/\[false :declined :not_applied\][\s\S]*ptc>$/);
      assert.equal(observatory.writes().length, 1, "N: nothing sent");
    } finally {
      await repl.close();
    }
  });
});

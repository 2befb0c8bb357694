/**
 * The interactive REPL, driven through tmux (a real terminal): multi-line input with the continuation prompt,
 * history recalled with Up and persisted across restarts, `:doc` precedence and fallback, `:find`, `:tools`,
 * `:servers` against the live Observatory fixture, Ctrl-C during an endless loop, a failing upstream at start,
 * colour on a TTY and none with NO_COLOR.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startReplWorld } from "./repl_fixture.ts";
import { count, tmuxAvailable, TmuxRepl } from "./repl_tmux.ts";

if (!(await tmuxAvailable())) {
  throw new Error("these tests need tmux (apt-get install -y tmux; .ci/run installs it)");
}

/** Start a REPL, run `body`, always kill the tmux server. */
async function withRepl(options: Parameters<typeof TmuxRepl.start>[0], body: (r: TmuxRepl) => Promise<void>) {
  const repl = await TmuxRepl.start(options);
  try {
    await repl.waitFor(/:help for commands, Ctrl-D to exit\.\n.*ptc>$/s);
    await body(repl);
  } finally {
    await repl.close();
  }
}

/**
 * Remove a temp dir the REPL may still be writing its history into: killing the tmux server ends the REPL
 * asynchronously, so its last history append can race the removal.
 */
async function removeEventually(dir: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(dir, { recursive: true });
      return;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return;
      if (attempt >= 40) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The last non-empty line of the screen. */
function lastLine(screen: string): string {
  return screen.split("\n").filter((l) => l.trim() !== "").at(-1) ?? "";
}

Deno.test("tty: multi-line input waits for balanced brackets; history is recalled with Up across restarts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-repl-history-" });
  const historyFile = join(dir, "state", "history");
  const env = { PTC_HISTORY_FILE: historyFile, NO_COLOR: "1" };
  try {
    await withRepl({ env }, async (r) => {
      await r.line("(def total");
      await r.waitFor(/\.\.\.>$/);
      await r.line("  (+ 1 2 ; a comment with a ) in it");
      await r.waitFor(/\.\.\.>$/);
      await r.line('     (count "))")))');
      await r.waitFor(/#'total\nptc>$/);
      await r.line("(* total 2)");
      await r.waitFor(/\n10\nptc>$/);
      // a stray closer is reported at once, without waiting for more input
      await r.line("(inc 1))");
      await r.waitFor(/parse_error: line 1: unexpected '\)' with nothing open\nptc>$/);
      // Ctrl-C on an unfinished entry drops it
      await r.line("(let [a 1]");
      await r.waitFor(/\.\.\.>$/);
      await r.send("C-c");
      await r.waitFor(/ptc>$/);
      await r.line("total");
      await r.waitFor(/\n5\nptc>$/);
      await r.send("C-d");
      await r.waitFor(/\[exit 0\]/);
    });
    const saved = (await Deno.readTextFile(historyFile)).split("\n");
    // whole entries, joined, without comments; parse errors are kept (to be fixed), a Ctrl-C'd entry is not
    assert.deepEqual(saved, ['(def total (+ 1 2 (count "))")))', "(* total 2)", "(inc 1))", "total", ""]);
    await withRepl({ env }, async (r) => {
      await r.send("Up");
      await r.waitFor((s) => lastLine(s) === "ptc> total");
      await r.send("Up");
      await r.waitFor((s) => lastLine(s) === "ptc> (inc 1))");
      await r.send("Up", "Up");
      await r.waitFor((s) => lastLine(s) === 'ptc> (def total (+ 1 2 (count "))")))');
      await r.send("Enter");
      await r.waitFor(/\n#'total\nptc>$/);
      // the entry just run is the newest again, and Up starts from it
      await r.send("Up");
      await r.waitFor((s) => lastLine(s) === 'ptc> (def total (+ 1 2 (count "))")))');
    });
  } finally {
    await removeEventually(dir);
  }
});

Deno.test("tty: :doc precedence and fallback, :find, :tools, :servers and a tool call against the Observatory", async () => {
  const world = await startReplWorld();
  try {
    await withRepl({ args: ["--upstreams-config", world.configPath], env: { NO_COLOR: "1" } }, async (r) => {
      assert.match(await r.screen(), /1 server: observatory\. :help/);
      await r.line(":doc map");
      await r.waitFor(/ptc> :doc map\nmap\n {2}\[f coll\][^]*\nptc>$/);
      await r.line(":doc observatory/list-traces");
      await r.waitFor(/\nobservatory\/list-traces\nList an org's traces[^]*Args: \{:org-id string[^]*\nptc>$/);
      await r.send("C-l");
      await r.line(":doc list-traces");
      await r.waitFor(/:doc list-traces\nobservatory\/list-traces\n[^]*Args: \{:org-id string[^]*\nptc>$/);
      await r.send("C-l");
      await r.line(":doc no-such-thing");
      await r.waitFor(/no builtin, special form, server or tool named 'no-such-thing'\nhint: :find no-such-thing/);
      await r.line(":find cost");
      await r.waitFor(/:find cost\nobservatory\/get-cost-analytics - Cost, volume and errors of an org, grouped\n/);
      await r.send("C-l");
      await r.line(":servers");
      await r.waitFor(/:servers\nobservatory \(8 tools\) - Observatory: traces/);
      await r.line(":tools observatory");
      const tools = await r.waitFor(/observatory\/query-traces - Query traces across orgs[^\n]*\nptc>$/);
      assert.equal(count(tools, "\nobservatory/"), 8);
      await r.send("C-l");
      await r.line('(def page (tool/call \'observatory/list-traces {:org_id "acme" :limit 3}))');
      await r.waitFor(/#'page\nptc>$/);
      await r.line("[(:ok page) (count (get-in page [:value :traces]))]");
      const screen = await r.waitFor(/\n\[true 3\]\nptc>$/);
      assert.ok(!screen.includes(world.token), "the bearer token never reaches the terminal");
    });
  } finally {
    await world.close();
  }
});

Deno.test("tty: Ctrl-C cancels an endless loop; the REPL keeps working with its namespace", async () => {
  // A step budget no loop reaches and a long deadline: only Ctrl-C can end this evaluation.
  const args = ["--max-steps", "1000000000000000", "--timeout-ms", "60000"];
  await withRepl({ args, env: { NO_COLOR: "1" } }, async (r) => {
    await r.line("(def x 41)");
    await r.waitFor(/#'x\nptc>$/);
    await r.line("(defn twice [n] (* 2 n))");
    await r.waitFor(/#'twice\nptc>$/);
    await r.line("(loop [] (recur))");
    await r.waitFor(/ptc> \(loop \[\] \(recur\)\)$/);
    await r.send("C-c");
    const screen = await r.waitFor(/\ncancelled: [^\n]+\n[^]*\nre-ran [^\n]+\nptc>$/);
    // A program busy computing cannot hear a cancel: its sandbox process is killed and the definitions replayed.
    assert.match(screen, /re-ran 2 definition\(s\) from source/);
    await r.line("[(twice (inc x)) (:reason *e)]");
    await r.waitFor(/\n\[84 "cancelled"\]\nptc>$/);
    await r.line(":quit");
    await r.waitFor(/\[exit 0\]/);
  });
});

Deno.test("tty: a failing upstream never stops the REPL, is reported once, and :servers says why", async () => {
  const world = await startReplWorld();
  try {
    await withRepl({ args: ["--upstreams-config", world.brokenConfigPath], env: { NO_COLOR: "1" } }, async (r) => {
      const start = await r.screen();
      assert.match(start, /2 servers: broken( \([a-z ]+\))?, observatory( \([a-z ]+\))?\. :help/);
      await r.line('(:reason (tool/call \'broken/list-traces {:org_id "acme"}))');
      await r.waitFor(/\n:upstream_unavailable\nptc>$/);
      await r.line(":servers");
      await r.waitFor(
        /\nbroken \(unavailable\) - An upstream whose OpenAPI document cannot be fetched\.\n {2}unavailable: schema_url .*\[schema_connect_failed\]/,
      );
      assert.equal(count(await r.screen(), "ptc repl: upstream broken: "), 1, "reported once");
      await r.line('(count (get-in (tool/call \'observatory/list-traces {:org_id "acme" :limit 2}) [:value :traces]))');
      await r.waitFor(/\n2\nptc>$/);
    });
  } finally {
    await world.close();
  }
});

Deno.test("tty: errors are coloured on a terminal, and never with NO_COLOR", async () => {
  const ESC = "\x1b[";
  await withRepl({ env: { NO_COLOR: "" } }, async (r) => {
    await r.line("(/ 1 0)");
    await r.waitFor(/arithmetic_error: /);
    const coloured = await r.screen(true);
    assert.ok(coloured.includes(`${ESC}31marithmetic_error`), JSON.stringify(coloured.slice(-300)));
  });
  await withRepl({ env: { NO_COLOR: "1" } }, async (r) => {
    await r.line("(/ 1 0)");
    await r.waitFor(/arithmetic_error: /);
    const plain = await r.screen(true);
    assert.ok(!plain.includes(`${ESC}31m`) && !plain.includes(`${ESC}36m`), JSON.stringify(plain.slice(-300)));
  });
});

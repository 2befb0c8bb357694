/**
 * `ptc repl` run non-interactively as a subprocess: repeated `--eval`, a FILE, `-` and piped stdin; values printed
 * (not envelopes), exit 1 at the first failed form with `reason: message`, exit 2 on bad flags; no escape codes
 * when stdout is not a terminal; the same session against the live Observatory fixture.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runRepl, startReplWorld } from "./repl_fixture.ts";

const ESC = "\x1b";

Deno.test("batch: repeated --eval share one session (defs, *1 *2 *3); values are printed, not envelopes", async () => {
  const r = await runRepl(["-e", "(def x 41)", "--eval", "(inc x)", "-e", '{:a [1 2] :b "s"}', "-e", "[*1 *2 *3]"]);
  assert.equal(r.stderr, "");
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '#\'x\n42\n{:a [1 2] :b "s"}\n[{:a [1 2] :b "s"} 42 #\'x]\n');
  assert.ok(!r.stdout.includes(ESC));
});

Deno.test("batch: a FILE runs form by form; multi-line forms and commands work; exit 1 at the first failure", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-repl-batch-" });
  try {
    const file = join(dir, "session.clj");
    await Deno.writeTextFile(
      file,
      [
        "; a REPL script",
        "(defn sq [n]",
        "  (* n n))",
        "(sq 7) (sq 8)",
        ":doc sq",
        '(println "side") (+ 1 1)',
        "(/ 1 0)",
        '(println "never reached")',
      ].join("\n"),
    );
    const r = await runRepl([file]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^#'sq\n49\n64\n/);
    assert.match(r.stdout, /\nsq - defined in this session:\n\(defn sq \[n\]\n {2}\(\* n n\)\)\nside\nnil\n2\n$/);
    assert.ok(!r.stdout.includes("never reached"));
    const errLines = r.stderr.trimEnd().split("\n");
    assert.match(errLines[0], /^arithmetic_error: .*division by zero/, "reason: message");
    assert.equal(errLines.at(-1), `(in ${file}, form at line 7)`);
    assert.ok(!r.stderr.includes("    at "), "no stack trace");
    assert.ok(!r.stdout.includes(ESC) && !r.stderr.includes(ESC), "no escape codes off a terminal");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("batch: `-` and piped stdin; unbalanced input is a parse_error after the good forms", async () => {
  const dash = await runRepl(["-"], { stdin: "(def y 2)\n(* y 3)\n" });
  assert.deepEqual([dash.code, dash.stdout, dash.stderr], [0, "#'y\n6\n", ""]);
  const piped = await runRepl([], { stdin: "(+ 1 2)\n(map inc\n  [1 2]" });
  assert.equal(piped.code, 1);
  assert.equal(piped.stdout, "3\n");
  assert.match(piped.stderr, /^parse_error: stdin: unbalanced input at end of input, starting with: \(map inc/);
  const stray = await runRepl(["-e", "(+ 1 2))"]);
  assert.equal(stray.code, 1);
  assert.match(stray.stderr, /parse_error: --eval #1: line 1: unexpected '\)' with nothing open/);
});

Deno.test("batch: the reason and a hint are shown once; an unknown function names close builtins", async () => {
  const r = await runRepl(["-e", "(mapp inc [1 2])"]);
  assert.equal(r.code, 1);
  const lines = r.stderr.trimEnd().split("\n");
  assert.match(lines[0], /^unbound_var: .*mapp.*did you mean "map"/);
  assert.equal(lines.filter((l) => /did you mean/.test(l)).length, 1, "the language's suggestion is not repeated");
  assert.equal(lines.at(-1), "(in --eval #1, form at line 1)");
});

Deno.test("batch: bad flags and unreadable files exit 2 with a message naming the problem", async () => {
  const cases: [string[], RegExp][] = [
    [["--bogus"], /Unknown option '--bogus'/],
    // the flag went with catalog.snapshot: every upstream is supervised, on every face
    [["--catalog-snapshot-mode", "live"], /Unknown option '--catalog-snapshot-mode'/],
    [["--max-steps", "lots"], /--max-steps expects a whole number, got 'lots'/],
    [["a.clj", "b.clj"], /expected at most one FILE, got 2/],
    [["/nonexistent/ptc-repl.clj"], /^ptc repl: cannot read \/nonexistent\/ptc-repl\.clj: no such file\n$/],
    [["--upstreams-config", "/nonexistent/upstreams.jsonc", "-e", "1"], /nonexistent\/upstreams\.jsonc/],
  ];
  for (const [args, message] of cases) {
    const r = await runRepl(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.ok(!r.stderr.includes("    at "), "no stack trace");
  }
  const help = await runRepl(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: ptc repl/);
});

Deno.test("batch: against the Observatory — tool results as values, :servers/:tools/:doc, a failed upstream", async () => {
  const world = await startReplWorld();
  try {
    const r = await runRepl([
      "--upstreams-config",
      world.configPath,
      "-e",
      '(def page (tool/call \'observatory/list-traces {:org_id "acme" :limit 5}))',
      "-e",
      "(count (get-in page [:value :traces]))",
      "-e",
      ":servers",
      "-e",
      ":doc get-cost-analytics",
      "-e",
      '(:reason (tool/call \'observatory/get-trace {:trace_id "trc_nope"}))',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout.split("\n");
    assert.deepEqual(out.slice(0, 3), ["#'page", "5", "observatory (8 tools) - " + out[2].slice(24)]);
    assert.match(r.stdout, /\nobservatory\/get-cost-analytics\nCost, volume and errors of an org, grouped/);
    assert.match(r.stdout, /\n:not_found\n$/);
    assert.ok(!r.stdout.includes(world.token) && !r.stderr.includes(world.token));

    // every input gets a fresh run context: 30 + 30 calls pass a 50-call budget, 60 in one input do not
    const budget = await runRepl([
      "--upstreams-config",
      world.configPath,
      "-e",
      '(defn calls [n] (frequencies (map (fn [_] (:reason (tool/call \'observatory/list-traces {:org_id "acme" :limit 1}))) (range n))))',
      "-e",
      "(calls 30)",
      "-e",
      "(calls 30)",
      "-e",
      "(calls 60)",
    ]);
    assert.equal(budget.code, 0, budget.stderr);
    assert.deepEqual(budget.stdout.split("\n"), ["#'calls", "{nil 30}", "{nil 30}", "{:cap_exhausted 10 nil 50}", ""]);

    const broken = await runRepl([
      "--upstreams-config",
      world.brokenConfigPath,
      "-e",
      `(:reason (tool/call 'broken/list-traces {:org_id "acme"}))`,
      "-e",
      `(:ok (tool/call 'observatory/list-traces {:org_id "acme" :limit 1}))`,
      "-e",
      ":servers",
      "-e",
      ":limits",
      "-e",
      "(+ 1 2)",
    ]);
    assert.equal(broken.code, 0, broken.stderr);
    assert.equal(broken.stderr.match(/schema_connect_failed/g)?.length, 1, "reported once");
    assert.match(broken.stdout, /^:upstream_unavailable\ntrue\n/m);
    assert.match(broken.stdout, /^observatory \(8 tools\)/m);
    assert.match(
      broken.stdout,
      /^broken \(unavailable\) - .*\n {2}unavailable: schema_url .*\[schema_connect_failed\]; next attempt in \d+ m?s$/m,
    );
    assert.match(broken.stdout, /\n3\n$/);
    // :limits: the REPL's 30 s default, the sandbox budgets and the config's per-program limits
    for (const line of ["timeoutMs: 30000", "maxSteps: 50000000", "max_tool_calls: 50"]) {
      assert.ok(broken.stdout.split("\n").includes(line), `${line} in:\n${broken.stdout}`);
    }
  } finally {
    await world.close();
  }
});

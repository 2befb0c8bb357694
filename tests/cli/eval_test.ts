/** `ptc eval` end to end: the real CLI as a subprocess, one test per mode. */
import assert from "node:assert/strict";
import { type Run, runDeno } from "./run_deno.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

function ptc(args: string[], stdin?: string, entry: string[] = [MAIN, "eval"]): Promise<Run> {
  return runDeno([...entry, ...args], { stdin });
}

async function tempFile(text: string, suffix = ".json"): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "ptc-eval-test-", suffix });
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("eval text: value printed, exit 0", async () => {
  const r = await ptc(["(reduce + (range 10))"]);
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, "45\n", ""]);
});

Deno.test("eval text: println output comes first", async () => {
  const r = await ptc(['(println "one") (println "two" 2) {:done true}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "one\ntwo 2\n{:done true}\n");
});

Deno.test("eval text: errors go to stderr as reason: message, exit 1", async () => {
  const r = await ptc(["(/ 1 0)"]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^arithmetic_error: /);
});

Deno.test("eval text: (fail v) is an error, (return v) a success", async () => {
  const failed = await ptc(['(fail {:why "no data"})']);
  assert.deepEqual([failed.code, failed.stderr], [1, 'fail: {:why "no data"}\n']);
  const returned = await ptc(["(return 7) 8"]);
  assert.deepEqual([returned.code, returned.stdout], [0, "7\n"]);
});

Deno.test("eval json: success and failure objects", async () => {
  const ok = await ptc(["--format", "json", '{:a [1 2] :b "x"}']);
  assert.equal(ok.code, 0);
  const o = JSON.parse(ok.stdout);
  assert.deepEqual(Object.keys(o), ["ok", "printed", "value", "prints", "elapsed_ms"]);
  assert.deepEqual([o.ok, o.printed, o.value, o.prints], [true, '{:a [1 2] :b "x"}', { a: [1, 2], b: "x" }, []]);
  assert.equal(typeof o.elapsed_ms, "number");
  const bad = await ptc(["--format", "json", "(+ 1"]);
  assert.equal(bad.code, 1);
  const b = JSON.parse(bad.stdout);
  assert.deepEqual([b.ok, b.reason], [false, "parse_error"]);
  assert.match(b.message, /line 1, column 1/);
});

Deno.test("eval: program from -f FILE and from stdin", async () => {
  const file = await tempFile("(* 6 7)", ".clj");
  try {
    assert.equal((await ptc(["-f", file])).stdout, "42\n");
  } finally {
    await Deno.remove(file);
  }
  assert.equal((await ptc(["-"], '(str "a" "b")')).stdout, '"ab"\n');
});

Deno.test("eval --jsonl: one object per program line, in order", async () => {
  const input = ['"(+ 1 2)"', "", '"(bad"', "not json", '"(return :k)"'].join("\n") + "\n";
  const r = await ptc(["--jsonl"], input);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 4);
  assert.deepEqual([lines[0].ok, lines[0].printed], [true, "3"]);
  assert.deepEqual([lines[1].ok, lines[1].reason], [false, "parse_error"]);
  assert.deepEqual([lines[2].reason, lines[2].message], [
    "invalid_input",
    "stdin line 4: expected a JSON-encoded program string",
  ]);
  assert.deepEqual([lines[3].ok, lines[3].printed], [true, ":k"]);
});

Deno.test("eval --data (JSON and JSON lines) and --context", async () => {
  const data = await tempFile(JSON.stringify([{ n: 1 }, { n: 2 }, { n: 3 }]));
  const lines = await tempFile('{"n":5}\n{"n":6}\n', ".jsonl");
  const ctx = await tempFile(JSON.stringify({ user: "ann", limit: 2 }));
  try {
    const r = await ptc(["--data", data, "--context", ctx, "[(reduce + (map :n data)) data/user data/limit]"]);
    assert.equal(r.stdout, '[6 "ann" 2]\n', r.stderr);
    assert.equal((await ptc(["--data", lines, "(mapv :n data)"])).stdout, "[5 6]\n");
  } finally {
    for (const f of [data, lines, ctx]) await Deno.remove(f);
  }
});

Deno.test("eval --repeat: median elapsed_ms over the runs", async () => {
  const r = await ptc(["--format", "json", "--repeat", "5", "(count (range 1000))"]);
  const o = JSON.parse(r.stdout);
  assert.deepEqual([o.ok, o.printed, o.runs], [true, "1000", 5]);
  assert.ok(o.elapsed_ms >= 0);
});

Deno.test("eval --timeout-ms: a runaway loop ends with timeout", async () => {
  const r = await ptc(["--timeout-ms", "100", "--max-steps", "1000000000000", "(loop [] (recur))"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^timeout: /);
});

Deno.test("eval: usage and input errors exit 2 with a clear message", async () => {
  const cases: [string[], RegExp][] = [
    [["--bogus", "1"], /Unknown option '--bogus'/],
    [[], /no program given/],
    [["--format", "xml", "1"], /--format expects text or json, got 'xml'/],
    [["--repeat", "zero", "1"], /--repeat expects a whole number/],
    [["--timeout-ms", "-5", "1"], /timeout-ms/],
    [["--data", "/no/such/file.json", "1"], /cannot read --data '\/no\/such\/file.json': no such file/],
    [["1", "2"], /expected one program, got 2 arguments/],
  ];
  for (const [args, pattern] of cases) {
    const r = await ptc(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  }
  const ctx = await tempFile("[1, 2]");
  // Hostile: data nested 200,000 deep parses, but would end in an engine stack error far from its cause.
  const deep = await tempFile("[".repeat(200_000) + "]".repeat(200_000));
  const deepCtx = await tempFile('{"a":' + "[".repeat(5_000) + "]".repeat(5_000) + "}");
  try {
    const r = await ptc(["--context", ctx, "1"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /expected a JSON object/);
    for (const [flag, file] of [["--data", deep], ["--context", deepCtx]]) {
      const d = await ptc([flag, file, "1"]);
      assert.equal(d.code, 2, d.stderr);
      assert.equal(
        d.stderr.trim(),
        `ptc eval: ${flag} ${file}: arrays and objects nest deeper than 1000 levels; flatten the data`,
      );
    }
  } finally {
    await Deno.remove(ctx);
    await Deno.remove(deep);
    await Deno.remove(deepCtx);
  }
});

Deno.test("eval with a transport registry: tool/call reaches the upstream, a fresh run context per evaluation", async () => {
  const fixture = new URL("./eval_registry_fixture.ts", import.meta.url).pathname;
  // One tool call per run: a run context shared between the three runs would answer the second with cap_exhausted.
  const config = await tempFile(JSON.stringify({
    limits: { max_tool_calls: 1 },
    upstreams: {
      obs: {
        transport: "fake",
        base_url: "https://obs.example.com",
        tools: [{
          name: "list-traces",
          input_schema: { type: "object", properties: { limit: { type: "integer" } } },
        }],
      },
    },
  }));
  try {
    const program = "(let [r (tool/call 'obs/list-traces {:limit 2})] [(:ok r) (get-in r [:value :args])])";
    const r = await ptc(["--upstreams-config", config, "--format", "json", "--repeat", "3", program], undefined, [
      fixture,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const o = JSON.parse(r.stdout);
    assert.equal(o.printed, '[true {"limit" 2}]');
    assert.equal(o.runs, 3);
  } finally {
    await Deno.remove(config);
  }
});

Deno.test("eval text: a nil value after println output is not echoed; a bare nil still is", async () => {
  const printed = await ptc(["(doseq [x [1 2]] (println x))"]);
  assert.deepEqual([printed.code, printed.stdout], [0, "1\n2\n"]);
  const doc = await ptc(["(doc 'inc)"]);
  assert.equal(doc.code, 0, doc.stderr);
  assert.doesNotMatch(doc.stdout, /\nnil\n$/);
  const bare = await ptc(["nil"]);
  assert.deepEqual([bare.code, bare.stdout], [0, "nil\n"]);
});

Deno.test("eval: usage errors name the command", async () => {
  const r = await ptc(["--bogus", "1"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^ptc eval: Unknown option '--bogus'/);
});

Deno.test("eval: the sandbox needs run permission for exactly this executable, no more", async () => {
  const run = (flags: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, MAIN, "eval", "(+ 1 2)"],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  const dec = new TextDecoder();
  const without = await run(["--allow-read", "--allow-env"]);
  assert.equal(without.code, 2);
  assert.match(dec.decode(without.stderr), /^ptc eval: missing Deno permissions: --allow-run=\S+deno /);
  const withRun = await run(["--allow-read", "--allow-env", `--allow-run=${Deno.execPath()}`]);
  assert.equal(withRun.code, 0, dec.decode(withRun.stderr));
  assert.equal(dec.decode(withRun.stdout).trim(), "3");
});

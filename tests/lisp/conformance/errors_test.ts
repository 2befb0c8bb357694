/**
 * Error paths at the language level: every hostile program of error_cases.ts ends with its specific reason and a
 * readable message (no `undefined`, no `[object Object]`, no stack frames); the session that ran it keeps working
 * and a failed evaluation rolls back its defs. (The sandbox suite covers "the worker pool serves the next program".)
 */
import assert from "node:assert/strict";
import { createSession } from "../../../src/lisp/mod.ts";
import { ERROR_CASES, SAFE_CASES } from "./error_cases.ts";

/** Problems with a user-facing error message, or [] when it reads well. */
function messageProblems(message: string): string[] {
  const problems: string[] = [];
  if (typeof message !== "string" || message.trim() === "") problems.push("empty message");
  if (/\bundefined\b/.test(message) && !/undefined (variable|symbol)/i.test(message)) problems.push("says 'undefined'");
  if (message.includes("[object ")) problems.push("contains [object …]");
  if (/\n\s+at\s/.test(message) || /file:\/\//.test(message) || /\.ts:\d+:\d+/.test(message)) {
    problems.push("contains a stack trace");
  }
  if (message.length > 4_000) problems.push(`too long (${message.length} chars)`);
  return problems;
}

Deno.test(`error table has at least 60 cases (${ERROR_CASES.length})`, () => {
  assert.ok(ERROR_CASES.length >= 60);
});

for (const c of ERROR_CASES) {
  Deno.test(`error path: ${c.name} -> ${c.reasons.join(" | ")}`, () => {
    const session = createSession();
    const limits = { ...c.limits, ...(c.deadlineMs ? { deadline: Date.now() + c.deadlineMs } : {}) };
    let r;
    try {
      r = session.eval(c.src, { limits });
    } catch (e) {
      assert.fail(`the evaluator threw instead of returning an error result: ${e}`);
    }
    assert.equal(r.ok, false, `expected a failure, got ${r.ok ? r.printed : ""}`);
    if (r.ok) return;
    assert.ok(c.reasons.includes(r.reason), `reason ${r.reason} (${r.message}); expected ${c.reasons.join(" or ")}`);
    assert.deepEqual(messageProblems(r.message), [], `unreadable message: ${JSON.stringify(r.message.slice(0, 300))}`);
    for (const m of c.mentions ?? []) {
      assert.ok(r.message.toLowerCase().includes(m.toLowerCase()), `message should mention '${m}': ${r.message}`);
    }
    if (r.reason === "parse_error") {
      assert.match(r.message, /line \d+/, "parse errors name the line");
    }
    // The session is still usable afterwards.
    const next = session.eval("(let [x [1 2]] x)");
    assert.ok(next.ok && next.printed === "[1 2]", `the session must serve the next program: ${JSON.stringify(next)}`);
  });
}

for (const c of SAFE_CASES) {
  Deno.test(`hostile but harmless: ${c.name}`, () => {
    const r = createSession().eval(c.src);
    assert.ok(r.ok, r.ok ? "" : `${r.reason}: ${r.message}`);
    assert.equal(r.printed, c.printed);
  });
}

Deno.test("a failed evaluation rolls back its defs; earlier defs and history survive", () => {
  const s = createSession();
  const first = s.eval("(def kept 1) kept");
  assert.ok(first.ok);
  const failed = s.eval("(def lost 2) (/ 1 0)");
  assert.equal(failed.ok, false);
  assert.deepEqual(s.definedNames(), ["kept"]);
  const after = s.eval("(or lost :gone)");
  assert.ok(after.ok && after.printed === ":gone", after.ok ? after.printed : after.message);
  const hist = s.eval("*2");
  assert.ok(hist.ok && hist.printed === "1", hist.ok ? hist.printed : hist.message);
});

Deno.test("each evaluation gets a fresh step budget", () => {
  const s = createSession();
  const a = s.eval("(loop [i 0] (recur (inc i)))", { limits: { maxSteps: 10_000 } });
  assert.ok(!a.ok && a.reason === "step_limit_exceeded");
  const b = s.eval("(reduce + (range 1000))", { limits: { maxSteps: 100_000 } });
  assert.ok(b.ok && b.printed === "499500", b.ok ? b.printed : b.message);
});

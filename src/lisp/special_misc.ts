/**
 * Remaining special forms: juxt, pmap, pcalls, return, fail, task, task-reset, step-done, budget/remaining.
 * @module
 */
import { budgetRemaining } from "./tools.ts";
import { type Ana, formError, type Node, nonTail } from "./nodes.ts";
import { analyze, analyzeArgs } from "./analyze.ts";
import { defSpecial, SPECIAL_VALUES } from "./specials.ts";
import { arityFail } from "./special_core.ts";
import { LispError } from "./errors.ts";
import { ReturnSignal, runBranches } from "./pmap.ts";
import { callValue, LispFn, prStr, seqView, type Value, vecFrom } from "./vals.ts";

/** The function built by `(juxt f g …)`. */
class JuxtFn extends LispFn {
  readonly name = "juxt";
  constructor(readonly fns: Value[]) {
    super();
  }
  call(args: Value[]): Value {
    return vecFrom(this.fns.map((f) => callValue(f, args)));
  }
  printed(): string {
    return "#fn[juxt]";
  }
}

defSpecial("juxt", ["(juxt f g ...)"], "A function returning the vector [(f args) (g args) ...].", (items, form, a) => {
  if (items.length < 2) arityFail(a, form, "juxt requires at least one function");
  const fns = analyzeArgs(items.slice(1), a);
  return (f) => new JuxtFn(fns.map((x) => x(f)));
});

defSpecial(
  "pmap",
  ["(pmap f coll)", "(pmap f c1 c2 ...)"],
  "Parallel map: like map, but tool calls made by the branches run concurrently. Results keep input order.",
  (items, form, a) => {
    if (items.length < 3) arityFail(a, form, "pmap requires a function and at least one collection");
    const [fnNode, ...colls] = analyzeArgs(items.slice(1), a);
    const R = a.p.run;
    return (f) => {
      const fv = fnNode(f);
      const seqs = colls.map((c) => seqView(c(f), "pmap", 2));
      const n = Math.min(...seqs.map((s) => s.length));
      const thunks: (() => Value)[] = [];
      for (let i = 0; i < n; i++) {
        const args = seqs.map((s) => s[i]);
        thunks.push(() => callValue(fv, args));
      }
      return vecFrom(runBranches(R, thunks, "pmap"));
    };
  },
);

/** `pmap`/`pcalls`/`juxt` used as values (`(map pmap …)`, `(apply juxt fs)`): the same work as the special form. */
class SpecialFn extends LispFn {
  constructor(readonly name: string, readonly impl: (args: Value[]) => Value) {
    super();
  }
  call(args: Value[]): Value {
    return this.impl(args);
  }
  printed(): string {
    return "#<builtin>";
  }
}

function needArgs(name: string, args: Value[], n: number, usage: string): void {
  if (args.length < n) {
    throw new LispError("arity_error", `${name} expects at least ${n} arguments, got ${args.length}. Usage: ${usage}`);
  }
}

SPECIAL_VALUES.set("pmap", (R) =>
  new SpecialFn("pmap", (args) => {
    needArgs("pmap", args, 2, "(pmap f coll)");
    const seqs = args.slice(1).map((c, i) => seqView(c, "pmap", i + 2));
    const n = Math.min(...seqs.map((s) => s.length));
    const thunks: (() => Value)[] = [];
    for (let i = 0; i < n; i++) {
      const xs = seqs.map((s) => s[i]);
      thunks.push(() => callValue(args[0], xs));
    }
    return vecFrom(runBranches(R, thunks, "pmap"));
  }));
SPECIAL_VALUES.set(
  "pcalls",
  (R) => new SpecialFn("pcalls", (args) => vecFrom(runBranches(R, args.map((v) => () => callValue(v, [])), "pcalls"))),
);
SPECIAL_VALUES.set("juxt", () =>
  new SpecialFn("juxt", (args) => {
    needArgs("juxt", args, 1, "(juxt f g ...)");
    return new JuxtFn(args);
  }));

defSpecial(
  "pcalls",
  ["(pcalls thunk ...)"],
  "Calls zero-argument functions in parallel; returns their results in order.",
  (
    items,
    _form,
    a,
  ) => {
    const fns = analyzeArgs(items.slice(1), a);
    const R = a.p.run;
    return (f) => {
      const vs = fns.map((x) => x(f));
      return vecFrom(runBranches(R, vs.map((v) => () => callValue(v, [])), "pcalls"));
    };
  },
);

function signal(name: "return" | "fail") {
  const doc = name === "return"
    ? "Ends the whole program successfully with the value."
    : "Ends the whole program with a failure value (defs made so far are kept).";
  defSpecial(name, [`(${name} value)`], doc, (items, form, a) => {
    if (items.length !== 2) arityFail(a, form, `${name} expects exactly one value`);
    const v = analyze(items[1], nonTail(a));
    const status = name === "return" ? "returned" : "failed";
    return (f) => {
      const x = v(f);
      throw new ReturnSignal(x, status);
    };
  });
}
signal("return");
signal("fail");

function idOf(v: Value): string {
  return typeof v === "string" ? v : prStr(v);
}

defSpecial("task", ["(task id expr)"], "Journal-cached evaluation: reuses the journaled value for id when present.", (
  items,
  form,
  a,
) => {
  if (items.length !== 3) arityFail(a, form, "task expects an id and an expression");
  const id = analyze(items[1], nonTail(a));
  const body = analyze(items[2], nonTail(a));
  const R = a.p.run;
  return (f) => {
    const key = idOf(id(f));
    const j = R.journal;
    if (j === null) return body(f);
    if (j.has(key)) return j.get(key) as Value;
    const v = body(f);
    j.set(key, v);
    return v;
  };
});

defSpecial("task-reset", ["(task-reset id)"], "Removes id from the task journal; returns nil.", (items, form, a) => {
  if (items.length !== 2) arityFail(a, form, "task-reset expects an id");
  const id = analyze(items[1], nonTail(a));
  const R = a.p.run;
  return (f) => {
    const key = idOf(id(f));
    R.journal?.delete(key);
    return null;
  };
});

defSpecial("step-done", ["(step-done id summary)"], "Records a progress summary; returns the summary.", (
  items,
  form,
  a,
) => {
  if (items.length !== 3) arityFail(a, form, "step-done expects an id and a summary");
  const [id, summary] = analyzeArgs(items.slice(1), a);
  const R = a.p.run;
  return (f) => {
    const i = id(f);
    const s = summary(f);
    if (typeof i !== "string" || typeof s !== "string") {
      throw new LispError("type_error", "step-done: the id and the summary must both be strings");
    }
    if (R.branch === null) R.summaries.push([i, s]);
    return s;
  };
});

defSpecial(
  "budget/remaining",
  ["(budget/remaining)"],
  "What is LEFT of this run's budgets (not what was used), costing no tool call: :tool_calls — tool calls left " +
    "(each page of tool/pages is one); :write_calls — write calls left (present only when a write tool is " +
    "installed); :discovery_ops — discovery operations left (doc/dir/meta/apropos/tool/servers on upstreams); " +
    ":time_ms — milliseconds left before the program's deadline. Two per-call limits that never shrink: " +
    ":call_timeout_ms — each tool call's timeout; :max_response_bytes — the largest answer a call may return (a " +
    "larger one is {:ok false :reason :response_too_large}). {} without a host or deadline.",
  (items, form, a: Ana): Node => {
    if (items.length !== 1) throw formError(a, "invalid_arity", "(budget/remaining) takes no arguments", form);
    const R = a.p.run;
    return () => budgetRemaining(R);
  },
);

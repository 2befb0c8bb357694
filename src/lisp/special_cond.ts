/**
 * Conditional macros compiled straight to nodes: when, when-not, if-not, if-let, when-let, if-some, when-some,
 * when-first, cond, case, condp, and, or.
 * @module
 */
import { type Form, formText, isSym } from "./forms.ts";
import { type Ana, conditional, constNode, constOf, formError, type Node, nonTail } from "./nodes.ts";
import { analyze, analyzeBody } from "./analyze.ts";
import { analyzeSymbol } from "./symbols.ts";
import { defSpecial } from "./specials.ts";
import { arityFail, bindingVector } from "./special_core.ts";
import { compilePattern } from "./destructure.ts";
import { callValue, equals, Keyword, prStr, seqView, type Value } from "./vals.ts";
import { LispError } from "./errors.ts";

function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

function whenLike(name: string, negate: boolean) {
  defSpecial(
    name,
    [`(${name} test exprs*)`],
    negate ? "Evaluates the body when test is falsy." : "Evaluates the body when test is truthy.",
    (
      items,
      form,
      a,
    ) => {
      if (items.length < 2) arityFail(a, form, `${name} requires a test`);
      const test = analyze(items[1], nonTail(a));
      const body = analyzeBody(items.slice(2), conditional(a));
      return negate ? (f) => (truthy(test(f)) ? null : body(f)) : (f) => (truthy(test(f)) ? body(f) : null);
    },
  );
}
whenLike("when", false);
whenLike("when-not", true);

defSpecial("if-not", ["(if-not test then else?)"], "Evaluates then when test is falsy, else `else`.", (
  items,
  form,
  a,
) => {
  if (items.length < 3 || items.length > 4) {
    arityFail(a, form, `if-not expects 2 or 3 arguments, got ${items.length - 1}`);
  }
  const test = analyze(items[1], nonTail(a));
  const b = conditional(a);
  const th = analyze(items[2], b);
  const el = items.length === 4 ? analyze(items[3], b) : constNode(null);
  return (f) => (truthy(test(f)) ? el(f) : th(f));
});

function ifLetLike(name: string, someTest: boolean, isWhen: boolean) {
  const arg = isWhen ? `(${name} [binding expr] exprs*)` : `(${name} [binding expr] then else?)`;
  const what = someTest ? "not nil" : "truthy";
  defSpecial(name, [arg], `Binds the value of expr and evaluates the body when it is ${what}.`, (items, form, a) => {
    const pairs = bindingVector(a, items[1], name, form);
    if (pairs.length !== 2) {
      throw formError(
        a,
        "invalid_form",
        `${name} takes exactly one binding pair, e.g. (${name} [x expr] ...)`,
        items[1],
      );
    }
    if (!isWhen && (items.length < 3 || items.length > 4)) {
      arityFail(a, form, `${name} expects a binding vector, a then branch and an optional else branch`);
    }
    const init = analyze(pairs[1], nonTail(a));
    const scope = a.scope.child();
    const bind = compilePattern(pairs[0], { ...a, scope }, scope, name);
    const b: Ana = { ...conditional(a), scope };
    const th = isWhen ? analyzeBody(items.slice(2), b) : analyze(items[2], b);
    const el = !isWhen && items.length === 4 ? analyze(items[3], conditional(a)) : constNode(null);
    return (f) => {
      const v = init(f);
      if (someTest ? v === null : !truthy(v)) return el(f);
      bind(f, v);
      return th(f);
    };
  });
}
ifLetLike("if-let", false, false);
ifLetLike("when-let", false, true);
ifLetLike("if-some", true, false);
ifLetLike("when-some", true, true);

defSpecial("when-first", ["(when-first [x coll] exprs*)"], "Binds x to the first item of coll when it is non-empty.", (
  items,
  form,
  a,
) => {
  const pairs = bindingVector(a, items[1], "when-first", form);
  if (pairs.length !== 2) throw formError(a, "invalid_form", "when-first takes exactly one binding pair", items[1]);
  const init = analyze(pairs[1], nonTail(a));
  const scope = a.scope.child();
  const bind = compilePattern(pairs[0], { ...a, scope }, scope, "when-first");
  const body = analyzeBody(items.slice(2), { ...conditional(a), scope });
  return (f) => {
    const xs = seqView(init(f), "when-first", 1);
    if (xs.length === 0) return null;
    bind(f, xs[0]);
    return body(f);
  };
});

defSpecial("cond", ["(cond test expr ... :else expr)"], "Returns the expr of the first truthy test (nil if none).", (
  items,
  form,
  a,
) => {
  const clauses = items.slice(1);
  if (clauses.length % 2 !== 0) {
    throw formError(a, "invalid_cond_form", "cond needs an even number of forms (test expr pairs)", form);
  }
  const tests: Node[] = [];
  const exprs: Node[] = [];
  const b = conditional(a);
  for (let i = 0; i < clauses.length; i += 2) {
    tests.push(analyze(clauses[i], nonTail(b)));
    exprs.push(analyze(clauses[i + 1], b));
  }
  const n = tests.length;
  return (f) => {
    for (let i = 0; i < n; i++) if (truthy(tests[i](f))) return exprs[i](f);
    return null;
  };
});

function caseTest(a: Ana, t: Form): Value[] {
  if (t.type === "list") return t.items.flatMap((x) => caseTest(a, x));
  if (
    t.type !== "nil" && t.type !== "bool" && t.type !== "int" && t.type !== "float" && t.type !== "string" &&
    t.type !== "keyword"
  ) {
    throw formError(
      a,
      "invalid_form",
      `case test ${formText(t)} must be a literal (keyword, string, number, boolean or nil) or a (group ...) of them`,
      t,
    );
  }
  return [constOf(analyze(t, nonTail(a)))!.v];
}

/** `case`/`condp` without a matching clause or a default raise, as in Clojure (IllegalArgumentException). */
function noMatch(what: string, v: Value): never {
  const text = prStr(v);
  throw new LispError(
    "runtime_error",
    `${what}: no clause matches ${text.length > 60 ? text.slice(0, 57) + "..." : text}; add a default expression ` +
      "as the last argument",
  );
}

defSpecial(
  "case",
  ["(case expr test result ... default?)"],
  "Compares expr to literal tests with =; returns the matching result.",
  (
    items,
    form,
    a,
  ) => {
    if (items.length < 2) arityFail(a, form, "case requires an expression");
    const e = analyze(items[1], nonTail(a));
    const clauses = items.slice(2);
    const b = conditional(a);
    const tests: Value[][] = [];
    const exprs: Node[] = [];
    for (let i = 0; i + 1 < clauses.length; i += 2) {
      tests.push(caseTest(a, clauses[i]));
      exprs.push(analyze(clauses[i + 1], b));
    }
    const dflt = clauses.length % 2 === 1 ? analyze(clauses[clauses.length - 1], b) : null;
    const kwIndex = new Map<Value, number>();
    let allIdentity = true;
    tests.forEach((ts, i) => {
      for (const t of ts) {
        if (t instanceof Keyword || typeof t === "string" || typeof t === "boolean" || t === null) {
          if (!kwIndex.has(t)) kwIndex.set(t, i);
        } else allIdentity = false;
      }
    });
    if (allIdentity) {
      return (f) => {
        const v = e(f);
        const i = kwIndex.get(v);
        return i !== undefined ? exprs[i](f) : dflt !== null ? dflt(f) : noMatch("case", v);
      };
    }
    return (f) => {
      const v = e(f);
      for (let i = 0; i < tests.length; i++) {
        for (const t of tests[i]) if (equals(t, v)) return exprs[i](f);
      }
      return dflt !== null ? dflt(f) : noMatch("case", v);
    };
  },
);

defSpecial(
  "condp",
  ["(condp pred expr test result ... default?)"],
  "Returns the result of the first test for which (pred test expr) is truthy.",
  (
    items,
    form,
    a,
  ) => {
    if (items.length < 3) arityFail(a, form, "condp requires a predicate and an expression");
    const pred = analyze(items[1], nonTail(a));
    const e = analyze(items[2], nonTail(a));
    const clauses = items.slice(3);
    const b = conditional(a);
    const tests: Node[] = [];
    const exprs: Node[] = [];
    for (let i = 0; i + 1 < clauses.length; i += 2) {
      if (clauses[i + 1].type === "keyword" && (clauses[i + 1] as { name: string }).name === ">>") {
        throw formError(a, "invalid_form", "condp :>> is not supported", clauses[i + 1]);
      }
      tests.push(analyze(clauses[i], nonTail(b)));
      exprs.push(analyze(clauses[i + 1], b));
    }
    const dflt = clauses.length % 2 === 1 ? analyze(clauses[clauses.length - 1], b) : null;
    return (f) => {
      const p = pred(f);
      const v = e(f);
      for (let i = 0; i < tests.length; i++) if (truthy(callValue(p, [tests[i](f), v]))) return exprs[i](f);
      return dflt !== null ? dflt(f) : noMatch("condp", v);
    };
  },
);

defSpecial("and", ["(and exprs*)"], "Returns the first falsy value, or the last value (true when empty).", (
  items,
  _form,
  a,
) => {
  const xs = items.slice(1);
  if (xs.length === 0) return constNode(true);
  const nodes = xs.map((x, i) =>
    analyze(x, i === xs.length - 1 ? conditional(a) : i === 0 ? nonTail(a) : nonTail(conditional(a)))
  );
  const n = nodes.length;
  return (f) => {
    let v: Value = true;
    for (let i = 0; i < n; i++) {
      v = nodes[i](f);
      if (!truthy(v)) return v;
    }
    return v;
  };
});

defSpecial(
  "or",
  ["(or exprs*)"],
  "Returns the first truthy value, or the last value (nil when empty). Undefined names read as nil.",
  (
    items,
    _form,
    a,
  ) => {
    const xs = items.slice(1);
    if (xs.length === 0) return constNode(null);
    const nodes = xs.map((x, i) => {
      const b = i === xs.length - 1 ? conditional(a) : i === 0 ? nonTail(a) : nonTail(conditional(a));
      return isSym(x) ? analyzeSymbol(x, b, true) : analyze(x, b);
    });
    const n = nodes.length;
    return (f) => {
      let v: Value = null;
      for (let i = 0; i < n; i++) {
        v = nodes[i](f);
        if (truthy(v)) return v;
      }
      return v;
    };
  },
);

/**
 * List comprehension `for` and its side-effecting twin `doseq`: nested JS loops over the seq view of each
 * collection, with `:when`, `:let` and `:while` modifiers. No iteration cap beyond the step budget.
 * @module
 */
import { type Form, formText } from "./forms.ts";
import { type Ana, formError, type Frame, type Node } from "./nodes.ts";
import { analyze, analyzeBody } from "./analyze.ts";
import { defSpecial } from "./specials.ts";
import { bindingVector, compileBindings } from "./special_core.ts";
import { type Binder, compilePattern } from "./destructure.ts";
import { seqView, type Value, vecFrom } from "./vals.ts";

type Mod =
  | { kind: "when"; test: Node }
  | { kind: "while"; test: Node }
  | { kind: "let"; bind: (f: Frame) => void };

interface Level {
  coll: Node;
  bind: Binder;
  mods: Mod[];
}

function compileLevels(name: string, pairs: Form[], a: Ana, form: Form): { levels: Level[]; scope: Ana["scope"] } {
  const scope = a.scope.child();
  const inner: Ana = { ...a, scope, tail: false, recur: null, cond: true };
  const levels: Level[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const k = pairs[i];
    const v = pairs[i + 1];
    if (k.type === "keyword") {
      const lvl = levels[levels.length - 1];
      if (lvl === undefined) {
        throw formError(a, "invalid_form", `${name}: the binding vector must start with a binding, not :${k.name}`, k);
      }
      if (k.name === "when") lvl.mods.push({ kind: "when", test: analyze(v, inner) });
      else if (k.name === "while") lvl.mods.push({ kind: "while", test: analyze(v, inner) });
      else if (k.name === "let") {
        if (v.type !== "vector") throw formError(a, "invalid_form", `${name}: :let must be followed by a vector`, v);
        const lp = bindingVector(a, v, ":let", form);
        lvl.mods.push({ kind: "let", bind: compileBindings(lp, inner, scope, `${name} :let`) });
      } else {
        throw formError(a, "invalid_form", `${name}: unknown modifier :${k.name} (use :when, :let or :while)`, k);
      }
      continue;
    }
    if (v.type === "int" || v.type === "float" || v.type === "keyword" || v.type === "bool") {
      throw formError(a, "invalid_form", `${name}: ${formText(v)} is not a collection`, v);
    }
    const coll = analyze(v, inner);
    const bind = compilePattern(k, inner, scope, name);
    levels.push({ coll, bind, mods: [] });
  }
  if (levels.length === 0) throw formError(a, "invalid_form", `${name} requires at least one binding`, form);
  return { levels, scope };
}

function truthy(v: Value): boolean {
  return v !== null && v !== false;
}

function comprehension(name: string, collect: boolean) {
  const doc = collect
    ? "List comprehension: a vector of body values for every combination of bindings (:when :let :while)."
    : "Evaluates the body for every combination of bindings for its side effects; returns nil.";
  defSpecial(name, [`(${name} [binding coll modifiers*] body)`], doc, (items, form, a) => {
    const pairs = bindingVector(a, items[1], name, form);
    if (items.length < 3) throw formError(a, "invalid_arity", `${name} requires a body`, form);
    const { levels, scope } = compileLevels(name, pairs, a, form);
    const body = analyzeBody(items.slice(2), { ...a, scope, tail: false, recur: null, cond: true });
    const depth = levels.length;
    const R = a.p.run;
    const run = (f: Frame, li: number, out: Value[] | null): void => {
      const L = levels[li];
      const xs = seqView(L.coll(f), name, 1);
      const n = xs.length;
      const mods = L.mods;
      outer: for (let i = 0; i < n; i++) {
        if (++R.steps >= R.nextCheck) R.slowCheck();
        L.bind(f, xs[i]);
        for (let m = 0; m < mods.length; m++) {
          const mod = mods[m];
          if (mod.kind === "let") mod.bind(f);
          else if (mod.kind === "when") {
            if (!truthy(mod.test(f))) continue outer;
          } else if (!truthy(mod.test(f))) return;
        }
        if (li + 1 < depth) run(f, li + 1, out);
        else if (out !== null) {
          R.alloc(8);
          out.push(body(f));
        } else body(f);
      }
    };
    if (collect) {
      return (f) => {
        const out: Value[] = [];
        run(f, 0, out);
        return vecFrom(out);
      };
    }
    return (f) => {
      run(f, 0, null);
      return null;
    };
  });
}
comprehension("for", true);
comprehension("doseq", false);

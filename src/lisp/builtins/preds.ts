/**
 * Builtins: predicates and type inspection (nil?, number?, zero?, type, describe, …). Numeric predicates answer
 * false (not an error) for non-numbers.
 * @module
 */

import { Keyword, kw, LFloat, LispFn, LRegex, SymbolRef, type Value } from "../values/types.ts";
import { PVec } from "../values/vector.ts";
import { MapBuilder, PMap, PSet } from "../values/hashmap.ts";
import { isNumber } from "../values/equality.ts";
import { isInt, type Num, toNumber } from "../values/numbers.ts";
import { isCallable } from "../values/fn.ts";
import { typeName } from "../values/kinds.ts";
import { gCount } from "../values/strings.ts";
import { sortedKeys } from "../values/compare.ts";
import { vecFrom } from "../values/vector.ts";
import { type BuiltinSpec, define } from "./table.ts";
import { argError } from "./util.ts";

function pred(doc: string, f: (x: Value) => boolean): BuiltinSpec {
  return { arity: [1, 1], args: ["[x]"], doc, fn: (a) => f(a[0]) };
}

/** A numeric predicate: numbers only, as in Clojure (`(pos? nil)` raises instead of answering false). */
function numPred(name: string, doc: string, f: (x: number, v: Num) => boolean, integers = false): BuiltinSpec {
  return {
    arity: [1, 1],
    args: ["[x]"],
    doc,
    fn: (a) => {
      const x = a[0];
      if (!isNumber(x) || (integers && !isInt(x))) {
        return argError(
          name,
          1,
          integers ? "an integer" : "a number",
          x,
          "; test the kind first, e.g. (and (number? x) …)",
        );
      }
      return f(toNumber(x), x);
    },
  };
}

const isFloatVal = (x: Value) => (typeof x === "number" && !Number.isInteger(x)) || x instanceof LFloat;
/** Clojure's int?: a fixed-precision (64-bit) integer; larger exact integers are BigInts there. */
const isLong = (x: Value) =>
  isInt(x) && (typeof x !== "bigint" || (x >= -9223372036854775808n && x <= 9223372036854775807n));
const isChar = (x: Value) => typeof x === "string" && x.length > 0 && gCount(x) === 1;
const isColl = (x: Value) => x instanceof PVec || x instanceof PMap || x instanceof PSet;

/** Bounded shape summary used by `describe`. */
function shape(v: Value, depth: number, sample: number): Value {
  const b = new MapBuilder();
  const t = typeName(v);
  b.set(kw("type"), t === null ? kw("nil") : kw(t));
  if (v instanceof PVec) {
    b.set(kw("count"), v.n);
    const types = new Set<string>();
    for (let i = 0; i < v.n; i++) types.add(typeName(v.at(i)) ?? "nil");
    b.set(kw("item_types"), vecFrom([...types].sort().map((x) => kw(x))));
    if (depth > 0 && v.n > 0) {
      b.set(
        kw("sample"),
        vecFrom(v.slice(0, sample).view().map((x) => shape(x, depth - 1, sample))),
      );
    }
  } else if (v instanceof PMap) {
    b.set(kw("count"), v.size);
    b.set(kw("keys"), vecFrom(sortedKeys(v)));
  } else if (v instanceof PSet) {
    b.set(kw("count"), v.size);
  } else if (typeof v === "string") {
    b.set(kw("count"), gCount(v));
  }
  return b.build();
}

define("predicates", {
  "nil?": pred("True for nil.", (x) => x === null),
  "some?": pred("True for anything but nil.", (x) => x !== null),
  "number?": pred("True for numbers (including ##Inf, ##NaN).", isNumber),
  "string?": pred("True for strings.", (x) => typeof x === "string"),
  "map?": pred("True for maps.", (x) => x instanceof PMap),
  "vector?": pred("True for vectors.", (x) => x instanceof PVec),
  "keyword?": pred("True for keywords.", (x) => x instanceof Keyword),
  "set?": pred("True for sets.", (x) => x instanceof PSet),
  "coll?": pred("True for vectors, maps and sets.", isColl),
  "fn?": pred("True for functions.", (x) => x instanceof LispFn),
  "boolean?": pred("True for true and false.", (x) => typeof x === "boolean"),
  "int?": pred("True for integers in the 64-bit range (Clojure's fixed-precision integers).", isLong),
  "integer?": pred("True for integers.", isInt),
  "float?": pred("True for floats (##NaN and ##Inf included).", isFloatVal),
  "double?": pred("True for floats (##NaN and ##Inf included).", isFloatVal),
  "char?": pred("True for a one-character string.", isChar),
  "true?": pred("True only for true.", (x) => x === true),
  "false?": pred("True only for false.", (x) => x === false),
  "zero?": numPred("zero?", "True for numbers equal to 0.", (x) => x === 0),
  "pos?": numPred("pos?", "True for numbers above 0.", (x, v) => (typeof v === "bigint" ? v > 0n : x > 0)),
  "neg?": numPred("neg?", "True for numbers below 0.", (x, v) => (typeof v === "bigint" ? v < 0n : x < 0)),
  "even?": numPred(
    "even?",
    "True for even integers (other values raise).",
    (x, v) => (typeof v === "bigint" ? v % 2n === 0n : x % 2 === 0),
    true,
  ),
  "odd?": numPred(
    "odd?",
    "True for odd integers (other values raise).",
    (x, v) => (typeof v === "bigint" ? v % 2n !== 0n : x % 2 !== 0),
    true,
  ),
  "sequential?": pred("True for vectors.", (x) => x instanceof PVec),
  "seqable?": pred(
    "True for nil, strings and collections.",
    (x) => x === null || typeof x === "string" || isColl(x),
  ),
  "associative?": pred("True for maps and vectors.", (x) => x instanceof PMap || x instanceof PVec),
  "counted?": pred("True for collections (not strings: counting them walks the text).", isColl),
  "indexed?": pred("True for vectors.", (x) => x instanceof PVec),
  "reversible?": pred("True for vectors.", (x) => x instanceof PVec),
  "ifn?": pred("True for callable values (functions, keywords, maps, sets).", isCallable),
  "sorted?": pred("Always false (no sorted collections).", () => false),
  "symbol?": pred("True for quoted symbols ('x).", (x) => x instanceof SymbolRef),
  "decimal?": pred("Always false.", () => false),
  "ratio?": pred("Always false.", () => false),
  "map-entry?": pred("Always false (entries are plain vectors).", () => false),
  "rational?": pred("True for integers.", isInt),
  "nat-int?": pred("True for integers ≥ 0.", (x) => isInt(x) && (typeof x === "bigint" ? x >= 0n : x >= 0)),
  "pos-int?": pred("True for integers > 0.", (x) => isInt(x) && (typeof x === "bigint" ? x > 0n : x > 0)),
  "neg-int?": pred("True for integers < 0.", (x) => isInt(x) && (typeof x === "bigint" ? x < 0n : x < 0)),
  "infinite?": numPred("infinite?", "True for ##Inf and ##-Inf.", (x) => x === Infinity || x === -Infinity),
  "NaN?": numPred("NaN?", "True for ##NaN.", (x) => x !== x),
  "regex?": pred("True for regexes.", (x) => x instanceof LRegex),
  "type": {
    arity: [1, 1],
    args: ["[x]"],
    doc: "Type keyword: :number :string :keyword :boolean :vector :map :set :function :regex (nil for nil).",
    fn: (a) => {
      const t = typeName(a[0]);
      return t === null ? null : kw(t);
    },
  },
  "describe": {
    arity: [1, 2],
    args: ["[x]", "[x opts]"],
    doc: "A bounded shape summary map (:type :count :item_types :keys …); opts {:depth n :sample n}.",
    fn: (a) => {
      let depth = 1;
      let sample = 3;
      if (a.length === 2) {
        const o = a[1];
        if (!(o instanceof PMap)) return argError("describe", 2, "an options map", o);
        const d = o.get(kw("depth"));
        const s = o.get(kw("sample"));
        if (typeof d === "number") depth = Math.max(0, Math.min(5, d));
        if (typeof s === "number") sample = Math.max(0, Math.min(20, s));
      }
      return shape(a[0], depth, sample);
    },
  },
});

/**
 * Library function signatures: `(org :string, since :string?) -> [{id :string, cost_usd :float}]`. Types are
 * `:string :int :float :bool :map :any :keyword`, `?` after a type allows nil, `[T]` is a vector of T and
 * `{name T, …}` a map with those fields (hyphen and underscore spellings of a field name are interchangeable; other
 * fields are allowed). Parsing happens once when a library loads; checking runs on every call of a declared export.
 * @module
 */
import { LispError } from "./errors.ts";
import { isInt } from "./values/numbers.ts";
import { Keyword, kw, LFloat, type Value } from "./values/types.ts";
import { PMap } from "./values/hashmap.ts";
import { PVec } from "./values/vector.ts";
import { describe } from "./values/kinds.ts";
import { flexGet } from "./values/flex.ts";

/** A parsed type. */
export type SigType =
  | { kind: "scalar"; name: "string" | "int" | "float" | "bool" | "map" | "any" | "keyword"; optional: boolean }
  | { kind: "vec"; of: SigType; optional: boolean }
  | { kind: "map"; fields: [string, SigType][]; optional: boolean };

/** A parsed signature. */
export interface Signature {
  text: string;
  params: { name: string; type: SigType }[];
  returns: SigType | null;
}

const SCALARS = new Set(["string", "int", "float", "bool", "map", "any", "keyword"]);

/** Raised for signature text that does not parse (the loader adds file and position). */
export class SignatureSyntaxError extends Error {}

class Parser {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (this.i < this.s.length && /[\s,]/.test(this.s[this.i])) this.i++;
  }
  peek(): string {
    this.ws();
    return this.s[this.i] ?? "";
  }
  expect(t: string) {
    this.ws();
    if (!this.s.startsWith(t, this.i)) this.fail(`expected "${t}"`);
    this.i += t.length;
  }
  fail(what: string): never {
    throw new SignatureSyntaxError(`${what} at character ${this.i + 1} of signature "${this.s}"`);
  }
  ident(): string {
    this.ws();
    const m = /^[A-Za-z_][\w\-?!*]*/.exec(this.s.slice(this.i));
    if (!m) this.fail("expected a name");
    this.i += m[0].length;
    return m[0];
  }
  optional(): boolean {
    if (this.s[this.i] === "?") {
      this.i++;
      return true;
    }
    return false;
  }
  type(): SigType {
    const c = this.peek();
    if (c === ":") {
      this.i++;
      const m = /^[a-z]+/.exec(this.s.slice(this.i));
      if (!m || !SCALARS.has(m[0])) {
        this.fail(`unknown type :${m?.[0] ?? ""} (known: ${[...SCALARS].map((x) => ":" + x).join(" ")})`);
      }
      this.i += m[0].length;
      return { kind: "scalar", name: m[0] as "string", optional: this.optional() };
    }
    if (c === "[") {
      this.i++;
      const of = this.type();
      this.expect("]");
      return { kind: "vec", of, optional: this.optional() };
    }
    if (c === "{") {
      this.i++;
      const fields: [string, SigType][] = [];
      while (this.peek() !== "}") {
        if (this.peek() === "") this.fail('expected "}"');
        const name = this.ident();
        fields.push([name, this.type()]);
      }
      this.i++;
      return { kind: "map", fields, optional: this.optional() };
    }
    this.fail("expected a type (:string, [..] or {..})");
  }
}

/** Parse signature text; throws SignatureSyntaxError. */
export function parseSignature(text: string): Signature {
  const p = new Parser(text);
  const params: Signature["params"] = [];
  p.expect("(");
  while (p.peek() !== ")") {
    if (p.peek() === "") p.fail('expected ")"');
    const name = p.ident();
    params.push({ name, type: p.type() });
  }
  p.i++;
  let returns: SigType | null = null;
  if (p.peek() === "-") {
    p.expect("->");
    returns = p.type();
  }
  if (p.peek() !== "") p.fail("unexpected text");
  return { text, params, returns };
}

function typeText(t: SigType): string {
  const q = t.optional ? "?" : "";
  if (t.kind === "scalar") return `:${t.name}${q}`;
  if (t.kind === "vec") return `[${typeText(t.of)}]${q}`;
  return `{${t.fields.map(([n, x]) => `${n} ${typeText(x)}`).join(", ")}}${q}`;
}

/** Where `v` breaks `t`: a path and what was expected, or null when it fits. Bounded by the value's size. */
function mismatch(v: Value, t: SigType, path: string): string | null {
  if (v === null) return t.optional || (t.kind === "scalar" && t.name === "any") ? null : `${path || "value"} is nil`;
  const bad = () => `${path || "value"} must be ${typeText(t)}, got ${describe(v)}`;
  if (t.kind === "scalar") {
    switch (t.name) {
      case "any":
        return null;
      case "string":
        return typeof v === "string" ? null : bad();
      case "int":
        return isInt(v) ? null : bad();
      case "float":
        return typeof v === "number" || typeof v === "bigint" || v instanceof LFloat ? null : bad();
      case "bool":
        return typeof v === "boolean" ? null : bad();
      case "keyword":
        return v instanceof Keyword ? null : bad();
      case "map":
        return v instanceof PMap ? null : bad();
    }
  }
  if (t.kind === "vec") {
    if (!(v instanceof PVec)) return bad();
    const items = v.view();
    for (let i = 0; i < items.length; i++) {
      const m = mismatch(items[i], t.of, `${path}[${i}]`);
      if (m !== null) return m;
    }
    return null;
  }
  if (!(v instanceof PMap)) return bad();
  for (const [name, ft] of t.fields) {
    const alt = name.includes("-") ? name.replaceAll("-", "_") : name.replaceAll("_", "-");
    let x = flexGet(v, kw(name), undefined as unknown as Value);
    if (x === undefined) x = flexGet(v, kw(alt), undefined as unknown as Value);
    if (x === undefined) x = flexGet(v, name, undefined as unknown as Value);
    if (x === undefined) x = flexGet(v, alt, undefined as unknown as Value);
    if (x === undefined) {
      if (ft.optional) continue;
      return `${path || "value"} lacks field ${name}`;
    }
    const m = mismatch(x, ft, `${path}.${name}`);
    if (m !== null) return m;
  }
  return null;
}

/** Check the arguments of a call of `fnName` against its signature (programmer fault on a mismatch). */
export function checkArgs(fnName: string, sig: Signature, args: Value[]): void {
  for (let i = 0; i < sig.params.length && i < args.length; i++) {
    const p = sig.params[i];
    const m = mismatch(args[i], p.type, "");
    if (m !== null) {
      throw new LispError(
        "type_error",
        `${fnName}: argument ${i + 1} (${p.name})${m.startsWith("value ") ? m.slice(5) : `: ${m}`}; ` +
          `signature ${sig.text}`,
      );
    }
  }
}

/** Check the return value of `fnName` against its signature. */
export function checkReturn(fnName: string, sig: Signature, v: Value): void {
  if (sig.returns === null) return;
  const m = mismatch(v, sig.returns, "");
  if (m !== null) {
    throw new LispError(
      "type_error",
      `${fnName} returned a value that breaks its signature: ${m.replace(/^value /, "the value ")}; ` +
        `signature ${sig.text}`,
    );
  }
}

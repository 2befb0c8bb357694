/**
 * `quote` / `'x`: a quoted symbol is a symbol reference (`'server/tool`); a quoted collection is data, read once at
 * analysis time. PTC-Lisp has no list type, so `'(1 2)` is the vector `[1 2]` (a list and a vector with the same items
 * are equal in Clojure too); symbols inside quoted data are symbol references.
 * @module
 */
import { type Form, formText } from "./forms.ts";
import { type Ana, constNode, formError } from "./nodes.ts";
import { defSpecial } from "./specials.ts";
import { arityFail } from "./special_core.ts";
import { kw, makeRegex, mapFromKvs, mkFloat, setFromItems, SymbolRef, type Value, vecFrom } from "./vals.ts";

function noDuplicates(a: Ana, items: Form[], stride: number, what: string): void {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i += stride) {
    const k = formText(items[i], 100_000);
    if (seen.has(k)) {
      throw formError(a, "duplicate_key", `Duplicate ${what} ${formText(items[i])} in literal`, items[i]);
    }
    seen.add(k);
  }
}

/** The value a quoted form denotes. */
function quoted(f: Form, a: Ana): Value {
  switch (f.type) {
    case "nil":
      return null;
    case "bool":
    case "int":
    case "string":
      return f.value;
    case "float":
      return mkFloat(f.value);
    case "keyword":
      return kw(f.name);
    case "symbol":
      return new SymbolRef(f.ns, f.name);
    case "regex":
      try {
        return makeRegex(f.source);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        throw formError(a, "invalid_form", `Invalid regex literal #"${f.source}": ${msg}`, f);
      }
    case "list":
    case "vector":
      return vecFrom(f.items.map((x) => quoted(x, a)));
    case "map":
      noDuplicates(a, f.items, 2, "key");
      return mapFromKvs(f.items.map((x) => quoted(x, a)));
    case "set":
      noDuplicates(a, f.items, 1, "set member");
      return setFromItems(f.items.map((x) => quoted(x, a)));
    case "fnlit":
      throw formError(a, "invalid_form", "A quoted #(…) is not data; write the function without the quote", f);
  }
}

defSpecial(
  "quote",
  ["(quote sym)", "'sym", "'(items*)"],
  "A quoted symbol reference such as 'server/tool; a quoted collection is data ('(1 2) is the vector [1 2]).",
  (items, form, a) => {
    if (items.length !== 2) arityFail(a, form, "quote expects exactly one form: 'name or '(1 2)");
    return constNode(quoted(items[1], a));
  },
  true,
);

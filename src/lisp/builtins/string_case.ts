/**
 * Builtins: `clojure.string/capitalize` and `clojure.string/reverse` (the string → string one; the unqualified
 * `reverse` is clojure.core's sequence reverse). Both work on user-perceived characters (graphemes).
 * @module
 */

import { graphemes } from "../values/strings.ts";
import { define, type NsGroup } from "./table.ts";
import { strArg, stringBytes } from "./util.ts";

const S: NsGroup[] = ["string"];

define("strings", {
  "capitalize": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "s with its first character upper-cased and the rest lower-cased.",
    groups: S,
    fn: (a, ctx) => {
      const s = strArg("capitalize", a, 0);
      ctx.alloc(stringBytes(s.length));
      if (s === "") return s;
      const first = graphemes(s.slice(0, 64))[0];
      return first.toUpperCase() + s.slice(first.length).toLowerCase();
    },
  },
  "clojure.string/reverse": {
    arity: [1, 1],
    args: ["[s]"],
    doc: "The characters of s in reverse order, as a string (str/reverse; the unqualified reverse returns a vector).",
    groups: S,
    qualifiedOnly: true,
    fn: (a, ctx) => {
      const s = strArg("clojure.string/reverse", a, 0);
      ctx.alloc(stringBytes(s.length) + 8 * s.length);
      return graphemes(s).reverse().join("");
    },
  },
});

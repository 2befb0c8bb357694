/**
 * The documented rules under which a corpus form (data/corpus.json) may answer differently from JVM Clojure. Each
 * rule names the docs/language.md §9 deviation it stands for; corpus_test.ts fails on any form that is not `same`
 * and that no rule covers (and on any form listed in data/corpus_open.json that now passes or that a rule covers).
 *
 * Three kinds: `refusal` (PTC raises where Clojure answers; the message must say what to write instead), `lenient`
 * (PTC answers where Clojure raises) and `value` (a different value, allowed only for the representation rules a
 * reader cannot mistake: no list or character type, maps and sets in key order, `/` and `=` on numbers, `type`).
 * @module
 */
import type { Compared } from "./jvm_compare.ts";
import { type Node, parsePrinted } from "./normalize.ts";

/** One documented deviation rule. */
export interface CorpusRule {
  name: string;
  /** The bullet of docs/language.md §9 that documents it. */
  doc: string;
  outcome: "refusal" | "lenient" | "value";
  covers(c: Compared): boolean;
}

const head = (src: string) => /^\(([^\s()]+)/.exec(src)?.[1] ?? "";
/** A list in the program: a quoted list, (list …), a range, or nil as a collection that conj/into would make a list. */
const LIST_SRC = /'\(|\(list[ )]|\(range |\((into|conj) nil /;
/'\(|\(list[ )]|\(range |\((map|filter|remove|keep|keep-indexed|map-indexed|mapcat|take|drop|take-while|drop-while|take-last|drop-last|rest|next|cons|concat|interleave|interpose|partition|partition-all|partition-by|split-at|split-with|reverse|distinct|dedupe|sort|sort-by|flatten|seq|keys|vals|for|reductions|take-nth|butlast|nthrest|nthnext|tree-seq|re-seq|repeat|walk\/\w+) /;
const MAP_OR_SET_SRC =
  /\{|\(set |\(hash-set|\(hash-map|\(sorted-|\(frequencies|\(group-by|\(zipmap|\(set\/|\(keys|\(vals|walk\//;

/** Order-insensitive canonical text of a printed value (sequences compared as multisets). */
function unordered(text: string): string | null {
  const canon = (n: Node): string => {
    switch (n.t) {
      case "seq":
      case "set":
        return "[" + n.items.map(canon).sort().join(",") + "]";
      case "map":
        return "{" + n.entries.map(([k, v]) => canon(k) + ":" + canon(v)).sort().join(",") + "}";
      case "int":
        return `i${n.v}`;
      case "float":
        return `f${n.v}`;
      case "str":
        return JSON.stringify([...n.v].sort().join(""));
      case "nil":
      case "true":
      case "false":
        return n.t;
      default:
        return `${n.t}:${n.v}`;
    }
  };
  try {
    return canon(parsePrinted(text));
  } catch {
    return null;
  }
}

const ptcMessage = (c: Compared) => c.ptc;
const jvmError = (c: Compared) => c.jvm;

/** Every rule. */
export const CORPUS_RULES: CorpusRule[] = [
  // ---- values: the representation rules ----
  {
    name: "no list or lazy-seq type",
    doc: "No lists, laziness…: a quoted list '(1 2) is a vector (so conj adds at the end)",
    outcome: "value",
    covers: (c) =>
      LIST_SRC.test(c.src) || /^"\(|LazySeq/.test(c.jvm) ||
      ["vector?", "associative?", "indexed?", "reversible?", "sequential?", "counted?"].includes(head(c.src)),
  },
  {
    name: "maps and sets in key order",
    doc: "Maps print with sorted keys and no commas; keys, vals and seq are in key order",
    outcome: "value",
    covers: (c) => {
      if (!MAP_OR_SET_SRC.test(c.src)) return false;
      if (/#\{[^}]*\s[^}]*\}/.test(c.src)) return true; // a set of two or more: Clojure's order is its hash order
      const a = unordered(c.jvm.startsWith('"') ? JSON.parse(c.jvm) : c.jvm);
      const b = unordered(c.ptc.startsWith('"') ? JSON.parse(c.ptc) : c.ptc);
      return (a !== null && a === b) || /, /.test(c.jvm);
    },
  },
  {
    name: "numbers: / gives floats, = compares by value, integers never overflow",
    doc: "Integers and floats are distinct kinds; / always returns a float; integers never overflow",
    outcome: "value",
    covers: (c) =>
      /\(\/ /.test(c.src) ||
      (/\((=|not=|==|distinct|dedupe|hash-set|set|frequencies|group-by)[ )]/.test(c.src) &&
        /-?\d\.\d|##/.test(c.src)) ||
      /^\(bit-shift-(left|right) /.test(c.src),
  },
  {
    name: "type answers a keyword",
    doc: "type returns :number :string … (docs §5 Predicates)",
    outcome: "value",
    covers: (c) => head(c.src) === "type",
  },
  {
    name: "no character type",
    doc: "Strings count graphemes; a character is a one-character string",
    outcome: "value",
    covers: (c) => /\\[a-z,]/.test(c.src) || /\\./.test(c.jvm) || ["char?", "string?"].includes(head(c.src)),
  },
  {
    name: "vectors, strings and symbols are not callable",
    doc: "Keywords, maps and sets are callable; vectors, strings, numbers and nil are not",
    outcome: "value",
    covers: (c) => head(c.src) === "ifn?",
  },
  {
    name: "every map is sorted; format %s of nil",
    doc: 'sorted-map is hash-map; %s of nil is ""',
    outcome: "value",
    covers: (c) => head(c.src) === "sorted?" || /\(format "%s" nil/.test(c.src),
  },
  // ---- refusals: PTC raises and says what to write ----
  {
    name: "positional functions refuse maps and sets",
    doc: "positional functions refuse maps and (mostly) sets",
    outcome: "refusal",
    covers: (c) => /cannot be used directly on a map|sets have no order/.test(ptcMessage(c)),
  },
  {
    name: "omitted Clojure names say what to write instead",
    doc: "Reaching for an omitted Clojure name … is an unbound_var error that says what to write instead",
    outcome: "refusal",
    covers: (c) => /not in PTC-Lisp:/.test(ptcMessage(c)),
  },
  {
    name: "functions take the kind they document (no toString coercion)",
    doc: "string functions take strings, map functions maps, set functions sets, counts integers",
    outcome: "refusal",
    covers: (c) =>
      /expected (a string|a map|a set|an integer|a positive integer|a non-negative bit index|a number|a collection|a regex|a vector, map, set or nil|a map or vector|an integer from 0 to 65535)( or nil)? as argument|convert it with \(set x\)|is not a valid keyword name|is too large/
        .test(ptcMessage(c)),
  },
  {
    name: "contains? on a vector or string is refused",
    doc: "contains? on a vector or string is refused (Clojure tests an index)",
    outcome: "refusal",
    covers: (c) => /Clojure tests an index/.test(ptcMessage(c)),
  },
  {
    name: "select-keys takes a collection of keys, not a string",
    doc: "`select-keys` with a string of keys (Clojure reads its characters)",
    outcome: "refusal",
    covers: (c) => /select-keys: expected a collection of keys as argument 2, got a string/.test(ptcMessage(c)),
  },
  {
    name: "regexes that mean different things in Java and JavaScript are refused",
    doc:
      "Regexes whose meaning differs between Java and JavaScript: `(?i)` with non-ASCII letters … POSIX-looking brackets",
    outcome: "refusal",
    covers: (c) =>
      /matches only ASCII letters case-insensitively|POSIX classes like \[\[:alpha:\]\]/.test(ptcMessage(c)),
  },
  {
    name: "integer division by zero raises",
    doc: "dividing by integer zero is an arithmetic_error",
    outcome: "refusal",
    covers: (c) => /integer divisor 0/.test(ptcMessage(c)),
  },
  {
    name: "a sequence function needs its collection",
    doc: "There are no transducers: a sequence function called without its collection is an arity_error",
    outcome: "refusal",
    covers: (c) => /arity_error: .*Usage:/.test(ptcMessage(c)) && /^#object/.test(c.jvm),
  },
  {
    name: "the reader and destructuring subset",
    doc: "no namespaced keywords, :syms, ratios; destructuring takes vectors and maps; case tests are literals",
    outcome: "refusal",
    covers: (c) =>
      /parse_error: (Namespaced keywords|Ratio literals)|unsupported_pattern|destructure_error: .*cannot destructure|must be a literal|:>> is not supported|keyword expects 1 argument|def expects a name and a value/
        .test(ptcMessage(c)),
  },
  {
    name: "vectors and symbols are not callable",
    doc: "Keywords, maps and sets are callable; vectors, strings, numbers and nil are not (not_callable)",
    outcome: "refusal",
    covers: (c) => /not_callable: a (vector|quoted symbol)/.test(ptcMessage(c)),
  },
  {
    name: "a special form's name cannot be redefined",
    doc: "def of a special form's name (pmap, when…) is refused",
    outcome: "refusal",
    covers: (c) => /is a special form of PTC-Lisp and cannot be redefined/.test(ptcMessage(c)),
  },
  // ---- leniencies: PTC answers where Clojure raises ----
  {
    name: "string predicates read nil as no text",
    doc: "String predicates (includes?, starts-with?, ends-with?) read nil as no text (false)",
    outcome: "lenient",
    covers: (c) => /^\(str\/(includes\?|starts-with\?|ends-with\?) nil /.test(c.src),
  },
  {
    name: "integers never overflow",
    doc: "integers never overflow",
    outcome: "lenient",
    covers: (c) => /overflow/.test(jvmError(c)),
  },
  {
    name: "parse-long & co read nil as no text",
    doc: "parse-long & co return nil on bad text or nil",
    outcome: "lenient",
    covers: (c) => /^\(parse-(long|double|boolean) nil\)$/.test(c.src),
  },
  {
    name: "map entries are plain vectors",
    doc: "keys, vals and seq see a map as [k v] vectors (key and val take any two-item vector)",
    outcome: "lenient",
    covers: (c) => /^\((key|val) /.test(c.src) && /Map\$Entry/.test(jvmError(c)),
  },
  {
    name: "a character is a one-character string (so it is a sequence)",
    doc: "Strings count graphemes; a character is a one-character string",
    outcome: "lenient",
    covers: (c) => /Character|from: java.lang.Character/.test(jvmError(c)),
  },
  {
    name: "no list type: a list is a vector",
    doc: "A quoted list '(1 2) is a vector",
    outcome: "lenient",
    covers: (c) =>
      /'\(/.test(c.src) ||
      /PersistentList|LongRange|LazySeq|ChunkedCons|not supported on type: clojure.lang.PersistentList/.test(
        jvmError(c),
      ),
  },
  {
    name: "sequence functions read a set in key order",
    doc: "keys, vals and seq are in key order; sets iterate in key order",
    outcome: "lenient",
    covers: (c) => /PersistentHashSet/.test(jvmError(c)),
  },
];

/** The first rule covering a non-`same` form (a `silent` form can be covered only by a `value` rule). */
export function ruleFor(c: Compared): CorpusRule | undefined {
  if (c.outcome === "same") return undefined;
  const want = c.outcome === "silent" ? "value" : c.outcome;
  return CORPUS_RULES.find((r) => r.outcome === want && r.covers(c));
}

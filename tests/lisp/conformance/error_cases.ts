/**
 * The error-path table: malformed and hostile programs, each with the reason(s) it must end with.
 * Where PTC-Lisp accepts two spellings of one failure (e.g. closure arity `arity_error` / `arity_mismatch`), both
 * are accepted. Limits are small so that every case ends quickly.
 * @module
 */
import type { EvalLimits } from "../../../src/lisp/api.ts";

/** One hostile program. */
export interface ErrorCase {
  name: string;
  src: string;
  /** Accepted reasons (the first is the preferred one). */
  reasons: string[];
  limits?: EvalLimits;
  /** Wall-clock budget from the start of the evaluation (becomes `limits.deadline`). */
  deadlineMs?: number;
  /** Substrings the message must contain (case-insensitive), e.g. the offending name. */
  mentions?: string[];
}

const nest = (open: string, close: string, depth: number, inner = "1") =>
  open.repeat(depth) + inner + close.repeat(depth);

const SMALL_STEPS: EvalLimits = { maxSteps: 200_000 };
const SMALL_MEMORY: EvalLimits = { maxAllocBytes: 4 * 1024 * 1024, maxSteps: 50_000_000 };
const ARITY = ["arity_error", "arity_mismatch"];

/** The table (≥ 60 cases). */
export const ERROR_CASES: ErrorCase[] = [
  // --- reader: unbalanced input, rejected syntax, huge literals -------------------------------------------------
  { name: "unclosed list", src: "(+ 1 2", reasons: ["parse_error"] },
  { name: "unclosed vector", src: "[1 2", reasons: ["parse_error"] },
  { name: "unclosed map", src: "{:a 1", reasons: ["parse_error"] },
  { name: "unclosed set", src: "#{1 2", reasons: ["parse_error"] },
  { name: "unterminated string", src: '(str "abc)', reasons: ["parse_error"] },
  { name: "odd map literal", src: "{:a}", reasons: ["parse_error"] },
  { name: "mismatched closer", src: "(+ 1 2]", reasons: ["parse_error"] },
  { name: "deref is rejected", src: "@x", reasons: ["parse_error"] },
  { name: "discard is rejected", src: "#_ (foo) 1", reasons: ["parse_error"] },
  { name: "a ratio literal says what to write", src: "(+ 1/3 1)", reasons: ["parse_error"], mentions: ["(/ 1 3)"] },
  { name: "syntax quote is rejected", src: "`(a b)", reasons: ["parse_error"] },
  { name: "metadata is rejected", src: "^{:a 1} [1]", reasons: ["parse_error"] },
  { name: "bare colon", src: "(str :)", reasons: ["parse_error"] },
  { name: "deep list nesting (default depth)", src: nest("(+ ", ")", 400), reasons: ["parse_error"] },
  {
    name: "deep vector nesting (small depth)",
    src: nest("[", "]", 100),
    reasons: ["parse_error"],
    limits: { maxDepth: 64 },
  },
  { name: "deep map nesting", src: nest("{:a ", "}", 300), reasons: ["parse_error"] },
  { name: "huge integer literal", src: "9".repeat(500), reasons: ["parse_error"] },
  {
    name: "program too large",
    src: `(str "${"x".repeat(5_000)}")`,
    reasons: ["program_too_large"],
    limits: { maxProgramBytes: 1_000 },
  },
  {
    name: "gigantic string literal (default size limit)",
    src: `"${"y".repeat(1_100_000)}"`,
    reasons: ["program_too_large"],
  },
  // --- analysis: malformed forms, unknown names ---------------------------------------------------------------
  { name: "empty list", src: "()", reasons: ["invalid_form"] },
  { name: "if without arguments", src: "(if)", reasons: ["invalid_arity"] },
  { name: "if with too many branches", src: "(if 1 2 3 4)", reasons: ["invalid_arity"] },
  { name: "let with odd bindings", src: "(let [x] x)", reasons: ["invalid_form"] },
  { name: "let without a vector", src: "(let x 1)", reasons: ["invalid_form"] },
  { name: "undefined function", src: "(frobnicate 1)", reasons: ["unbound_var"], mentions: ["frobnicate"] },
  { name: "undefined symbol", src: "(+ undefined-thing 1)", reasons: ["unbound_var"], mentions: ["undefined-thing"] },
  { name: "unknown namespace", src: "(foo/bar 1)", reasons: ["invalid_form"], mentions: ["foo"] },
  {
    name: "unknown member of a known namespace",
    src: '(clojure.string/capitalise "a")',
    reasons: ["invalid_form"],
    mentions: ["capitalise", "capitalize"],
  },
  { name: "host namespace js/", src: "(js/alert 1)", reasons: ["invalid_form"] },
  { name: "unknown tool", src: "(tool/nope {})", reasons: ["unknown_tool"], mentions: ["nope"] },
  { name: "recur not in tail position", src: "(loop [x 0] (+ 1 (recur x)))", reasons: ["invalid_form"] },
  { name: "recur outside loop/fn", src: "(recur 1)", reasons: ["invalid_form"] },
  { name: "duplicate map key", src: "{:a 1 :a 2}", reasons: ["duplicate_key"] },
  { name: "duplicate set member", src: "#{1 1}", reasons: ["duplicate_key"] },
  { name: "cond with odd clauses", src: "(cond 1)", reasons: ["invalid_cond_form"] },
  { name: "empty thread", src: "(->)", reasons: ["invalid_thread_form"] },
  { name: "placeholder outside #()", src: "(map % [1])", reasons: ["invalid_placeholder"] },
  { name: "nested #()", src: "(#(#(+ % 1)) 1)", reasons: ["invalid_form"] },
  {
    name: "multi-arity defn with two arities of one count",
    src: "(defn f ([x] x) ([y] y))",
    reasons: ["invalid_form"],
  },
  { name: "qualified def", src: "(def crm/x 1)", reasons: ["invalid_form"] },
  { name: "symbol as a case test (can never match)", src: "(case 1 x :a)", reasons: ["invalid_form"] },
  { name: "invalid regex literal", src: '(re-find #"(" "x")', reasons: ["invalid_form"] },
  { name: "juxt without functions", src: "(juxt)", reasons: ["invalid_arity"] },
  { name: "dot form", src: '(. "a" toUpperCase)', reasons: ["invalid_form"] },
  { name: "return without value", src: "(return)", reasons: ["invalid_arity"] },
  { name: "try does not exist", src: "(try (/ 1 0))", reasons: ["unbound_var"] },
  { name: "eval does not exist", src: '(eval "(+ 1 2)")', reasons: ["unbound_var"] },
  { name: "atoms do not exist", src: "(swap! a inc)", reasons: ["unbound_var"] },
  // --- Clojure habits refused with what to write instead ---------------------------------------------------------
  {
    name: "require says the namespaces are built in",
    src: "(require '[clojure.string :as str]) (str/join [1])",
    reasons: ["invalid_form"],
    mentions: ["str/", "remove the require"],
  },
  {
    name: "ns says there is one namespace",
    src: "(ns app.core)",
    reasons: ["invalid_form"],
    mentions: ["remove the ns"],
  },
  {
    name: "import says there is no Java",
    src: "(import 'java.util.UUID)",
    reasons: ["invalid_form"],
    mentions: ["import"],
  },
  {
    name: "a transducer arity says to pass the collection",
    src: "(into [] (comp (filter odd?) (map inc)) [1 2 3])",
    reasons: ["arity_error"],
    mentions: ["transducer", "(->> xs"],
  },
  {
    name: "infinite repeat asks for a count",
    src: "(take 2 (repeat 1))",
    reasons: ["arity_error"],
    mentions: ["(repeat n x)"],
  },
  { name: "octal 08 gives the decimal spelling", src: "(+ 08 1)", reasons: ["parse_error"], mentions: ["write 8"] },
  {
    name: "multi-arity fn called with a missing arity",
    src: "((fn ([a] a) ([a b c] c)) 1 2)",
    reasons: ["arity_error"],
    mentions: ["1 or 3"],
  },
  {
    name: "letfn spec without a name",
    src: "(letfn [([x] x)] 1)",
    reasons: ["invalid_form"],
    mentions: ["(name [params] body…)"],
  },
  // --- run phase: calls, arity, types ---------------------------------------------------------------------------
  { name: "number in call position", src: "(1 2 3)", reasons: ["not_callable"] },
  { name: "string in call position", src: '("abc" 1)', reasons: ["not_callable"] },
  { name: "nil called", src: "(let [f nil] (f 1))", reasons: ["not_callable"] },
  { name: "vector called", src: "([1 2] 0)", reasons: ["not_callable"] },
  { name: "closure with too few args", src: "((fn [x] x))", reasons: ARITY },
  { name: "closure with too many args", src: "((fn [x] x) 1 2)", reasons: ARITY },
  { name: "defn arity", src: "(defn f [a b] a) (f 1)", reasons: ARITY },
  { name: "recur arity", src: "(loop [a 1 b 2] (if (> a 5) a (recur (inc a))))", reasons: ARITY },
  { name: "builtin with no args", src: "(inc)", reasons: ["arity_error"], mentions: ["inc"] },
  { name: "builtin with too many args", src: "(count [1] [2])", reasons: ["arity_error"], mentions: ["count"] },
  { name: "inc of a string", src: '(inc "a")', reasons: ["type_error"], mentions: ["inc"] },
  { name: "count of a number", src: "(count 5)", reasons: ["type_error"], mentions: ["count"] },
  { name: "first of a map", src: "(first {:a 1})", reasons: ["type_error"] },
  { name: "plus nil", src: "(+ 1 nil)", reasons: ["type_error"] },
  { name: "swapped filter arguments", src: "(filter [1 2 3] even?)", reasons: ["type_error"], mentions: ["filter"] },
  { name: "integer division by zero", src: "(/ 1 0)", reasons: ["arithmetic_error"] },
  { name: "mod by zero", src: "(mod 5 0)", reasons: ["arithmetic_error"] },
  { name: "int overflow", src: "(int 3000000000)", reasons: ["arithmetic_error"] },
  { name: "sum of strings", src: '(sum ["a" "b"])', reasons: ["arithmetic_error"] },
  { name: "compare across kinds", src: '(compare "a" 1)', reasons: ["type_error"] },
  { name: "multi-char plain split", src: '(split "a--b" "--")', reasons: ["type_error"] },
  { name: "zero range step", src: "(range 1 10 0)", reasons: ["type_error"] },
  { name: "reduce over a number", src: "(reduce + 5)", reasons: ["type_error"] },
  { name: "merge of a vector", src: "(merge {:a 1} [1])", reasons: ["type_error"] },
  { name: "contains? on a vector", src: "(contains? [1 2] 1)", reasons: ["type_error"] },
  { name: "vector pattern on a number", src: "(let [[a b] 5] a)", reasons: ["destructure_error"] },
  { name: "map pattern on a number", src: "(let [{:keys [a]} 5] a)", reasons: ["destructure_error"] },
  { name: "unknown method", src: '(.frobnicate "x")', reasons: ["unsupported_method"], mentions: ["frobnicate"] },
  { name: "no host reflection: constructor", src: '(.constructor "x")', reasons: ["unsupported_method"] },
  { name: "no host reflection: __proto__", src: "(.__proto__ {})", reasons: ["unsupported_method"] },
  { name: "keyword called without args", src: "(:a)", reasons: ["invalid_keyword_call", "arity_error"] },
  { name: "tool call without a tools host", src: '(tool/call {:server "s" :tool "t"})', reasons: ["unknown_tool"] },
  // --- budgets the program cannot catch -------------------------------------------------------------------------
  {
    name: "infinite loop (step budget)",
    src: "(loop [i 0] (recur (inc i)))",
    reasons: ["step_limit_exceeded"],
    limits: SMALL_STEPS,
  },
  { name: "empty infinite loop", src: "(loop [] (recur))", reasons: ["step_limit_exceeded"], limits: SMALL_STEPS },
  {
    name: "infinite self-tail-call via recur in fn",
    src: "(defn spin [n] (recur (inc n))) (spin 0)",
    reasons: ["step_limit_exceeded"],
    limits: SMALL_STEPS,
  },
  {
    name: "cartesian explosion in for",
    src: "(count (for [a (range 1000) b (range 1000) c (range 1000)] 1))",
    reasons: ["step_limit_exceeded", "memory_limit"],
    limits: { maxSteps: 1_000_000 },
  },
  {
    name: "infinite loop (wall-clock deadline)",
    src: "(loop [i 0] (recur (inc i)))",
    reasons: ["timeout"],
    limits: { maxSteps: Number.MAX_SAFE_INTEGER },
    deadlineMs: 150,
  },
  {
    name: "runaway recursion",
    src: "(defn f [n] (+ 1 (f n))) (f 0)",
    reasons: ["stack_overflow"],
    limits: { maxCallDepth: 500 },
  },
  {
    name: "runaway non-tail self call",
    src: "(defn g [n] (g (inc n))) (g 0)",
    reasons: ["stack_overflow"],
    limits: { maxCallDepth: 500 },
  },
  {
    name: "runaway recursion through a local fn",
    src: "(defn g [n] ((fn [m] (g m)) n)) (g 1)",
    reasons: ["stack_overflow"],
    limits: { maxCallDepth: 500 },
  },
  {
    name: "exponential vector growth",
    src: "(loop [v [1] i 0] (if (< i 64) (recur (into v v) (inc i)) (count v)))",
    reasons: ["memory_limit"],
    limits: SMALL_MEMORY,
  },
  {
    name: "gigantic string by doubling",
    src: '(loop [s "x" i 0] (if (< i 60) (recur (str s s) (inc i)) (count s)))',
    reasons: ["memory_limit"],
    limits: SMALL_MEMORY,
  },
  {
    name: "huge range",
    src: "(count (vec (range 100000000)))",
    reasons: ["memory_limit", "step_limit_exceeded"],
    limits: SMALL_MEMORY,
  },
  {
    name: "map of big values",
    src: "(count (reduce (fn [m i] (assoc m i (vec (range 1000)))) {} (range 100000)))",
    reasons: ["memory_limit"],
    limits: SMALL_MEMORY,
  },
  {
    name: "print flood",
    src: '(doseq [i (range 100000)] (println "line" i))',
    reasons: ["print_limit_exceeded"],
    limits: { maxPrintChars: 10_000 },
  },
  // --- issue 14 item 5 audit: builtins refuse inputs Clojure rejects ------------------------------------------
  {
    name: "parse-long of a number",
    src: "(parse-long 5)",
    reasons: ["type_error"],
    mentions: ["parse-long", "argument 1", "a string"],
  },
  { name: "parse-double of a keyword", src: "(parse-double :a)", reasons: ["type_error"], mentions: ["parse-double"] },
  { name: "parse-int of a vector", src: "(parse-int [1])", reasons: ["type_error"], mentions: ["parse-int"] },
  { name: "parse-boolean of true", src: "(parse-boolean true)", reasons: ["type_error"], mentions: ["parse-boolean"] },
];

/** Hostile programs that must simply return data (no prototype pollution, no host objects leaking). */
export const SAFE_CASES: { name: string; src: string; printed: string }[] = [
  { name: "get __proto__", src: '(get {} "__proto__")', printed: "nil" },
  { name: "keyword __proto__", src: "(:__proto__ {})", printed: "nil" },
  { name: "get constructor", src: '(get {} "constructor")', printed: "nil" },
  { name: "assoc __proto__", src: '(assoc {} "__proto__" 1)', printed: '{"__proto__" 1}' },
  {
    name: "JSON __proto__ key",
    src: '(json/parse-string "{\\"__proto__\\":{\\"x\\":1}}")',
    printed: '{"__proto__" {"x" 1}}',
  },
  { name: "contains? toString", src: '(contains? {} "toString")', printed: "false" },
  { name: "stray closers are skipped", src: "(+ 1 2)))", printed: "3" },
  { name: "100,000-item loop is normal work", src: "(count (for [x (range 100000)] x))", printed: "100000" },
];

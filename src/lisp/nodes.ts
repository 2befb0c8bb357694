/**
 * What analysis produces and works with: compiled nodes and their frames, the per-program and per-form analysis
 * contexts, namespace cells, constant nodes and positioned analysis errors. Every analyzer module (special forms,
 * symbols, calls) imports these from here, so none of them needs the dispatcher in analyze.ts.
 * @module
 */
import { type Form, lineCol } from "./forms.ts";
import { LispError, type LispErrorReason } from "./errors.ts";
import type { LexScope } from "./scope.ts";
import type { Value } from "./vals.ts";
import type { JsonObject } from "../core/json.ts";
import type { EvalContext } from "./runtime.ts";
import type { LibraryIndex } from "./library_types.ts";

/** A frame: slot 0 holds the captured values of the running closure, other slots hold locals. */
// deno-lint-ignore no-explicit-any
export type Frame = any[];
/** A compiled expression. */
export type Node = (f: Frame) => Value;

/** Marker returned by a `recur` node (it has already written the new bindings into their slots). */
export const RECUR = { recur: true } as unknown as Value;

/** Sentinel of a namespace cell that holds no value. */
export const UNBOUND: unique symbol = Symbol("unbound");

/** One user-namespace entry. Nodes hold the cell, so redefinition is seen by already compiled code. */
export interface Cell {
  name: string;
  value: Value | typeof UNBOUND;
  doc?: string;
}

/** State shared by the whole analysis of one program. */
export interface ProgramCtx {
  source: string;
  /** The evaluation context the compiled nodes run in (the session's). */
  run: EvalContext;
  /** The session namespace (created on demand). */
  cells: Map<string, Cell>;
  /** Names usable as user vars at this point of the program (session defs + defs seen earlier). */
  defined: Set<string>;
  /** `options.globals` names → converted values. */
  globals: Map<string, Value>;
  /** Host tool names (`tool/<name>`), null when the host passed no tools. */
  toolNames: Set<string> | null;
  /** Undefined symbols → offset of first use (reported together after analysis). */
  undefinedSyms: Map<string, number>;
  /** Local names visible where each undefined symbol was first used (for suggestions). */
  undefinedLocals?: Map<string, string[]>;
  /** Unknown tools → offset of first use. */
  unknownTools: Map<string, number>;
  /** `options.context` (for `data/…`). */
  context: JsonObject | undefined;
  /** The session's `*1 *2 *3` history, newest last. */
  history: () => Value[];
  /** The operator libraries `ns/name` may refer to (absent: none). */
  libraries?: LibraryIndex;
  /** The library file being compiled (absent for programs). */
  file?: string;
}

/** Where `recur` jumps to: the slots it rewrites (loop bindings or fn params). */
export interface RecurTarget {
  slots: number[];
  /** What `recur` is called in messages. */
  what: string;
}

/** Placeholder state of the `#(…)` being analyzed. */
export interface FnLitState {
  /** Highest `%n` used. */
  max: number;
  rest: boolean;
  /** Slots of `%1..%n` and `%&` in the fn literal's frame (allocated on demand). */
  slots: Map<string, number>;
  scope: LexScope;
}

/** Per-form analysis context. */
export interface Ana {
  p: ProgramCtx;
  scope: LexScope;
  /** In tail position of the innermost loop/fn. */
  tail: boolean;
  recur: RecurTarget | null;
  fnlit: FnLitState | null;
  /** Inside a conditional branch or a fn body: defs here do not count for later static resolution. */
  cond: boolean;
}

/** Marks constant nodes (a symbol-keyed property: cheaper than a WeakMap for huge literals). */
const CONST: unique symbol = Symbol("const");
type ConstNode = Node & { [CONST]?: Value };

/** A node that always yields `v`. */
export function constNode(v: Value): Node {
  const n: ConstNode = () => v;
  n[CONST] = v;
  return n;
}

/** The constant of a node, or undefined when the node is not constant. */
export function constOf(n: Node): { v: Value } | undefined {
  return CONST in n ? { v: (n as ConstNode)[CONST]! } : undefined;
}

/** True for constant nodes. */
export function isConst(n: Node): boolean {
  return CONST in n;
}

/** The constant of a node known to be constant. */
export function constValue(n: Node): Value {
  return (n as ConstNode)[CONST]!;
}

/** Marks nodes that read a frame slot of the running function (its index). */
const SLOT: unique symbol = Symbol("slot");
type SlotNode = Node & { [SLOT]?: number };

/** A node reading frame slot `i`; call nodes read such an argument straight from the frame (one call fewer). */
export function slotNode(i: number): Node {
  const n: SlotNode = (f) => f[i];
  n[SLOT] = i;
  return n;
}

/** The frame slot a node reads, or -1 when it is not a plain slot read. */
export function slotOf(n: Node): number {
  return SLOT in n ? (n as SlotNode)[SLOT]! : -1;
}

/** An analysis error with the form's position. */
export function formError(a: Ana | ProgramCtx, reason: LispErrorReason, message: string, form: Form): LispError {
  const src = "p" in a ? a.p.source : a.source;
  const { line, column } = lineCol(src, form.at);
  return new LispError(reason, `${message} (line ${line}, column ${column})`, { line, column });
}

/** Same context, not in tail position. */
export function nonTail(a: Ana): Ana {
  return a.tail ? { ...a, tail: false } : a;
}

/** Analyze in a conditional position (defs inside do not count statically). */
export function conditional(a: Ana): Ana {
  return a.cond ? a : { ...a, cond: true };
}

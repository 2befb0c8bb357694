/**
 * The cost of writing a value out in full. Values share structure (a vector may hold the same big vector a thousand
 * times), so printing or encoding one can produce far more than the program ever allocated. `chargeExpansion` walks
 * the value as the printer and the JSON encoder would and charges the budgets for every node and character before
 * any of that text is built.
 * @module
 */

import type { Value } from "./types.ts";
import { PVec } from "./vector.ts";
import { PMap, PSet } from "./hashmap.ts";

/** The budgets a walk charges (the evaluator's step and allocation accounting). */
export interface Meter {
  step(n: number): void;
  alloc(bytes: number): void;
}

/** Nodes visited between two charges. */
const BATCH = 1024;
/** Characters assumed for a non-string atom with its separator (numbers, keywords, booleans). */
const ATOM_CHARS = 8;

/**
 * Charge `meter` for writing `v` out in full: one step per node and two bytes per character of the output text
 * (strings by length, other atoms by an estimate), scaled by `copies` when the caller builds several renderings
 * (e.g. printer text and JSON). Raises whatever the meter raises (`memory_limit`, `timeout`, …) before the walk has
 * gone much past the budget, so a value whose expansion is huge costs a bounded walk, never the expansion.
 */
export function chargeExpansion(v: Value, meter: Meter, copies = 1): void {
  if (typeof v === "string") {
    if (v.length > 256) meter.alloc(2 * copies * v.length);
    return;
  }
  if (!isColl(v)) return;
  const stack: Value[] = [v];
  let nodes = 0;
  let chars = 0;
  const visit = (x: Value) => {
    nodes++;
    if (typeof x === "string") chars += x.length + 3;
    else if (isColl(x)) stack.push(x);
    else chars += ATOM_CHARS;
  };
  const visitEntry = (k: Value, x: Value) => {
    visit(k);
    visit(x);
  };
  while (stack.length > 0) {
    const x = stack.pop()!;
    chars += 3;
    if (x instanceof PVec) { for (let i = 0; i < x.n; i++) visit(x.at(i)); }
    else if (x instanceof PMap) x.forEach(visitEntry);
    else (x as PSet).forEach(visit);
    if (nodes >= BATCH) {
      meter.step(nodes);
      meter.alloc(2 * copies * chars);
      nodes = 0;
      chars = 0;
    }
  }
  meter.step(nodes);
  meter.alloc(2 * copies * chars);
}

function isColl(x: Value): x is PVec | PMap | PSet {
  return x instanceof PVec || x instanceof PMap || x instanceof PSet;
}

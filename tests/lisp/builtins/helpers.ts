/**
 * Helpers for the builtin tests: evaluate programs through the public language API and compare printer output.
 * @module
 */
import assert from "node:assert/strict";
import { evaluate } from "../../../src/lisp/mod.ts";
import type { EvalOptions } from "../../../src/lisp/api.ts";

/** Evaluate and return the printer form; fails on error. */
export function ev(source: string, options?: EvalOptions): string {
  const r = evaluate(source, options);
  if (!r.ok) assert.fail(`${source}\n  => ERR ${r.reason}: ${r.message}`);
  return r.printed;
}

/** Evaluate, expecting an error; returns it. */
export function err(source: string): { reason: string; message: string } {
  const r = evaluate(source);
  if (r.ok) assert.fail(`${source}\n  => expected an error, got ${r.printed}`);
  return { reason: r.reason, message: r.message };
}

/** Check a table of [source, expected printed | "ERR reason"] cases, reporting every mismatch at once. */
export function check(cases: [string, string][]): void {
  const bad: string[] = [];
  for (const [src, want] of cases) {
    const r = evaluate(src);
    const got = r.ok ? r.printed : `ERR ${r.reason}`;
    if (got !== want) bad.push(`${src}\n    want ${want}\n    got  ${got}${r.ok ? "" : ` (${r.message})`}`);
    if (!r.ok) {
      for (const junk of ["undefined", "[object Object]", "    at "]) {
        if (r.message.includes(junk)) bad.push(`${src}: unreadable message: ${r.message}`);
      }
    }
  }
  assert.ok(bad.length === 0, `${bad.length} mismatches:\n${bad.join("\n")}`);
}

/** Prints produced by a program. */
export function prints(source: string): string[] {
  const r = evaluate(source);
  if (!r.ok) assert.fail(`${source}\n  => ERR ${r.reason}: ${r.message}`);
  return r.prints;
}

/**
 * Test helpers for the PTC-Lisp core: evaluate and return the printed value, or the error.
 * @module
 */
import assert from "node:assert/strict";
import { createSession, type EvalOptions, type EvalResult, evaluate } from "../../src/lisp/mod.ts";

/** Evaluate and return the printer form; fails the test on error. */
export function ev(source: string, options?: EvalOptions): string {
  const r = evaluate(source, options);
  if (!r.ok) assert.fail(`${source}\n  => ERR ${r.reason}: ${r.message}`);
  return r.printed;
}

/** Evaluate and return the error; fails the test on success. */
export function err(source: string, options?: EvalOptions): { reason: string; message: string; line?: number } {
  const r = evaluate(source, options);
  if (r.ok) assert.fail(`${source}\n  => expected an error, got ${r.printed}`);
  return { reason: r.reason, message: r.message, line: r.line };
}

/** Assert that a program fails with `reason` and a message containing every `parts` string. */
export function assertErr(source: string, reason: string, ...parts: string[]): void {
  const e = err(source);
  assert.equal(e.reason, reason, `${source}: ${e.message}`);
  for (const p of parts) assert.ok(e.message.includes(p), `${source}: message "${e.message}" lacks "${p}"`);
  assertReadable(e.message);
}

/** A message is readable: non-empty, no JS artefacts, no stack trace. */
export function assertReadable(message: string): void {
  assert.ok(message.length > 0);
  for (const bad of ["undefined", "[object Object]", "    at ", "TypeError", "ReferenceError"]) {
    assert.ok(!message.includes(bad), `message contains "${bad}": ${message}`);
  }
}

/** Run a table of [source, expected printed] cases. */
export function table(cases: [string, string][], options?: EvalOptions): void {
  for (const [src, want] of cases) assert.equal(ev(src, options), want, src);
}

export { createSession, type EvalResult, evaluate };

import assert from "node:assert/strict";
import {
  DEFAULT_SANDBOX_LIMITS,
  LimitFlagError,
  limitsFromFlags,
  limitsUsage,
  resolveLimits,
  toEvalLimits,
} from "../../src/sandbox/limits.ts";

Deno.test("limits: defaults are generous", () => {
  assert.ok(DEFAULT_SANDBOX_LIMITS.maxSteps >= 10_000_000);
  assert.ok(DEFAULT_SANDBOX_LIMITS.maxToolResultBytes >= 16 * 1024 * 1024);
  assert.ok(DEFAULT_SANDBOX_LIMITS.timeoutMs >= 5_000);
});

Deno.test("limits: layers merge, later wins, undefined is ignored", () => {
  const l = resolveLimits({ timeoutMs: 100, maxSteps: 5 }, { timeoutMs: 200, maxSteps: undefined });
  assert.equal(l.timeoutMs, 200);
  assert.equal(l.maxSteps, 5);
  assert.equal(l.maxPrintChars, DEFAULT_SANDBOX_LIMITS.maxPrintChars);
});

Deno.test("limits: unknown keys and bad values are refused by name", () => {
  assert.throws(() => resolveLimits({ nope: 1 } as never), /unknown sandbox limit 'nope'/);
  assert.throws(() => resolveLimits({ timeoutMs: -1 }), /'timeoutMs' must be a non-negative number/);
});

Deno.test("limits: conversion to the language's EvalLimits carries the deadline", () => {
  const e = toEvalLimits(resolveLimits({ maxSteps: 7 }), 12345);
  assert.equal(e.deadline, 12345);
  assert.equal(e.maxSteps, 7);
  assert.equal("timeoutMs" in e, false);
});

Deno.test("limits: flags parse with units; bad values name the flag", () => {
  assert.deepEqual(limitsFromFlags({ "timeout-ms": "250", "max-memory-mb": "64", other: "x" }), {
    timeoutMs: 250,
    maxAllocBytes: 64 * 1024 * 1024,
  });
  assert.throws(() => limitsFromFlags({ "max-steps": "1e6" }), LimitFlagError);
  assert.throws(() => limitsFromFlags({ "max-steps": "0" }), /^LimitFlagError: --max-steps must be at least 1, got 0$/);
  assert.throws(
    () => limitsFromFlags({ "max-memory-mb": "99999999999999" }),
    /--max-memory-mb is too large \(at most \d+\), got 99999999999999/,
  );
  assert.throws(() => limitsFromFlags({ "timeout-ms": true }), /--timeout-ms expects a whole number/);
});

Deno.test("limits: usage lists every flag with its default", () => {
  const text = limitsUsage().join("\n");
  for (const flag of ["--timeout-ms", "--max-steps", "--max-memory-mb", "--max-print-chars", "--max-program-bytes"]) {
    assert.ok(text.includes(flag), flag);
  }
  assert.match(text, /--max-memory-mb N\s+MiB the program may allocate \(default 256\)/);
});

Deno.test("limits: the language budgets default to the language's own defaults; the sandbox adds host keys", async () => {
  const { DEFAULT_EVAL_LIMITS: LANGUAGE } = await import("../../src/lisp/runtime.ts");
  const { deadline, ...converted } = toEvalLimits(DEFAULT_SANDBOX_LIMITS, 1);
  assert.equal(deadline, 1);
  assert.deepEqual(converted, LANGUAGE);
  const hostKeys = Object.keys(DEFAULT_SANDBOX_LIMITS).filter((k) => !Object.hasOwn(LANGUAGE, k)).sort();
  assert.deepEqual(hostKeys, ["graceMs", "maxResultChars", "maxToolResultBytes", "timeoutMs"]);
});

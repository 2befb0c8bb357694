/**
 * Upstream schema patterns on RE2 (`src/upstream/linear_pattern.ts`) against V8's backtracking engine, measured in the
 * same run:
 *
 * 1. benign patterns on typical values: median time per match, RE2 / V8;
 * 2. a tool input schema with patterns checked by `@cfworker/json-schema`: the upstream's schema as is (V8) against
 *    ptc's host schema (`host_schema.ts`, patterns as RE2-backed formats), per validation;
 * 3. the hostile patterns of issue 20: V8 on growing inputs (stopped while each run stays under a second) against RE2
 *    on the full hostile input and on 100 000 characters.
 *
 *   deno run -A bench/patterns/main.ts [--repeat 20000]
 * @module
 */
import { parseArgs } from "node:util";
import { Validator } from "@cfworker/json-schema";
import { linearPattern } from "../../src/upstream/linear_pattern.ts";
import { hostSchema } from "../../src/upstream/host_schema.ts";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Median of 9 batches of `n` calls, in microseconds per call. */
function perCall(n: number, f: () => void): number {
  const batches: number[] = [];
  for (let b = 0; b < 9; b++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    batches.push(((performance.now() - t) * 1000) / n);
  }
  return median(batches);
}

const BENIGN: [string, string[]][] = [
  ["^trc_[0-9a-f]{16}$", ["trc_0123456789abcdef", "trc_0123456789abcdeg", "x"]],
  ["^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", ["ada@example.org", "not an email", "a@b.c"]],
  ["^\\d{4}-\\d{2}-\\d{2}$", ["2026-12-04", "2026-1-4", ""]],
  ["^[\\t -~]*$", ["a header value with\ttabs", "bad\nline"]],
];

function benign(repeat: number): void {
  console.log("## benign patterns: µs per match (median), RE2 / V8");
  console.log("| pattern | V8 | RE2 | RE2/V8 |\n| --- | --- | --- | --- |");
  for (const [p, inputs] of BENIGN) {
    const v8 = new RegExp(p, "u");
    const re2 = linearPattern(p);
    if (!re2.ok) throw new Error(`${p}: ${re2.reason}`);
    const a = perCall(repeat, () => inputs.forEach((s) => v8.test(s)));
    const b = perCall(repeat, () => inputs.forEach((s) => re2.test(s)));
    console.log(`| \`${p}\` | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(1)} |`);
  }
}

function validation(repeat: number): void {
  const schema = {
    type: "object",
    properties: {
      trace_id: { type: "string", pattern: "^trc_[0-9a-f]{16}$" },
      org: { type: "string", pattern: "^[a-z][a-z0-9-]{1,30}$" },
      since: { type: "string", format: "date" },
      limit: { type: "integer", minimum: 1, maximum: 100 },
    },
    required: ["trace_id"],
  };
  const args = { trace_id: "trc_0123456789abcdef", org: "acme", since: "2026-12-01", limit: 20 };
  const v8 = new Validator(schema as never, "2020-12", false);
  const host = new Validator(hostSchema(schema).schema as never, "2020-12", false);
  const a = perCall(repeat, () => v8.validate(args));
  const b = perCall(repeat, () => host.validate(args));
  console.log("\n## one tool's arguments validated: µs per validation (median)");
  console.log(
    `upstream schema as is (V8): ${a.toFixed(2)} · host schema (RE2): ${b.toFixed(2)} · ratio ${(b / a).toFixed(2)}`,
  );
}

function hostile(): void {
  console.log("\n## hostile patterns: ms per match");
  const cases: [string, (n: number) => string, number][] = [
    ["^(a+)+$", (n) => "a".repeat(n) + "!", 40],
    ["^a*a*a*a*a*a*a*a*a*b$", (n) => "a".repeat(n), 80],
  ];
  for (const [p, input, target] of cases) {
    const v8 = new RegExp(p, "u");
    const growth: string[] = [];
    for (let n = 8; n <= target; n += 2) {
      const t = performance.now();
      v8.test(input(n));
      const d = performance.now() - t;
      growth.push(`n=${n}: ${d.toFixed(1)}`);
      if (d > 250) break;
    }
    const re2 = linearPattern(p);
    if (!re2.ok) throw new Error(p);
    const t1 = performance.now();
    re2.test(input(target));
    const full = performance.now() - t1;
    const t2 = performance.now();
    re2.test(input(100_000));
    const big = performance.now() - t2;
    console.log(
      `\`${p}\` V8 ${growth.slice(-4).join(", ")} (stopped) · RE2 n=${target}: ${full.toFixed(2)}, ` +
        `n=100000: ${big.toFixed(2)}`,
    );
  }
}

/** Run the suite. */
export function run(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { repeat: { type: "string" } }, strict: false });
  const repeat = Number(values.repeat ?? 20_000);
  benign(repeat);
  validation(Math.max(1, repeat >> 2));
  hostile();
  return Promise.resolve();
}

if (import.meta.main) await run(Deno.args);

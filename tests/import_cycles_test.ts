/**
 * No import cycles (docs/architecture.md, "Allowed arrows"). Two graphs are checked over src/ and transports/:
 * - run-time imports (everything but `import type` / `export type`): no cycle at all, except the one the value model
 *   has by nature (listed below, with why);
 * - all imports, type-only included: no cycle outside the value model's folder, so a module's types never depend on a
 *   module that depends on it (the cycle analyze.ts once had with symbols.ts, calls.ts and take_range.ts).
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The one run-time cycle allowed: a map stores keys by hash (hashmap.ts, hamt.ts → equality.ts) and hashing or
 * comparing a value must see maps and sets (equality.ts → hashmap.ts). Neither side uses the other while the modules
 * load, so evaluation order cannot bite.
 */
const ALLOWED_RUNTIME_CYCLES = [
  ["src/lisp/values/equality.ts", "src/lisp/values/hamt.ts", "src/lisp/values/hashmap.ts"].join(" "),
];

/** Type-only cycles are allowed inside this folder: the `Value` union and the collections holding values. */
const TYPE_CYCLE_FOLDER = "src/lisp/values/";

/** Edges of one module: `[specifier, typeOnly]` for every relative static, re-export, side-effect or dynamic import. */
export function edges(text: string): [string, boolean][] {
  const out: [string, boolean][] = [];
  for (const m of text.matchAll(/^\s*(import|export)(\s+type\b)?[^;]*?from\s+["'](\.[^"']+)["']/gms)) {
    out.push([m[3], m[2] !== undefined]);
  }
  for (const m of text.matchAll(/^\s*import\s+["'](\.[^"']+)["']/gm)) out.push([m[1], false]);
  for (const m of text.matchAll(/\bimport\s*\(\s*["'`](\.[^"'`]+)["'`]\s*\)/g)) out.push([m[1], false]);
  return out;
}

/** Strongly connected components with more than one module (or a module importing itself), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

async function* modules(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* modules(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

async function graphs(): Promise<{ runtime: Map<string, string[]>; all: Map<string, string[]> }> {
  const runtime = new Map<string, string[]>();
  const all = new Map<string, string[]>();
  for (const top of ["src", "transports"]) {
    for await (const file of modules(join(ROOT, top))) {
      const from = relative(ROOT, file);
      const text = await Deno.readTextFile(file);
      const rt: string[] = [];
      const every: string[] = [];
      for (const [spec, typeOnly] of edges(text)) {
        const to = relative(ROOT, resolve(dirname(file), spec));
        every.push(to);
        if (!typeOnly) rt.push(to);
      }
      runtime.set(from, rt);
      all.set(from, every);
    }
  }
  return { runtime, all };
}

Deno.test("import cycles: no run-time cycle in src/ or transports/ beyond the value model's one", async () => {
  const { runtime } = await graphs();
  const found = cycles(runtime).map((c) => c.join(" ")).filter((c) => !ALLOWED_RUNTIME_CYCLES.includes(c));
  assert.deepEqual(found, []);
});

Deno.test("import cycles: type-only cycles only inside the value model", async () => {
  const { all } = await graphs();
  const found = cycles(all).filter((c) => !c.every((m) => m.startsWith(TYPE_CYCLE_FOLDER)));
  assert.deepEqual(found.map((c) => c.join(" ")), []);
});

Deno.test("import cycles: the finder sees a cycle through type and dynamic imports", () => {
  const text = 'import type { A } from "./a.ts";\nimport { b } from "./b.ts";\nconst c = await import("./c.ts");';
  assert.deepEqual(edges(text), [["./a.ts", true], ["./b.ts", false], ["./c.ts", false]]);
  const g = new Map([["x", ["y"]], ["y", ["z"]], ["z", ["x"]], ["w", ["x"]]]);
  assert.deepEqual(cycles(g), [["x", "y", "z"]]);
  assert.deepEqual(cycles(new Map([["x", ["x"]]])), [["x"]]);
});

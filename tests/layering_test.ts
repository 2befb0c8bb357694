/**
 * The folder layout is the architecture (ARCHITECTURE.md §1): imports only point down. This test reads every
 * module's import specifiers and fails on an arrow pointing the wrong way.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Layer of a repository path, or undefined for files outside the layered tree. */
function layer(path: string): string | undefined {
  const m = /^(src\/(lisp|sandbox|upstream|engine|mcp|repl|cli)|transports\/(\w+))\//.exec(path);
  if (!m) return path.startsWith("src/") ? "src-root" : undefined;
  return m[2] ?? `transport:${m[3]}`;
}

/** Which layers each layer may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  "lisp": [],
  "sandbox": ["lisp"],
  "upstream": [],
  "transport:mod.ts": [],
  "engine": ["sandbox", "lisp", "upstream", "transport:*"],
  "mcp": ["engine", "sandbox", "lisp", "upstream", "src-root"],
  "repl": ["engine", "sandbox", "lisp", "upstream", "src-root"],
  "cli": ["*"],
  "src-root": [],
};

function allowed(from: string, to: string): boolean {
  if (from === to) return true;
  if (from.startsWith("transport:")) {
    // a transport may use src/upstream helpers and the shared MCP library, never another transport
    return to === "upstream" || to === "transport:mcp_common";
  }
  const list = ALLOWED[from] ?? [];
  return list.includes("*") || list.includes(to) || (to.startsWith("transport:") && list.includes("transport:*"));
}

async function* modules(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* modules(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

Deno.test("layering: imports only point down (lisp knows no transports; transports never import each other)", async () => {
  const violations: string[] = [];
  for (const top of ["src", "transports"]) {
    for await (const file of modules(join(ROOT, top))) {
      const from = layer(relative(ROOT, file));
      if (!from) continue;
      const text = await Deno.readTextFile(file);
      for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/gms)) {
        const target = relative(ROOT, resolve(dirname(file), m[1]));
        const to = target.startsWith("transports/") && !target.includes("/", "transports/".length)
          ? "transport:mod.ts"
          : layer(target);
        if (!to || from === "transport:mod.ts") continue;
        if (!allowed(from, to)) violations.push(`${relative(ROOT, file)} (${from}) imports ${target} (${to})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

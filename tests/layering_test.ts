/**
 * The folder layout is the architecture (docs/architecture.md): imports only point down. This test reads every
 * module's import specifiers and fails on an arrow pointing the wrong way.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Layer of a repository path, or undefined for files outside the layered tree. */
function layer(path: string): string | undefined {
  const m = /^(src\/(core|lisp|sandbox|upstream|engine|mcp|repl|view|cli)|transports\/(\w+))\//.exec(path);
  if (!m) return path.startsWith("src/") ? "src-root" : undefined;
  return m[2] ?? `transport:${m[3]}`;
}

/** Which layers each layer may import (besides itself and `core`, the leaf every layer may use). */
const ALLOWED: Record<string, string[]> = {
  "core": [],
  "lisp": [],
  "sandbox": ["lisp"],
  "upstream": [],
  "transport:mod.ts": [],
  "engine": ["sandbox", "lisp", "upstream"],
  "mcp": ["engine", "sandbox", "lisp", "upstream", "src-root"],
  "repl": ["engine", "sandbox", "lisp", "upstream", "src-root"],
  // the viewer reads recordings and results through the engine, and stands behind the MCP face's door (guards, auth)
  "view": ["mcp", "engine", "upstream", "src-root"],
  "cli": ["*"],
  "src-root": [],
};

/**
 * The src/upstream modules a transport may import (docs/transports.md, "What a transport may import"): the
 * contracts, and helpers that carry no knowledge of any one transport. Everything else in src/upstream is the
 * runtime above the seam.
 */
const TRANSPORT_UPSTREAM_IMPORTS = [
  "src/upstream/types.ts",
  "src/upstream/http_client.ts",
  "src/upstream/headers.ts",
  "src/upstream/bytes.ts",
  "src/upstream/config_keys.ts",
  "src/upstream/duplicate_keys.ts",
  "src/upstream/messages.ts",
  "src/upstream/tool_names.ts",
  "src/upstream/pagination.ts",
  "src/upstream/host_schema.ts",
];

/** Transport folders every transport may use (shared libraries, not transports). */
const SHARED_TRANSPORT_FOLDERS = ["transport:mcp_common", "transport:http_common"];

function allowed(from: string, to: string, target: string): boolean {
  if (from === to) return true;
  // src/core (JSON types, the tool seam, suggestions) is the leaf: every layer may import it, it imports nothing
  if (to === "core") return true;
  if (from === "core") return false;
  if (from.startsWith("transport:")) {
    // a transport may use the listed src/upstream modules and the shared transport libraries, never another
    // transport, the runtime or a face
    if (to === "upstream") return TRANSPORT_UPSTREAM_IMPORTS.includes(target);
    return SHARED_TRANSPORT_FOLDERS.includes(to);
  }
  const list = ALLOWED[from] ?? [];
  return list.includes("*") || list.includes(to) || (to.startsWith("transport:") && list.includes("transport:*"));
}

/**
 * Every relative module specifier of a source text: static `import`/`export … from`, side-effect `import "…"` and
 * dynamic `import("…")` with a string literal.
 */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+["'](\.[^"']+)["']/gms)) out.push(m[1]);
  for (const m of text.matchAll(/^\s*import\s+["'](\.[^"']+)["']/gm)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\s*\(\s*["'`](\.[^"'`]+)["'`]\s*\)/g)) out.push(m[1]);
  return out;
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
      for (const spec of specifiers(text)) {
        const target = relative(ROOT, resolve(dirname(file), spec));
        const to = target.startsWith("transports/") && !target.includes("/", "transports/".length)
          ? "transport:mod.ts"
          : layer(target);
        if (!to || from === "transport:mod.ts") continue;
        if (!allowed(from, to, target)) violations.push(`${relative(ROOT, file)} (${from}) imports ${target} (${to})`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

Deno.test("layering: the scanner sees static, re-exported, side-effect and dynamic imports", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type {\n  B,\n} from "../b.ts";',
    'export { c } from "./c.ts";',
    'export * from "./d.ts";',
    'import "./e.ts";',
    'const f = await import("./f.ts");',
    "const g = () => import('../g.ts');",
    'import { h } from "npm:h";',
  ].join("\n");
  assert.deepEqual(specifiers(text).sort(), ["../b.ts", "../g.ts", "./a.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts"]);
});

Deno.test("layering: a transport may import only the listed src/upstream modules", () => {
  assert.ok(allowed("transport:openapi", "upstream", "src/upstream/types.ts"));
  assert.ok(allowed("transport:openapi", "transport:http_common", "transports/http_common/config.ts"));
  assert.ok(!allowed("transport:openapi", "upstream", "src/upstream/runtime.ts"));
  assert.ok(!allowed("transport:openapi", "transport:mcp_stdio", "transports/mcp_stdio/mod.ts"));
  assert.ok(!allowed("transport:mcp_http", "engine", "src/engine/engine.ts"));
  assert.ok(!allowed("engine", "transport:mod.ts", "transports/mod.ts"));
});

Deno.test("layering: src/core is a leaf — no import leaves it, not even an npm, node or jsr package", async () => {
  const outside: string[] = [];
  for await (const file of modules(join(ROOT, "src/core"))) {
    const text = await Deno.readTextFile(file);
    const specs = [
      ...text.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gms),
      ...text.matchAll(/^\s*import\s+"([^"]+)"/gm),
      ...text.matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]/g),
    ].map((m) => m[1]);
    for (const spec of specs) {
      const inside = spec.startsWith(".") && layer(relative(ROOT, resolve(dirname(file), spec))) === "core";
      if (!inside) outside.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
});

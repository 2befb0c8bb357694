/**
 * Every `program ;=> result` line inside a clojure code block of docs/language.md is evaluated and compared with the
 * printed result exactly (`;=> ERR :reason` expects a failure with that reason). `; ->` lines are illustrations that
 * need a host and are not checked.
 */
import assert from "node:assert/strict";
import { createSession } from "../../../src/lisp/mod.ts";
import type { HostTools, ToolOutcome, ToolRequest } from "../../../src/core/tool_seam.ts";
import type { JsonValue } from "../../../src/core/json.ts";

const DOC = new URL("../../../docs/language.md", import.meta.url);

/** Extracts the checked examples of a markdown text. */
export function docExamples(markdown: string): { line: number; src: string; expect: string }[] {
  const out: { line: number; src: string; expect: string }[] = [];
  let inBlock = false;
  markdown.split("\n").forEach((text, i) => {
    if (text.startsWith("```")) {
      inBlock = text.startsWith("```clojure");
      return;
    }
    const at = text.lastIndexOf(";=>");
    if (inBlock && at > 0) out.push({ line: i + 1, src: text.slice(0, at).trim(), expect: text.slice(at + 3).trim() });
  });
  return out;
}

const TRACES: JsonValue[] = [
  { id: "tr-1", status: "error", error_class: "timeout" },
  { id: "tr-2", status: "error", error_class: "rate_limited" },
  { id: "tr-3", status: "error", error_class: "timeout" },
];

/** The fake `observatory` server the tool examples of the page run against (host tool `call`). */
function observatory(req: ToolRequest): ToolOutcome {
  const { server, tool, args } = req.args as { server: string; tool: string; args: Record<string, JsonValue> };
  if (req.name !== "call" || server !== "observatory") {
    return { kind: "raise", reason: "runtime_error", message: `no upstream '${server}' configured` };
  }
  if (tool === "list-traces") return { kind: "tagged", ok: true, value: TRACES, valueKind: "json" };
  if (tool === "get-trace") {
    const id = String(args.id);
    return ["tr-1", "tr-2", "tr-3"].includes(id)
      ? { kind: "tagged", ok: true, value: { id, duration_ms: 100 }, valueKind: "json" }
      : { kind: "tagged", ok: false, reason: "not_found", message: `no trace '${id}'` };
  }
  return { kind: "raise", reason: "runtime_error", message: `no tool '${tool}' in upstream 'observatory'` };
}

const FAKE_TOOLS: HostTools = {
  names: () => ["call"],
  call: observatory,
  callBatch: (reqs) => reqs.map(observatory),
};

const examples = docExamples(Deno.readTextFileSync(DOC));

Deno.test(`docs/language.md has checked examples (${examples.length})`, () => {
  assert.ok(examples.length >= 60);
});

Deno.test("docs/language.md examples match the implementation", () => {
  const failures: string[] = [];
  for (const ex of examples) {
    const r = createSession().eval(ex.src, {
      tools: FAKE_TOOLS,
      limits: { maxSteps: 1_000_000, deadline: Date.now() + 5_000 },
    });
    const err = ex.expect.match(/^ERR :(\S+)$/);
    const ok = err ? !r.ok && r.reason === err[1] : r.ok && r.printed === ex.expect;
    if (!ok) {
      failures.push(
        `line ${ex.line}: ${ex.src}\n    doc:            ${ex.expect}\n    implementation: ${
          r.ok ? r.printed : `ERR :${r.reason} (${r.message})`
        }`,
      );
    }
  }
  assert.equal(failures.length, 0, `${failures.length} doc examples disagree:\n  ${failures.join("\n  ")}`);
});

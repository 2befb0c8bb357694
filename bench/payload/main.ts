/**
 * Payload benchmark: the bytes one `lisp_eval` answer costs on the wire in each response profile (the serialized
 * `CallToolResult`: text content plus `structuredContent`), for a small answer and for a ~45 KB one (the top 120 traces
 * of the Lisp benchmark's dataset, steps dropped). `--baseline DIR` renders the same results with another tree's
 * `src/mcp/envelope.ts` in the same run (e.g. a `git worktree add` of an older commit).
 * @module
 */
import { parseArgs } from "node:util";
import { createSession } from "../../src/lisp/mod.ts";
import type { EngineEvalResult } from "../../src/engine/types.ts";
import { generateTraces } from "../lisp/dataset.ts";

type Render = (r: EngineEvalResult, o: { profile: "slim" | "structured" | "debug" }) => unknown;

const PROGRAMS = {
  small: "(->> data (map :status) frequencies)",
  large: "(->> data (sort-by :cost_usd >) (take 120) (mapv #(dissoc % :steps)))",
};

function resultOf(program: string, data: unknown): EngineEvalResult {
  const r = createSession().eval(program, { globals: { data: data as never } });
  if (!r.ok) throw new Error(`${r.reason}: ${r.message}`);
  return { ok: true, status: "ok", printed: r.printed, json: r.json, prints: [], calls: [], elapsedMs: 0 };
}

/** Suite entry (see bench/README.md). */
export async function run(args: string[] = []): Promise<void> {
  const { values } = parseArgs({ args, options: { baseline: { type: "string" } }, strict: false });
  const trees: [string, string][] = [["this tree", new URL("../../", import.meta.url).pathname]];
  if (typeof values.baseline === "string") trees.push(["baseline", values.baseline.replace(/\/?$/, "/")]);
  const data = generateTraces(2000, 42);
  const results = Object.entries(PROGRAMS).map(([k, p]) => [k, resultOf(p, data)] as const);
  console.log(`\nbytes of one lisp_eval result (serialized CallToolResult)`);
  console.log(
    `${"tree".padEnd(12)}${"answer".padEnd(8)}${"slim".padStart(10)}${"structured".padStart(12)}${
      "debug".padStart(10)
    }`,
  );
  for (const [label, dir] of trees) {
    const { renderEvalResult } = await import(`${dir}src/mcp/envelope.ts`) as { renderEvalResult: Render };
    for (const [name, r] of results) {
      const bytes = (["slim", "structured", "debug"] as const).map((profile) =>
        new TextEncoder().encode(JSON.stringify(renderEvalResult(r, { profile }))).length
      );
      console.log(
        `${label.padEnd(12)}${name.padEnd(8)}${bytes[0].toString().padStart(10)}${bytes[1].toString().padStart(12)}${
          bytes[2].toString().padStart(10)
        }   structured/slim ${(bytes[1] / bytes[0]).toFixed(2)}`,
      );
    }
  }
}

if (import.meta.main) await run(Deno.args);

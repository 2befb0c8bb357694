/**
 * Run the official MCP conformance suite (`@modelcontextprotocol/conformance`, the release that knows 2026-07-28,
 * installed under tests/peers) against `ptc mcp --http` and explain every failing check.
 *
 *   deno run -A scripts/mcp_conformance.ts [--requirements 2026-07-28] [--out DIR] [--json] [-- extra ptc mcp flags]
 *
 * It starts `ptc mcp --http 127.0.0.1:0 --sessions --introspection` (plus the extra flags), runs the suite with
 * `--requirements <revision>`, reads every `checks.json`, and classifies each failure:
 *
 * - `fixture_tool`   — the scenario drives a diagnostic tool of the suite's reference server (`test_simple_text`, …)
 *                      that a real server does not offer;
 * - `not_offered`    — a feature ptc deliberately does not serve: prompts, resources, completion, the tasks extension,
 *                      `x-mcp-header` tool parameters, input-required (elicitation/sampling/roots) round trips;
 * - `unexplained`    — anything else: a real bug. The script exits 1 when there is any.
 *
 * Loopback only; the server is always stopped.
 * @module
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT, spawnHttpServer } from "../tests/integration/ptc_mcp_child.ts";

const SUITE = join(ROOT, "tests/peers/node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** One check of one scenario as the suite records it. */
export interface Check {
  scenario: string;
  id: string;
  status: string;
  message: string;
}

/** Why a non-passing check fails. */
export type Verdict = "fixture_tool" | "not_offered" | "unexplained";

/** Classify a failing (or warning) check; the explanation names what is missing. */
export function classify(check: Check): { verdict: Verdict; why: string; tool?: string } {
  const m = check.message;
  const tool = /Tool '?([A-Za-z0-9_]+)'? not found/.exec(m) ?? /diagnostic tool '([^']+)'/.exec(m);
  if (tool) return { verdict: "fixture_tool", why: "a diagnostic tool of the suite's reference server", tool: tool[1] };
  if (/^tasks-/.test(check.scenario) || /tasks\/|capabilities\.extensions|task was created|routing-task/.test(m)) {
    return { verdict: "not_offered", why: "tasks extension (SEP-2663) not offered" };
  }
  if (/x-mcp-header/.test(m)) return { verdict: "not_offered", why: "no tool declares x-mcp-header parameters" };
  if (/^prompts-|^resources-|^completion-|^sep-2164/.test(check.scenario) || /(prompts|resources)\//.test(m)) {
    return { verdict: "not_offered", why: "prompts/resources/completion are not offered (tools only)" };
  }
  if (/^input-required-result-/.test(check.scenario)) {
    return { verdict: "not_offered", why: "ptc tools never request client input (no elicitation/sampling/roots)" };
  }
  if (/list_changed|listChanged/.test(m) || /list-changed/.test(check.id)) {
    return { verdict: "not_offered", why: "the tool list is frozen; no list_changed notifications" };
  }
  return { verdict: "unexplained", why: m };
}

/** Read every checks.json under `dir`. */
export async function readChecks(dir: string): Promise<Check[]> {
  const out: Check[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isDirectory) continue;
    const scenario = e.name.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T.*$/, "");
    let raw: unknown;
    try {
      raw = JSON.parse(await Deno.readTextFile(join(dir, e.name, "checks.json")));
    } catch {
      continue;
    }
    for (const c of raw as { id: string; status: string; errorMessage?: string; description?: string }[]) {
      out.push({ scenario, id: c.id, status: c.status, message: c.errorMessage ?? c.description ?? "" });
    }
  }
  return out.sort((a, b) => a.scenario.localeCompare(b.scenario) || a.id.localeCompare(b.id));
}

async function main(argv: string[]): Promise<number> {
  const sep = argv.indexOf("--");
  const { values } = parseArgs({
    args: sep >= 0 ? argv.slice(0, sep) : argv,
    options: {
      requirements: { type: "string", default: "2026-07-28" },
      out: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const extra = sep >= 0 ? argv.slice(sep + 1) : [];
  const out = values.out ?? await Deno.makeTempDir({ prefix: "ptc-conformance-" });
  const server = await spawnHttpServer(["--sessions", "--introspection", ...extra]);
  let log = "";
  try {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SUITE, "server", "--url", server.url, "--requirements", values.requirements!, "-o", out],
      stdout: "piped",
      stderr: "piped",
    }).output();
    log = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
  } finally {
    await server.stop();
  }
  const checks = await readChecks(out);
  const passed = checks.filter((c) => c.status === "SUCCESS").length;
  const failing = checks.filter((c) => c.status === "FAILURE");
  const warnings = checks.filter((c) => c.status === "WARNING");
  const classified = failing.map((c) => ({ ...c, ...classify(c) }));
  const unexplained = classified.filter((c) => c.verdict === "unexplained");
  const total = /Total: (\d+) passed, (\d+) failed/.exec(log);
  if (values.json) {
    console.log(JSON.stringify({ requirements: values.requirements, passed, failing: classified, warnings }, null, 1));
  } else {
    console.log(`conformance ${values.requirements} against ptc mcp --http (results in ${out})`);
    if (total) console.log(`suite summary: ${total[1]} passed, ${total[2]} failed`);
    console.log(`checks: ${passed} passed, ${failing.length} failed, ${warnings.length} warnings`);
    const byWhy = new Map<string, typeof classified>();
    for (const c of classified) {
      byWhy.set(`${c.verdict}: ${c.why}`, [...(byWhy.get(`${c.verdict}: ${c.why}`) ?? []), c]);
    }
    for (const [why, list] of [...byWhy].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`  ${list.length} × ${why}`);
      console.log(`      scenarios: ${[...new Set(list.map((c) => c.scenario))].join(", ")}`);
      const tools = [...new Set(list.map((c) => c.tool).filter(Boolean))];
      if (tools.length) console.log(`      tools: ${tools.join(", ")}`);
    }
    for (const w of warnings) console.log(`  warning ${w.scenario}/${w.id}: ${w.message.slice(0, 160)}`);
    console.log(
      unexplained.length === 0 ? "every failure is explained" : `${unexplained.length} UNEXPLAINED failure(s)`,
    );
  }
  return unexplained.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));

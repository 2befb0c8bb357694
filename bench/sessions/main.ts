/**
 * Memory of idle `ptc mcp` sessions: RSS of the server and all its descendants (read from /proc) with 0, 16 and 48
 * idle sessions, each having evaluated one definition, for a server that keeps each session's sandbox process
 * (`--session-park-ms 0`, the behaviour before parking) and one that parks idle sessions (the default). Both servers
 * run in the same bench run, so the ratio between them is the figure to read.
 *
 * Usage: `deno task bench sessions`, or `deno run -A bench/sessions/main.ts`. Takes about a minute.
 * @module
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { spawnHttpServer } from "../../tests/integration/ptc_mcp_child.ts";

const MiB = 1024 * 1024;

/** RSS in bytes of `pid` and every process below it (from /proc). */
export function treeRss(pid: number): number {
  const children = new Map<number, number[]>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e.name));
      children.set(ppid, list);
    } catch { /* gone */ }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(Deno.readTextFileSync(`/proc/${p}/status`))?.[1] ?? 0);
      total += kb * 1024;
    } catch { /* gone */ }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

async function measure(parkMs: number): Promise<number[]> {
  const server = await spawnHttpServer([
    "--sessions",
    "--max-sessions",
    "64",
    "--max-sessions-per-owner",
    "64",
    "--session-park-ms",
    String(parkMs),
    "--response-profile",
    "structured",
  ]);
  const client = new Client({ name: "bench-sessions", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const settle = () => new Promise((r) => setTimeout(r, parkMs > 0 ? parkMs + 1500 : 1500));
  const out: number[] = [];
  try {
    let open = 0;
    for (const target of [0, 16, 48]) {
      for (; open < target; open++) {
        const s = await client.callTool({ name: "lisp_session_start", arguments: {} });
        const sid = (s.structuredContent as { session_id: string }).session_id;
        await client.callTool({
          name: "lisp_session_eval",
          arguments: { session_id: sid, program: `(def xs (vec (range 1000))) (defn f [n] (* n 2)) (count xs)` },
        });
      }
      await settle();
      out.push(treeRss(server.child.pid));
    }
  } finally {
    await client.close();
    await server.stop();
  }
  return out;
}

/** Run the suite. */
export async function run(_args: string[]): Promise<void> {
  const kept = await measure(0);
  const parked = await measure(500);
  const row = (name: string, r: number[]) =>
    `${name.padEnd(28)} ${r.map((b) => `${(b / MiB).toFixed(0).padStart(6)} MiB`).join("  ")}   per idle session ` +
    `(48 vs 0): ${((r[2] - r[0]) / 48 / MiB).toFixed(1)} MiB`;
  console.log(`idle sessions:               ${[0, 16, 48].map((n) => `${String(n).padStart(10)}`).join("  ")}`);
  console.log(row("kept (--session-park-ms 0)", kept));
  console.log(row("parked (--session-park-ms 500)", parked));
  console.log(`ratio parked/kept at 48: ${(parked[2] / kept[2]).toFixed(2)}`);
}

if (import.meta.main) await run(Deno.args);

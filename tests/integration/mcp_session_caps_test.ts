/**
 * Session caps under a burst: 40 concurrent `lisp_session_start` calls through the official MCP SDK client open
 * exactly the per-owner cap, and two owners (clients behind a trusted proxy) together exactly the total cap. A `busy`
 * answer (the start waits for the evaluation gate) is retried, as a client is told to; `/health` answers throughout.
 */
import assert from "node:assert/strict";
import { type Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { newClient, spawnHttpServer } from "./mcp_server_helpers.ts";

/** A client that declares `forwardedFor` as its address (believed: the test's 127.0.0.1 is the trusted proxy). */
async function clientFrom(url: string, forwardedFor?: string): Promise<Client> {
  const client = newClient("auto");
  const headers: Record<string, string> = forwardedFor ? { "x-forwarded-for": forwardedFor } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The error reason of a tool result (`[reason] …` in the slim profile), or "opened". */
function outcome(result: unknown): string {
  const r = result as { isError?: boolean; content: { text: string }[] };
  if (!r.isError) return "opened";
  return /^\[?(\w+)\]?/.exec(r.content[0].text)?.[1] ?? r.content[0].text;
}

/** One start, retried while the server answers `busy`; returns "opened" or the refusal's reason. */
async function startSession(client: Client): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const got = outcome(await client.callTool({ name: "lisp_session_start", arguments: {} }));
    if (got !== "busy") return got;
    await new Promise((r) => setTimeout(r, 20));
  }
  return "busy";
}

async function healthy(origin: string): Promise<boolean> {
  const res = await fetch(`${origin}/health`);
  await res.body?.cancel();
  return res.status === 200;
}

Deno.test("40 concurrent session starts open exactly the per-owner cap, and owners together the total", async () => {
  const server = await spawnHttpServer([
    "--sessions",
    "--max-sessions",
    "7",
    "--max-sessions-per-owner",
    "4",
    "--max-concurrent-calls",
    "2",
    "--trusted-proxy",
    "127.0.0.1/32",
    "--response-profile",
    "structured",
  ]);
  const clients: Client[] = [];
  try {
    // Per owner: one client, 40 starts at once.
    const alice = await clientFrom(server.url, "198.51.100.1");
    clients.push(alice);
    const probe = healthy(server.origin);
    const first = await Promise.all(Array.from({ length: 40 }, () => startSession(alice)));
    assert.ok(await probe);
    assert.equal(first.filter((o) => o === "opened").length, 4, first.join(" "));
    assert.deepEqual(new Set(first.filter((o) => o !== "opened")), new Set(["session_limit"]));
    const listed = await alice.callTool({ name: "lisp_session_list", arguments: {} });
    assert.equal((listed.structuredContent as { sessions: unknown[] }).sessions.length, 4);

    // In total: two more owners, 40 starts each at once; 3 slots are left of 7.
    const bob = await clientFrom(server.url, "198.51.100.2");
    const carol = await clientFrom(server.url, "198.51.100.3");
    clients.push(bob, carol);
    const burst = await Promise.all([
      ...Array.from({ length: 40 }, () => startSession(bob)),
      ...Array.from({ length: 40 }, () => startSession(carol)),
    ]);
    assert.equal(burst.filter((o) => o === "opened").length, 3, burst.join(" "));
    assert.ok(await healthy(server.origin));
    // The sessions that opened work.
    const sid = (await alice.callTool({ name: "lisp_session_list", arguments: {} })).structuredContent as {
      sessions: { session_id: string }[];
    };
    const r = await alice.callTool({
      name: "lisp_session_eval",
      arguments: { session_id: sid.sessions[0].session_id, program: "(def x 41) (inc x)" },
    });
    assert.equal(outcome(r), "opened");
  } finally {
    for (const c of clients) await c.close();
    const code = await server.stop();
    assert.equal(code, 0, server.stderr());
  }
});

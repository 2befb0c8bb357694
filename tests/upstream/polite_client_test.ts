/**
 * Being a polite client, against a real loopback service through the real OpenAPI transport: at most
 * `max_concurrent_requests` calls to one upstream are in flight (the service counts them), the others wait their turn
 * inside their call's time (or give up unsent when it runs out); a read answered 429/503 with a `Retry-After` that fits
 * the call's time is sent once more after that delay, a write never is, and a delay past the call's time is not waited.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseConfigText, type PtcConfig } from "../../src/upstream/config.ts";
import { withRunContext } from "../../src/upstream/run_context.ts";
import type { Runtime } from "../../src/upstream/runtime.ts";
import type { ToolOutcome } from "../../src/core/tool_seam.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { startSettled } from "./settled.ts";

const op = (operationId: string, method = "get") => ({
  [method]: {
    operationId,
    responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
  },
});

const DOC = {
  openapi: "3.1.0",
  info: { title: "polite", version: "1" },
  paths: {
    "/slow": op("slow"),
    "/limited": op("limited"),
    "/busy": op("busy"),
    "/later": op("later"),
    "/write": op("write", "post"),
  },
};

/** The loopback service: counts calls in flight (and the peak), and answers 429/503 once per path with Retry-After. */
function startService() {
  let active = 0;
  let peak = 0;
  const hits: Record<string, number> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
    switch (path) {
      case "/slow": {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 300));
        active--;
        return json({ ok: true });
      }
      case "/limited":
        return hits[path] === 1 ? json({ title: "slow down" }, 429, { "retry-after": "1" }) : json({ n: hits[path] });
      case "/busy":
        return hits[path] === 1 ? json({ title: "busy" }, 503, { "retry-after": "1" }) : json({ n: hits[path] });
      case "/later":
        return json({ title: "come back tomorrow" }, 429, { "retry-after": "3600" });
      case "/write":
        return json({ title: "slow down" }, 429, { "retry-after": "1" });
    }
    return json({}, 404);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    peak: () => peak,
    hits,
    close: () => server.shutdown(),
  };
}

async function setup(upstream: Record<string, unknown>, limits: Record<string, unknown> = {}) {
  const service = startService();
  const dir = await Deno.makeTempDir({ prefix: "ptc-polite-" });
  await Deno.writeTextFile(join(dir, "doc.json"), JSON.stringify(DOC));
  const registry = registerBuiltins();
  const config = parseConfigText(
    JSON.stringify({
      allow_writes: true,
      limits,
      upstreams: {
        api: {
          transport: "openapi",
          base_url: service.url,
          schema_file: "doc.json",
          allow_insecure_http: true,
          include_operations: ["slow", "limited", "busy", "later", "write"],
          operation_overrides: { write: { effect: "write" } },
          ...upstream,
        },
      },
    }),
    dir,
    { registry },
  );
  assert.ok(!Array.isArray(config), JSON.stringify(config));
  const rt = await startSettled(config as PtcConfig, { registry, log: () => {}, allowWrites: true });
  return {
    rt,
    service,
    close: async () => {
      await rt.stop();
      await service.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

type Tagged = Extract<ToolOutcome, { kind: "tagged" }>;

function calls(rt: Runtime, tools: string[]) {
  return withRunContext(
    rt,
    (ctx) => Promise.all(tools.map((tool) => ctx.callTool({ name: "call", args: { server: "api", tool, args: {} } }))),
  );
}

Deno.test("polite client: max_concurrent_requests bounds the calls in flight; the rest wait their turn", async () => {
  const s = await setup({ max_concurrent_requests: 3 });
  try {
    const { value } = await calls(s.rt, Array(12).fill("slow"));
    assert.ok(value.every((v) => (v as Tagged).ok), JSON.stringify(value));
    assert.equal(s.service.peak(), 3, "never more than 3 at once");
    assert.equal(s.service.hits["/slow"], 12);
  } finally {
    await s.close();
  }
});

Deno.test("polite client: the default is 8 at once", async () => {
  const s = await setup({});
  try {
    await calls(s.rt, Array(20).fill("slow"));
    assert.equal(s.service.peak(), 8);
  } finally {
    await s.close();
  }
});

Deno.test("polite client: a call that gets no slot within its time gives up unsent", async () => {
  const s = await setup({ max_concurrent_requests: 1 }, { call_timeout_ms: 400 });
  try {
    const { value } = await calls(s.rt, Array(6).fill("slow"));
    const failed = value.filter((v) => !(v as Tagged).ok) as (Tagged & { ok: false })[];
    // a call that got its slot with little time left was sent and timed out on the wire; the others never left
    const unsent = failed.filter((f) => /it was not sent$/.test(f.message));
    assert.ok(unsent.length >= 1, JSON.stringify(failed));
    for (const f of unsent) {
      assert.equal(f.reason, "timeout");
      assert.match(f.message, /^upstream api had 1 calls in flight \(max_concurrent_requests\) until this call's time/);
    }
    assert.equal(s.service.hits["/slow"], 6 - unsent.length, "a call that gave up in line never reached the service");
    // (no peak check here: a call that timed out on the wire was aborted by ptc, but the service may still be
    // working on it when the next call arrives — what ptc bounds is its own requests in flight)
  } finally {
    await s.close();
  }
});

Deno.test("polite client: a read answered 429 or 503 with Retry-After is sent once more after the delay", async () => {
  const s = await setup({});
  try {
    const { value, calls: records } = await calls(s.rt, ["limited", "busy"]);
    assert.deepEqual(value.map((v) => (v as Tagged).ok), [true, true], JSON.stringify(value));
    assert.equal(s.service.hits["/limited"], 2);
    assert.equal(s.service.hits["/busy"], 2);
    assert.ok(records.every((r) => r.duration_ms >= 1000), "each waited the second Retry-After asked for");
  } finally {
    await s.close();
  }
});

Deno.test("polite client: a write is never retried; a Retry-After past the call's time is not waited", async () => {
  const s = await setup({});
  try {
    const { value } = await calls(s.rt, ["write", "later"]);
    const [write, later] = value as (Tagged & { ok: false; mutationState?: string })[];
    assert.equal(write.ok, false);
    assert.equal(write.reason, "rate_limited");
    assert.equal(s.service.hits["/write"], 1, "the write was sent once");
    assert.equal(later.reason, "rate_limited");
    assert.match(later.message, /Retry-After/);
    assert.equal(s.service.hits["/later"], 1, "an hour's wait does not fit a 5 s call");
  } finally {
    await s.close();
  }
});

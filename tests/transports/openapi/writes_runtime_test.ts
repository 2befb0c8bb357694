/**
 * OpenAPI writes through the real runtime (config file → transport → write gate → tool/call) against a loopback
 * service that records every request before answering: the method, header arguments and JSON body on the wire, empty
 * 2xx bodies as nil, `:mutation_state` for each outcome (2xx applied, 4xx not_applied, 5xx / timeout / reset / over
 * the cap indeterminate), no retry of any write (the service's request count), and the gate (closed: the service never
 * sees the write; read-only mode hides write tools without failing the start).
 */
import assert from "node:assert/strict";
import { startSettled } from "../../upstream/settled.ts";
import { loadConfigFile, type PtcConfig } from "../../../src/upstream/config.ts";
import { withRunContext } from "../../../src/upstream/run_context.ts";
import type { Runtime } from "../../../src/upstream/runtime.ts";
import type { ToolOutcome } from "../../../src/core/tool_seam.ts";
import { registerBuiltins } from "../../../transports/mod.ts";
import { notesOverrides, type NotesService, startNotesService, writeNotesConfig } from "./write_fixture.ts";
import { startDroppingServer } from "../../upstream/dropping_server.ts";

interface Setup {
  service: NotesService;
  dir: string;
  start(options?: { allowWrites?: boolean; readOnly?: boolean; token?: string }): Promise<Runtime>;
}

async function withService(fn: (s: Setup) => Promise<void>) {
  const service = startNotesService("notes-token");
  const dir = await Deno.makeTempDir({ prefix: "ptc-writes-" });
  const runtimes: Runtime[] = [];
  try {
    const registry = registerBuiltins();
    const start = async ({ allowWrites = true, readOnly = false, token = "notes-token" } = {}) => {
      const file = await writeNotesConfig(dir, service.url, {
        token,
        extra: { read_only: readOnly, limits: { max_write_calls: 50 } },
        upstream: {
          include_operations: ["list-notes", ...Object.keys(notesOverrides())],
          operation_overrides: { ...notesOverrides(), "big-write": { effect: "write", max_response_bytes: 1000 } },
        },
      });
      const config = await loadConfigFile(file, { registry });
      assert.ok(!Array.isArray(config), JSON.stringify(config));
      const rt = await startSettled(config as PtcConfig, { registry, log: () => {}, allowWrites, readOnly });
      runtimes.push(rt);
      return rt;
    };
    await fn({ service, dir, start });
  } finally {
    for (const rt of runtimes) await rt.stop();
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
}

type Tagged = ToolOutcome & { kind: "tagged" };

async function call(rt: Runtime, tool: string, args: Record<string, unknown> = {}) {
  const report = await withRunContext(
    rt,
    (ctx) => ctx.callTool({ name: "call", args: { server: "notes", tool, args } as never }),
  );
  return { outcome: report.value as Tagged, record: report.calls[0] };
}

Deno.test("openapi writes: method, header arguments and the JSON body reach the service; empty 2xx is nil", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start();
    const created = await call(rt, "create-note", {
      title: "First",
      "tag-list": ["a", "b"],
      "idempotency-key": "key-1",
      "dry-run": false,
    });
    assert.equal(created.outcome.ok, true, JSON.stringify(created.outcome));
    assert.deepEqual((created.outcome as { value: unknown }).value, {
      id: "n-1",
      title: "First",
      "tag-list": ["a", "b"],
      key: "key-1",
    });
    assert.equal(created.outcome.mutationState, "applied");
    assert.equal(created.record.mutation_state, "applied");
    const seen = service.received.at(-1)!;
    assert.equal(seen.method, "POST");
    assert.equal(seen.target, "/notes?dry-run=false");
    assert.equal(seen.headers["content-type"], "application/json");
    assert.equal(seen.headers["idempotency-key"], "key-1");
    assert.equal(seen.headers["authorization"], "Bearer notes-token");
    assert.deepEqual(JSON.parse(seen.body), { title: "First", "tag-list": ["a", "b"] });

    for (
      const [tool, args, method, status] of [
        ["delete-note", { note_id: "n-1" }, "DELETE", "204"],
        ["replace-note", { note_id: "n-1", "if-match": '"v1"', title: "T", version: 2 }, "PUT", "201 empty"],
        ["patch-note", { note_id: "n/1", title: "P" }, "PATCH", "200 empty"],
      ] as const
    ) {
      const r = await call(rt, tool, args);
      assert.deepEqual(r.outcome, {
        kind: "tagged",
        ok: true,
        value: null,
        valueKind: "none",
        mutationState: "applied",
      }, `${tool} ${status}`);
      assert.equal(service.received.at(-1)!.method, method);
    }
    const replaced = service.received.at(-2)!;
    assert.equal(replaced.headers["if-match"], '"v1"');
    assert.deepEqual(JSON.parse(replaced.body), { title: "T", version: 2 });
    const patched = service.received.at(-1)!;
    assert.equal(patched.target, "/notes/n%2F1");
    assert.equal(patched.headers["content-type"], "application/merge-patch+json");
    assert.equal(patched.body, '{"title":"P"}');

    // an optional body with no body argument: nothing sent, no content type
    await call(rt, "patch-note", { note_id: "n-2" });
    assert.equal(service.received.at(-1)!.body, "");
    assert.equal(service.received.at(-1)!.headers["content-type"], undefined);

    // a POST declared a safe query is a read: no mutation state
    const query = await call(rt, "query-notes", { text: "x", limit: 2 });
    assert.equal(query.outcome.ok, true);
    assert.equal(query.outcome.mutationState, undefined);
    assert.deepEqual(JSON.parse(service.received.at(-1)!.body), { text: "x", limit: 2 });
    assert.equal(rt.findTool("notes", "query-notes")!.effect, "read");

    // body arguments are validated with the rest before anything is sent
    const before = service.received.length;
    const bad = await call(rt, "create-note", { "tag-list": "not-a-list" });
    assert.equal(bad.outcome.kind, "raise");
    assert.match((bad.outcome as { message: string }).message, /title/);
    assert.match((bad.outcome as { message: string }).message, /tag-list/);
    assert.equal(service.received.length, before);
  });
});

Deno.test("openapi writes: a header argument over the bounds is refused like any bad argument, nothing sent", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start();
    const before = service.received.length;
    // another argument problem (a title that is not a string): the reason every argument problem gets
    const bad = (await call(rt, "replace-note", { note_id: "n-1", "if-match": '"v1"', title: 5, version: 2 }))
      .outcome as unknown as { kind: string; reason: string };
    assert.equal(bad.kind, "raise");
    const cases: [string, string, RegExp][] = [
      ["long", "x".repeat(4097), /if-match: must be at most 4096 characters long/],
      ["line break", '"v1"\r\nx-injected: 1', /if-match: must match the pattern/],
      ["escape", "\u001b[2J", /if-match: must match the pattern/],
    ];
    for (const [label, value, message] of cases) {
      const r = await call(rt, "replace-note", { note_id: "n-1", "if-match": value, title: "T", version: 2 });
      const tidy = await call(rt, "replace-note", { note_id: "n-1", "if-match": '"v1"', title: "T", version: 2 });
      assert.equal(tidy.outcome.ok, true, label);
      const raised = r.outcome as unknown as { kind: string; reason: string; message: string };
      assert.equal(raised.kind, "raise", `${label}: ${JSON.stringify(r.outcome)}`);
      assert.equal(raised.reason, bad.reason, `${label}: the reason of any other argument problem`);
      assert.match(raised.message, message, label);
    }
    // the tidy calls reached the service, the refused ones never did
    assert.equal(service.received.length, before + cases.length);
    assert.ok(service.received.every((req) => !String(req.headers["if-match"]).includes("\n")));
  });
});

Deno.test("openapi writes: mutation state per outcome, and no write is ever sent twice", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start();
    const cases: [string, Record<string, unknown>, string, string, string][] = [
      ["write-outcome", { code: 422 }, "/outcome/422", "upstream_error", "not_applied"],
      ["write-outcome", { code: 409 }, "/outcome/409", "upstream_error", "not_applied"],
      ["write-outcome", { code: 404 }, "/outcome/404", "not_found", "not_applied"],
      ["write-outcome", { code: 429 }, "/outcome/429", "rate_limited", "not_applied"],
      ["write-outcome", { code: 500 }, "/outcome/500", "upstream_unavailable", "indeterminate"],
      ["write-outcome", { code: 503 }, "/outcome/503", "upstream_unavailable", "indeterminate"],
      ["slow-write", {}, "/slow", "timeout", "indeterminate"],
      ["reset-write", {}, "/reset", "upstream_unavailable", "indeterminate"],
      ["big-write", {}, "/big", "response_too_large", "indeterminate"],
      ["moved-write", {}, "/moved", "upstream_error", "indeterminate"],
    ];
    for (const [tool, args, path, reason, state] of cases) {
      const { outcome, record } = await call(rt, tool, args);
      const label = `${tool} ${path}`;
      assert.equal(outcome.ok, false, label);
      const o = outcome as { reason: string; message: string; mutationState: string };
      assert.equal(o.reason, reason, `${label}: ${o.message}`);
      assert.equal(o.mutationState, state, label);
      assert.equal(record.mutation_state, state, label);
      if (state === "indeterminate") assert.match(o.message, /may or may not have been applied; check the service/);
      else assert.doesNotMatch(o.message, /may or may not/);
      assert.equal(service.count("POST", path), 1, `${label}: received exactly once (recorded, not retried)`);
    }
    assert.match(
      ((await call(rt, "write-outcome", { code: 422 })).outcome as { message: string }).message,
      /title: too short/,
    );
    // a 301 to a write is not re-sent as a GET (the answer would pass for the write's); 303 See Other is followed
    assert.match(
      ((await call(rt, "moved-write")).outcome as { message: string }).message,
      /refused a redirect \(HTTP 301\) that would re-send the POST as a GET/,
    );
    assert.equal(service.count("GET", "/notes"), 0);
    const seeOther = await call(rt, "see-other-write");
    assert.equal(seeOther.outcome.mutationState, "applied");
    assert.deepEqual((seeOther.outcome as { value: unknown }).value, { notes: [{ id: "n-1" }] });
    assert.equal(service.count("GET", "/notes"), 1);
    // a failing redirect target does not show that the write was refused
    const lost = await call(rt, "see-nothing-write");
    assert.equal((lost.outcome as { reason: string }).reason, "not_found");
    assert.equal(lost.outcome.mutationState, "indeterminate");
  });
});

Deno.test("openapi writes: a 401 on a write is not retried (a read is, once, with re-read credentials)", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start({ token: "stale-token" });
    const write = await call(rt, "create-note", { title: "x" });
    const o = write.outcome as { reason: string; message: string; mutationState: string };
    assert.equal(o.reason, "auth_failed");
    assert.equal(o.mutationState, "not_applied");
    assert.match(o.message, /writes are not retried/);
    assert.equal(service.count("POST", "/notes"), 1);
    await call(rt, "list-notes");
    assert.equal(service.count("GET", "/notes"), 2, "the read retried once, so the counter counts");
  });
});

Deno.test("openapi writes: the gate — closed, the service never sees a write; read-only hides writes and starts", async () => {
  await withService(async ({ service, start }) => {
    const closed = await start({ allowWrites: false });
    const tools = closed.catalog()[0].tools.map((t) => t.name);
    assert.deepEqual(tools, ["list-notes", "query-notes"]);
    const r = await call(closed, "create-note", { title: "x" });
    assert.equal(r.outcome.kind, "raise");
    assert.match(
      (r.outcome as { message: string }).message,
      /^tool 'notes\/create-note' is a write tool and ptc was started without --allow-writes/,
    );
    const ro = await start({ readOnly: true });
    assert.deepEqual(ro.catalog()[0].tools.map((t) => t.name), ["list-notes", "query-notes"]);
    assert.match(ro.upstreams.get("notes")!.withheld.get("delete-note")!, /read-only mode/);
    const d = await call(ro, "delete-note", { note_id: "n-1" });
    assert.equal(d.outcome.kind, "raise");
    assert.equal(service.received.filter((x) => x.method !== "GET" && !x.target.startsWith("/notes/query")).length, 0);

    const open = await start();
    assert.equal(open.catalog()[0].tools.length, 1 + Object.keys(notesOverrides()).length);
    await call(open, "create-note", { title: "x" });
    assert.equal(service.count("POST", "/notes"), 1, "gate open: exactly one request");
  });
});

Deno.test("openapi writes: a run that ends while a write is in flight records it :indeterminate", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start();
    // The program's deadline passes while the service holds the write (the sandbox stops waiting; the run closes).
    const report = await withRunContext(rt, async (ctx) => {
      ctx.callTool({ name: "call", args: { server: "notes", tool: "slow-write", args: {} } as never });
      ctx.callTool({ name: "call", args: { server: "notes", tool: "list-notes", args: {} } as never });
      while (service.count("POST", "/slow") === 0) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 50));
      return "deadline";
    });
    assert.equal(service.count("POST", "/slow"), 1);
    const writes = report.calls.filter((c) => c.mutation_state !== undefined);
    assert.equal(writes.length, 1, JSON.stringify(report.calls));
    assert.equal(writes[0].tool, "slow-write");
    assert.equal(writes[0].mutation_state, "indeterminate");
    assert.equal(writes[0].reason, "run_context_closed");
    assert.match(writes[0].message!, /may or may not have been applied; check the service before repeating it/);
    // the read that finished is recorded as usual; nothing is retried
    assert.ok(report.calls.some((c) => c.tool === "list-notes" && c.status === "ok"));
    assert.equal(service.count("POST", "/slow"), 1);
  });
});

Deno.test("openapi writes: arguments nested deeper than ptc walks are refused by name, never charged or sent", async () => {
  await withService(async ({ service, start }) => {
    const rt = await start();
    let deep: unknown = "x";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const before = service.received.length;
    const report = await withRunContext(rt, async (ctx) => {
      const outcome = await ctx.callTool({
        name: "call",
        args: { server: "notes", tool: "create-note", args: { title: "t", "tag-list": deep } } as never,
      });
      return { outcome, left: ctx.remaining() };
    });
    const o = report.value.outcome as { kind: string; message: string };
    assert.equal(o.kind, "raise", JSON.stringify(o).slice(0, 300));
    assert.match(
      o.message,
      /^tool 'notes\/create-note' rejected args: they nest vectors\/maps deeper than 1000 levels$/,
    );
    assert.doesNotMatch(o.message, /call stack/i);
    assert.equal(report.value.left.write_calls, 50, "not charged");
    assert.equal(service.received.length, before, "nothing sent");
  });
});

Deno.test("openapi writes: an upstream's allow_writes: false is not opened by a top-level allow_writes: true", async () => {
  const service = startNotesService("notes-token");
  const dir = await Deno.makeTempDir({ prefix: "ptc-writes-" });
  const registry = registerBuiltins();
  const runtimes: Runtime[] = [];
  try {
    for (const [upstream, top, installed] of [[false, true, false], [undefined, true, true], [true, false, true]]) {
      const file = await writeNotesConfig(dir, service.url, {
        extra: { allow_writes: top },
        upstream: {
          allow_writes: upstream,
          include_operations: ["list-notes", "create-note"],
          operation_overrides: { "create-note": { effect: "write" } },
        },
      });
      const config = await loadConfigFile(file, { registry });
      assert.ok(!Array.isArray(config), JSON.stringify(config));
      const rt = await startSettled(config as PtcConfig, { registry, log: () => {}, allowWrites: true });
      runtimes.push(rt);
      const label = `upstream ${upstream}, top level ${top}`;
      assert.equal(rt.findTool("notes", "create-note") !== undefined, installed, label);
      if (!installed) {
        const r = await call(rt, "create-note", { title: "x" });
        assert.equal(r.outcome.kind, "raise", label);
        assert.match(
          (r.outcome as { message: string }).message,
          /^tool 'notes\/create-note' is a write tool and the config does not allow writes \(upstreams\.notes\.allow_writes is false\)$/,
        );
      }
    }
    assert.equal(service.count("POST", "/notes"), 0, "the closed upstream never saw a write");
  } finally {
    for (const rt of runtimes) await rt.stop();
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openapi writes: a write the service received before the connection dropped is sent once, :indeterminate", async () => {
  // After a read, fetch keeps the connection for reuse; a write sent on it and dropped after receipt would be
  // re-sent by fetch itself (a second POST, answered 201 — reported :applied for a write applied twice).
  const server = startDroppingServer();
  const dir = await Deno.makeTempDir({ prefix: "ptc-writes-" });
  const registry = registerBuiltins();
  let rt: Runtime | undefined;
  try {
    const file = await writeNotesConfig(dir, server.url, {
      upstream: {
        include_operations: ["list-notes", "create-note"],
        operation_overrides: { "create-note": { effect: "write" } },
        request_timeout_ms: 5_000,
      },
    });
    const config = await loadConfigFile(file, { registry });
    assert.ok(!Array.isArray(config), JSON.stringify(config));
    rt = await startSettled(config as PtcConfig, { registry, log: () => {}, allowWrites: true });
    assert.equal((await call(rt, "list-notes")).outcome.ok, true);
    const { outcome, record } = await call(rt, "create-note", { title: "once" });
    assert.equal(server.posts(), 1, "the write reached the service exactly once");
    assert.equal(outcome.ok, false, JSON.stringify(outcome));
    assert.equal(outcome.mutationState, "indeterminate", JSON.stringify(outcome));
    assert.equal(record.mutation_state, "indeterminate");
    assert.match((outcome as { message: string }).message, /check the service before repeating it/);
  } finally {
    await rt?.stop();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

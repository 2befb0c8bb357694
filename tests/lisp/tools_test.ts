import assert from "node:assert/strict";
import { err, ev, evaluate } from "./helpers.ts";
import { FakeTools } from "./fake_tools.ts";
import type { DiscoveryBackend, DiscoveryOp } from "../../src/core/tool_seam.ts";
import type { JsonObject } from "../../src/core/json.ts";

Deno.test("tools: plain host tools, argument conversion", () => {
  const tools = new FakeTools();
  assert.equal(ev('(->> (tool/get-orders {:status "open"}) (filter #(> (:total %) 100)) (map :id))', { tools }), "[2]");
  assert.deepEqual(tools.calls[0], { name: "get-orders", args: { status: "open" } });
  assert.equal(ev("(count (tool/get-orders :max-rows 5))", { tools }), "2");
  assert.deepEqual(tools.calls[1].args, { max_rows: 5 });
  assert.equal(ev("(tool/echo)", { tools }), "{}");
  assert.equal(ev("(tool/echo {:a-b {:c-d :kw} :v [1 :x]})", { tools }), '{"a_b" {"c_d" "kw"} "v" [1 "x"]}');
  assert.equal(err('(tool/get-orders "open")', { tools }).reason, "invalid_tool_args");
  assert.equal(err("(tool/echo 1 2)", { tools }).reason, "invalid_tool_args");
});

Deno.test("tools: tool/call forms normalize to {server, tool, args}", () => {
  const tools = new FakeTools();
  assert.equal(
    ev('(tool/call {:server "fs" :tool "read" :args {:path "notes.md"}})', { tools }),
    '{:ok true :value "hello" :value_kind :text}',
  );
  assert.deepEqual(tools.calls[0].args, { server: "fs", tool: "read", args: { path: "notes.md" } });
  assert.equal(
    ev('(let [r (tool/call \'fs/read {:path "notes.md"})] (if (:ok r) (count (:value r)) -1))', { tools }),
    "5",
  );
  assert.deepEqual(tools.calls[1].args, { server: "fs", tool: "read", args: { path: "notes.md" } });
  ev("(tool/call 'fs/read)", { tools });
  assert.deepEqual(tools.calls[2].args, { server: "fs", tool: "read", args: {} });
  assert.equal(
    ev("(tool/call 'fs/flaky {})", { tools }),
    '{:message "slow down" :ok false :reason :rate_limited}',
  );
  assert.equal(
    ev('(map :ok (map tool/call [{:server "fs" :tool "read"} {:server "fs" :tool "flaky"}]))', { tools }),
    "[true false]",
  );
});

Deno.test("tools: tool/call's third argument {:reason …} (or :reason in the map form) goes to the host", () => {
  const tools = new FakeTools();
  ev(`(tool/call 'fs/read {:path "a"} {:reason "to show the notes"})`, { tools });
  assert.deepEqual(tools.calls[0].args, {
    server: "fs",
    tool: "read",
    args: { path: "a" },
    reason: "to show the notes",
  });
  ev('(tool/call {:server "fs" :tool "read" :reason "r"})', { tools });
  assert.deepEqual(tools.calls[1].args, { server: "fs", tool: "read", args: {}, reason: "r" });
  assert.match(
    err(`(tool/call 'fs/read {} {:why "x"})`, { tools }).message,
    /unknown option :why \(allowed: :reason\)/,
  );
  assert.match(err(`(tool/call 'fs/read {} {:reason 3})`, { tools }).message, /:reason must be a string, got/);
  assert.match(err(`(tool/call 'fs/read {} "why")`, { tools }).message, /options must be a map like \{:reason/);
  assert.match(err(`(tool/call 'fs/read {} {} {})`, { tools }).message, /got 4 arguments/);
});

Deno.test("tools: programmer faults raise, world faults are data", () => {
  const tools = new FakeTools();
  const e1 = err('(tool/call {:server "nope" :tool "read"})', { tools });
  assert.equal(e1.reason, "runtime_error");
  assert.match(e1.message, /no upstream 'nope'/);
  assert.equal(err("(tool/call 'read)", { tools }).reason, "runtime_error");
  assert.equal(err('(tool/call {:server "fs"})', { tools }).reason, "runtime_error");
  assert.equal(err('(tool/call {:server "fs" :tool "read" :extra 1})', { tools }).reason, "runtime_error");
  assert.equal(err('(tool/call {:server "fs" :tool "read" :args 5})', { tools }).reason, "runtime_error");
  assert.equal(err("(tool/call 42)", { tools }).reason, "runtime_error");
  const b = err("(tool/boom {})", { tools });
  assert.equal(b.reason, "tool_error");
  assert.match(b.message, /kaput/);
});

Deno.test("tools: unknown tools are rejected before anything runs", () => {
  const tools = new FakeTools();
  const e = err("(do (tool/get-orders {}) (tool/nope {}))", { tools });
  assert.equal(e.reason, "unknown_tool");
  assert.match(e.message, /Unknown tool: nope/);
  assert.match(e.message, /Available tools: boom, call, echo, get-orders/);
  assert.equal(tools.calls.length, 0);
  assert.match(
    err("(tool/get-order {})", { tools }).message,
    /Unknown tool: get-order \(did you mean "get-orders"\?\)\. /,
  );
  assert.equal(err("(tool/call 'fs/read)").reason, "unknown_tool");
  assert.equal(err("(map tool/nope [1])", { tools }).reason, "unknown_tool");
});

Deno.test("tools: calls run in order, short-circuit, inside closures", () => {
  const tools = new FakeTools();
  ev("(and false (tool/echo {:n 1}))", { tools });
  assert.equal(tools.calls.length, 0);
  ev("(mapv #(tool/echo {:n %}) [1 2 3])", { tools });
  assert.deepEqual(tools.calls.map((c) => c.args.n), [1, 2, 3]);
});

class FakeDiscovery implements DiscoveryBackend {
  ops: [DiscoveryOp, JsonObject][] = [];
  exec(op: DiscoveryOp, args: JsonObject) {
    this.ops.push([op, args]);
    if (op === "servers") {
      return {
        kind: "ok" as const,
        result: [{ name: "fs", description: "files", tool_count: 2, catalog_loaded: true }],
      };
    }
    if (op === "doc") {
      if (args.ref === "fs/broken") {
        return { kind: "world_fault" as const, reason: "upstream_unavailable", message: "down" };
      }
      if (args.ref === "fs/bad") {
        return { kind: "programmer_fault" as const, message: "no tool 'bad' in upstream 'fs'" };
      }
      return { kind: "ok" as const, result: `fs/read - reads a file (${args.ref})` };
    }
    if (op === "meta") return { kind: "ok" as const, result: { name: "read", server: "fs" }, keywordKeys: true };
    if (op === "apropos") return { kind: "ok" as const, result: ["upstream: fs/read - reads a file"] };
    if (op === "dir") return { kind: "ok" as const, result: ["fs/read - reads a file"] };
    return { kind: "ok" as const, result: null };
  }
}

Deno.test("discovery: local builtins first, then the backend", () => {
  const discovery = new FakeDiscovery();
  const r = evaluate("(doc map)", { discovery });
  assert.ok(r.ok);
  assert.equal(r.prints.length, 0, "doc prints nothing: its text is the value");
  assert.match(String(r.json), /^map\n/);
  assert.equal(discovery.ops.length, 0);
  const r2 = evaluate("(doc 'fs/read)", { discovery });
  assert.ok(r2.ok);
  assert.deepEqual([r2.json, r2.prints], ["fs/read - reads a file (fs/read)", []]);
  // two docs joined in one value, as an agent writes it
  const both = evaluate('(str (doc inc) "\\n---\\n" (doc \'fs/read))', { discovery });
  assert.ok(both.ok);
  assert.match(String(both.json), /^inc\n[\s\S]*\n---\nfs\/read - reads a file/);
  assert.equal(ev("(doc no-such-name-anywhere)"), "nil", "without a host an unknown name has no documentation");
  assert.equal(ev("(source map)"), '"no source available for map"');
  assert.equal(ev("(doc fs/broken)", { discovery }), '{:message "down" :ok false :reason :upstream_unavailable}');
  const bad = err("(doc fs/bad)", { discovery });
  assert.equal(bad.reason, "runtime_error");
  assert.equal(bad.message, "no tool 'bad' in upstream 'fs'", "the reason is not repeated in the message");
  assert.equal(ev("(meta 'fs/read)", { discovery }), '{:name "read" :server "fs"}');
  assert.equal(ev("(:kind (meta map))", { discovery }), ":builtin");
  assert.equal(ev('(first (apropos "read"))', { discovery }), '"upstream: fs/read - reads a file"');
  assert.equal(ev("(dir fs)", { discovery }), '["fs/read - reads a file"]');
  assert.equal(ev("(map :name (tool/servers))", { discovery }), '["fs"]');
  assert.equal(ev("(all-ns)"), '["clojure.core" "clojure.set" "clojure.string" "clojure.walk" "json"]');
  assert.equal(ev("(ns-name 'clojure.string)"), '"clojure.string"');
  assert.ok(ev('(apropos "upper")').includes("upper-case"));
  assert.ok(ev("(count (dir clojure.string))") !== "0");
  const noHost = err("(tool/servers)");
  assert.equal(noHost.reason, "runtime_error");
  assert.match(noHost.message, /no upstream servers are configured.*--upstreams-config/);
  assert.doesNotMatch(noHost.message, /backend/);
  assert.equal(err("(doc)").reason, "invalid_arity");
});

Deno.test("discovery: a bare or tool/-prefixed upstream tool name points at tool/call", () => {
  const discovery = new FakeDiscovery();
  const bare = err('(read {:path "a"})', { discovery });
  assert.equal(bare.reason, "unbound_var");
  assert.match(bare.message, /read \(a tool: call it as \(tool\/call 'fs\/read \{…\}\)\)/);
  const tools = new FakeTools();
  const prefixed = err('(tool/read {:path "a"})', { discovery, tools });
  assert.equal(prefixed.reason, "unknown_tool");
  assert.match(prefixed.message, /\(tool\/call 'fs\/read \{…\}\)/);
  // a name no upstream tool has keeps the usual suggestion
  assert.match(err("(mapp inc [1])", { discovery }).message, /did you mean "map"/);
});

Deno.test("tools: two spellings of one argument are a programmer fault naming both, and nothing is sent", () => {
  const tools = new FakeTools();
  for (const src of ['(tool/echo {:org_id "acme" :org-id "globex"})', '(tool/echo {"org-id" 1 :org_id 2})']) {
    const e = err(src, { tools });
    assert.equal(e.reason, "invalid_tool_args", e.message);
    assert.match(e.message, /org_id twice: .* and .* are both sent as "org_id"; keep one/);
  }
  const nested = err("(tool/echo {:filter {:a-b 1 :a_b 2}})", { tools });
  assert.match(nested.message, /args\.filter\.a_b twice: :a-b and :a_b/);
  const r = evaluate("(tool/call 'fs/read {:path-x 1 :path_x 2})", { tools });
  assert.ok(!r.ok && r.reason === "invalid_tool_args", r.ok ? r.printed : r.message);
  assert.equal(tools.calls.length, 0);
});

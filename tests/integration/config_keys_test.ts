/**
 * Every key of the published config schema has an effect, on every face that reads it, proven by a test. The first
 * test walks `buildConfigSchema(listTransports())` and checks it against `config_keys_table.ts`: a schema key without
 * an entry fails (a new key comes with its observation), an entry for a key the schema no longer has fails, and each
 * pointer must name a file that exists, holds that test and sets the key (its leaf name appears there). The other
 * tests are the table's inline observations: real faces (`bin/ptc` from a temporary directory, `ptc mcp` through the
 * official SDK client), real upstreams (the MCP stdio fixture, an OpenAPI service on 127.0.0.1), and an answer that
 * differs from the defaults.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildConfigSchema, DEFAULT_CATALOG, DEFAULT_RUN_LIMITS } from "../../src/upstream/config_schema.ts";
import type { JsonSchema } from "../../src/upstream/types.ts";
import { listTransports } from "../../transports/mod.ts";
import mcpStdio from "../../transports/mcp_stdio/mod.ts";
import mcpHttp from "../../transports/mcp_http/mod.ts";
import { startMcpHttpFixture } from "../../fixtures/mcp/http.ts";
import { callCtx, startUpstream } from "../transports/mcp_common/helpers.ts";
import { CONFIG_KEY_OBSERVATIONS, FACES } from "./config_keys_table.ts";
import {
  APPROVE_PROGRAM,
  LIMITS_ANSWER,
  LIMITS_PROGRAM,
  limitsConfig,
  READ_ONLY_ANSWERS,
  READ_ONLY_PROGRAM,
  SECRET_VALUE,
  SECRET_VAR,
  startThingsService,
  THINGS_DOC,
  writeConfig,
} from "./config_keys_observe.ts";
import { launch, ROOT } from "./launcher_helpers.ts";
import { connectStdio, evalLisp, settledDescription, textOf } from "./mcp_server_helpers.ts";

/** This file: the pointer of every inline observation. */
export const HERE = "tests/integration/config_keys_test.ts";

/**
 * The key paths of a schema: `a.b.c`, a map's or an array's items as `*`, each transport's entry as
 * `upstreams.<transport>.<key>`. Sections (a schema whose value is only its named or mapped children) are walked, not
 * listed; what they hold is.
 */
export function schemaKeyPaths(schema: JsonSchema): string[] {
  const out = new Set<string>();
  const isObj = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
  const walk = (s: JsonSchema, prefix: string) => {
    const props = isObj(s.properties) ? s.properties as Record<string, JsonSchema> : {};
    for (const [k, v] of Object.entries(props)) {
      const path = prefix + k;
      if (path === "upstreams") continue; // the per-transport entries below are its keys
      if (!isSection(v)) out.add(path);
      walk(v, `${path}.`);
    }
    if (isObj(s.additionalProperties)) walk(s.additionalProperties as JsonSchema, `${prefix}*.`);
    if (isObj(s.items)) walk(s.items as JsonSchema, `${prefix}*.`);
    for (const kw of ["oneOf", "anyOf", "allOf"]) {
      for (const sub of (s[kw] as JsonSchema[] | undefined) ?? []) if (isObj(sub)) walk(sub, prefix);
    }
  };
  const isSection = (v: JsonSchema) =>
    isObj(v.properties) ||
    (isObj(v.additionalProperties) && isObj((v.additionalProperties as JsonSchema).properties)) ||
    (isObj(v.items) && isObj((v.items as JsonSchema).properties));
  walk(schema, "");
  for (const [name, def] of Object.entries((schema.$defs ?? {}) as Record<string, JsonSchema>)) {
    walk(def, `upstreams.${name.replace(/^upstream_/, "")}.`);
  }
  return [...out].sort();
}

/** The texts of the modules `file` imports by a relative path (its helpers). */
async function localImports(file: string, text: string): Promise<string[]> {
  const out: string[] = [];
  for (const m of text.matchAll(/from "(\.{1,2}\/[^"]+\.ts)"/g)) {
    const path = join(ROOT, file, "..", m[1]);
    if (!path.includes("/tests/")) continue; // only test helpers, never src/ (a key named there proves nothing)
    out.push(await Deno.readTextFile(path).catch(() => ""));
  }
  return out;
}

/** The name a test file must contain for a key: its last segment that is not `*`. */
function leafOf(path: string): string {
  return path.split(".").filter((s) => s !== "*").at(-1)!;
}

Deno.test("config keys: every schema key has an observation on each face that reads it, and nothing else does", async () => {
  const keys = schemaKeyPaths(buildConfigSchema(listTransports()));
  const table = Object.keys(CONFIG_KEY_OBSERVATIONS);
  const missing = keys.filter((k) => !(k in CONFIG_KEY_OBSERVATIONS));
  assert.deepEqual(missing, [], `schema keys without an entry in config_keys_table.ts:\n${missing.join("\n")}`);
  const stale = table.filter((k) => !keys.includes(k));
  assert.deepEqual(stale, [], `entries for keys the schema no longer has:\n${stale.join("\n")}`);

  const texts = new Map<string, string>();
  const problems: string[] = [];
  for (const [key, observations] of Object.entries(CONFIG_KEY_OBSERVATIONS)) {
    if (observations.length === 0) problems.push(`${key}: no observation`);
    for (const o of observations) {
      if (!FACES.includes(o.face)) problems.push(`${key}: unknown face ${o.face}`);
      let text = texts.get(o.file);
      if (text === undefined) {
        try {
          text = await Deno.readTextFile(join(ROOT, o.file));
        } catch {
          problems.push(`${key}: ${o.file} does not exist`);
          continue;
        }
        texts.set(o.file, text);
      }
      if (!text.includes(o.test)) problems.push(`${key}: ${o.file} has no test "${o.test}"`);
      // the config may be written by a helper module the test file imports
      const withHelpers = text + (await localImports(o.file, text)).join("\n");
      if (!withHelpers.includes(leafOf(key))) problems.push(`${key}: ${o.file} never sets ${leafOf(key)}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("config keys: the walker sees nested, mapped and per-transport keys", () => {
  const keys = schemaKeyPaths(buildConfigSchema(listTransports()));
  for (
    const k of ["limits.max_tool_calls", "credentials.*.var", "upstreams.openapi.operation_overrides.*.result_path"]
  ) {
    assert.ok(keys.includes(k), k);
  }
  for (const section of ["limits", "catalog", "upstreams", "upstreams.mcp_stdio.tools"]) {
    assert.ok(!keys.includes(section), `${section} is a section, not a key`);
  }
});

const env: Record<string, string> = { [SECRET_VAR]: SECRET_VALUE };

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ptc-config-keys-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const W = ["--allow-writes"];

Deno.test("config keys on eval: limits, allow_writes, read_only, credentials, pass_path, inherit_environment", async () => {
  await inTemp(async (dir) => {
    await writeConfig(dir, limitsConfig());
    const run = (program: string) =>
      launch(["eval", ...W, "--upstreams-config", "ptc.json", program], { cwd: dir, env });
    const r = await run(LIMITS_PROGRAM);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), LIMITS_ANSWER);
    assert.notEqual(DEFAULT_RUN_LIMITS.max_tool_calls, 12);
    assert.equal((await run(READ_ONLY_PROGRAM)).stdout.trim(), READ_ONLY_ANSWERS.open);
    await writeConfig(dir, limitsConfig({ read_only: true }));
    assert.equal((await run(READ_ONLY_PROGRAM)).stdout.trim(), READ_ONLY_ANSWERS.readOnly);
    await writeConfig(dir, limitsConfig({ approve_writes: true }));
    // approve_writes: the write the limits program sent (:writes [true …]) now waits for a person (eval: --yes)
    assert.equal((await run(APPROVE_PROGRAM)).stdout.trim(), ":approval_unavailable");
  });
});

Deno.test("config keys on repl: limits, allow_writes, read_only, credentials, pass_path, inherit_environment", async () => {
  await inTemp(async (dir) => {
    await writeConfig(dir, limitsConfig());
    const run = async (...programs: string[]) => {
      const args = ["repl", ...W, "--upstreams-config", "ptc.json", ...programs.flatMap((p) => ["-e", p])];
      const r = await launch(args, { cwd: dir, env });
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.replace(/\s+/g, " ");
    };
    const out = await run(LIMITS_PROGRAM);
    assert.ok(out.includes(LIMITS_ANSWER), out);
    assert.equal((await run(READ_ONLY_PROGRAM)).trim(), READ_ONLY_ANSWERS.open);
    await writeConfig(dir, limitsConfig({ read_only: true }));
    assert.equal((await run(READ_ONLY_PROGRAM)).trim(), READ_ONLY_ANSWERS.readOnly);
    await writeConfig(dir, limitsConfig({ approve_writes: true }));
    assert.equal((await run(APPROVE_PROGRAM)).trim(), ":approval_unavailable", "no terminal to ask y/N on");
  });
});

/** The `lisp_eval` description and the answers to `programs` of a `ptc mcp` over `config` (SDK client, stdio). */
async function overMcp(
  config: string,
  programs: string[],
): Promise<{ description: string; answers: string[] }> {
  const c = await connectStdio("auto", ["--upstreams-config", config, ...W], env);
  try {
    const answers: string[] = [];
    for (const p of programs) answers.push(textOf(await evalLisp(c, p)));
    // Upstreams start in the background: read the description once fx has made its first attempt (its tools are
    // known then; the description follows the upstream's state).
    return { description: await settledDescription(c), answers };
  } finally {
    await c.close();
  }
}

Deno.test("config keys on mcp: limits, allow_writes, read_only, credentials, catalog.inline_max_*", async () => {
  await inTemp(async (dir) => {
    const tools = await overMcp(await writeConfig(dir, limitsConfig({ catalog: { inline_max_tools: 2 } })), [
      LIMITS_PROGRAM,
      READ_ONLY_PROGRAM,
    ]);
    // 7 tools > inline_max_tools 2: auto picks lazy (the default 8 lists every signature, as catalog --prompt shows).
    assert.match(tools.description, /fx \(5 tools\)/, tools.description);
    assert.doesNotMatch(tools.description, /fx\/echo/);
    assert.ok(tools.answers[0].includes(LIMITS_ANSWER), tools.answers[0]);
    assert.match(tools.description, /cfgkeys/, "libraries: the library's card");
    assert.equal(tools.answers[1], READ_ONLY_ANSWERS.open);

    const chars = await writeConfig(
      dir,
      limitsConfig({ catalog: { inline_max_chars: 10 }, read_only: true }),
      "c.json",
    );
    const ro = await overMcp(chars, [READ_ONLY_PROGRAM]);
    const approve = await overMcp(await writeConfig(dir, limitsConfig({ approve_writes: true }), "a.json"), [
      APPROVE_PROGRAM,
    ]);
    assert.ok(approve.answers[0].includes(":approval_unavailable"), "a client without elicitation cannot approve");
    assert.match(
      ro.description,
      /fx \(4 tools\)/,
      `lazy by inline_max_chars; the write tool withheld:\n${ro.description}`,
    );
    assert.doesNotMatch(ro.description, /fx\/echo/);
    assert.equal(ro.answers[0], READ_ONLY_ANSWERS.readOnly);
  });
});

Deno.test("config keys on catalog: catalog.*, allow_writes, read_only and a credential's var", async () => {
  await inTemp(async (dir) => {
    const prompt = async (config: Record<string, unknown>, more: Record<string, string> = env) => {
      await writeConfig(dir, config);
      return await launch(["catalog", ...W, "--prompt", "--upstreams-config", "ptc.json"], { cwd: dir, env: more });
    };
    const inline = await prompt(limitsConfig());
    assert.equal(inline.code, 0, inline.stderr);
    assert.match(inline.stdout, /fx\/echo/, "7 tools and a short text: auto shows every signature by default");
    assert.match(inline.stdout, /fx\/delete-item/, "allow_writes (and --allow-writes) install the write tool");
    assert.match(inline.stdout, /cfgkeys/, "libraries: the library's card");
    assert.match(inline.stdout, /Fixture of the config-key test/, "the upstream's description");
    assert.ok(DEFAULT_CATALOG.inline_max_tools >= 7);
    for (const catalog of [{ exposure: "lazy" }, { inline_max_tools: 2 }, { inline_max_chars: 10 }]) {
      const lazy = await prompt(limitsConfig({ catalog }));
      assert.equal(lazy.code, 0, lazy.stderr);
      assert.doesNotMatch(lazy.stdout, /fx\/echo/, JSON.stringify(catalog));
      assert.match(lazy.stdout, /fx \(5 tools\)/);
    }
    const ro = await prompt(limitsConfig({ read_only: true }));
    assert.match(ro.stdout, /fx\/echo/);
    assert.doesNotMatch(ro.stdout, /fx\/delete-item/, "read_only withholds the write tool");
    const closed = await prompt({ ...limitsConfig(), allow_writes: false });
    assert.doesNotMatch(closed.stdout, /fx\/delete-item/, "without allow_writes the flag alone opens nothing");
    const noSecret = await prompt(limitsConfig(), {});
    assert.notEqual(noSecret.code, 0);
    assert.match(noSecret.stderr, new RegExp(SECRET_VAR));
  });
});

Deno.test("config keys on doctor: limits.call_timeout_ms, max_response_bytes, allow_writes, read_only, credentials", async () => {
  await inTemp(async (dir) => {
    const doctor = async (config: Record<string, unknown>, args: string[] = [], more = env) => {
      await writeConfig(dir, config);
      const r = await launch(["doctor", ...W, ...args, "--upstreams-config", "ptc.json"], { cwd: dir, env: more });
      return { ...r, out: r.stdout + r.stderr };
    };
    const probing = (probe: Record<string, unknown>, more: Record<string, unknown> = {}) => {
      const config = limitsConfig(more);
      (config.upstreams as Record<string, Record<string, unknown>>).fx.doctor_probe = probe;
      return doctor(config, ["--connect"]);
    };
    const quick = await probing({ tool: "sleep", arguments: { ms: 10 } });
    assert.equal(quick.code, 0, quick.out);
    assert.match(quick.out, /fx \(mcp_stdio\): ready, 5 tool/, "allow_writes installs the write tool");
    const slow = await probing({ tool: "sleep", arguments: { ms: 2000 } });
    assert.notEqual(slow.code, 0, slow.out);
    assert.match(slow.out, /timeout|400 ms/i, "the probe runs under limits.call_timeout_ms");
    const big = await probing({ tool: "big", arguments: { bytes: 5000 } });
    assert.notEqual(big.code, 0, big.out);
    assert.match(big.out, /2000 bytes|too.large/i, "the probe's answer is capped by limits.max_response_bytes");
    const closed = await probing({ tool: "sleep", arguments: { ms: 10 } }, { allow_writes: false });
    assert.match(closed.out, /not installed: fx\/delete-item[^\n]*allow_writes/, closed.out);

    const open = await doctor(limitsConfig());
    assert.equal(open.code, 0, open.out);
    assert.doesNotMatch(open.out, /config: ok[^\n]*read-only/);
    const ro = await doctor(limitsConfig({ read_only: true }));
    assert.match(ro.out, /config: ok[^\n]*read-only/, ro.out);
    const unset = await doctor(limitsConfig(), [], {});
    assert.notEqual(unset.code, 0);
    assert.match(unset.out, new RegExp(SECRET_VAR));
  });
});

Deno.test("config keys on mcp_stdio: stderr_bytes bounds the tail a start failure shows", async () => {
  const raw = (more: Record<string, unknown>) => ({
    transport: "mcp_stdio",
    command: "/bin/sh",
    args: ["-c", "printf 'HEAD%0200dTAIL' 0 >&2; exit 3"],
    ...more,
  });
  const failure = async (more: Record<string, unknown>) => {
    try {
      await startUpstream(mcpStdio, raw(more));
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("the start did not fail");
  };
  const whole = await failure({});
  assert.match(whole, /HEAD0+TAIL/, "the default 8192 bytes keep the whole (short) stderr");
  const tail = await failure({ stderr_bytes: 40 });
  assert.match(tail, /TAIL/);
  assert.doesNotMatch(tail, /HEAD/);
  assert.ok(!/0{41}/.test(tail), tail);
});

Deno.test("config keys on openapi: result_path, conflicts, max_description_chars, pagination, timeouts", async () => {
  const service = startThingsService();
  try {
    await inTemp(async (dir) => {
      await Deno.writeTextFile(join(dir, "things.json"), JSON.stringify(THINGS_DOC));
      const base = {
        transport: "openapi",
        schema_file: "things.json",
        base_url: service.url,
        allow_insecure_http: true,
        include_operations: ["getThings", "getOther", "getSlow", "getPages"],
      };
      await writeConfig(dir, {
        upstreams: {
          th: {
            ...base,
            description: "Things service of the config-key test",
            max_description_chars: 40,
            conflicts: "first_wins",
            connect_timeout_ms: 200,
            operation_overrides: {
              getThings: { result_path: "data.items" },
              getOther: { name: "get-things" },
              getPages: {
                pagination: { style: "offset", items: "data.items", offset_param: "offset", limit_param: "limit" },
              },
            },
          },
          plain: base,
          rt: {
            ...base,
            include_operations: ["getThings", "getSlow"],
            request_timeout_ms: 250,
            max_response_bytes: 30,
          },
        },
        limits: { connect_timeout_ms: 300 },
      });
      const program = `{:things (:value (tool/call 'th/get-things {}))
        :plain (:value (tool/call 'plain/get-things {}))
        :slow-request (:message (tool/call 'rt/get-slow {}))
        :servers (str (tool/servers))
        :dir-th (str (dir 'th))
        :dir-rt (str (dir 'rt))
        :capped (:reason (tool/call 'rt/get-things {}))
        :paged (:items (tool/pages 'th/get-pages {:limit 2}))
        :slow-own (:message (tool/call 'th/get-slow {}))
        :slow-limit (:message (tool/call 'plain/get-slow {}))}`;
      const r = await launch(["eval", "--upstreams-config", "ptc.json", program], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /:things \["a" "b"\]/, "result_path picks data.items");
      assert.match(
        r.stdout,
        /:plain \{"data" \{"items" \["a" "b"\]\} "meta" \{"total" 2\}\}/,
        "without it, the envelope",
      );
      assert.match(r.stderr + r.stdout, /kept getThings \(conflicts: first_wins\)|conflicts: first_wins/);
      assert.match(r.stdout, /within 200 ms/, "the upstream's connect_timeout_ms");
      assert.match(r.stdout, /:slow-limit "[^"]*within 300 ms/, "limits.connect_timeout_ms below the upstream's 5000");
      assert.match(r.stdout, /:slow-request "[^"]*250 ms/, "request_timeout_ms bounds the whole request");
      assert.match(r.stdout, /Things service of the config-key test/, "the upstream's description");
      assert.ok(r.stdout.includes("th/get-pages") && r.stdout.includes("rt/get-slow"), r.stdout);
      assert.ok(!r.stdout.includes("rt/get-pages"), "include_operations leaves getPages out of rt");
      assert.match(r.stdout, /:capped :response_too_large/, "the upstream's max_response_bytes (30)");
      assert.match(r.stdout, /:paged \["r1" "r2" "r3" "r4" "r5"\]/, "the offset pagination override pages");
      const unpaged = await launch(["eval", "--upstreams-config", "ptc.json", "(tool/pages 'plain/get-pages {})"], {
        cwd: dir,
      });
      assert.notEqual(unpaged.code, 0, "without the override the operation does not page");

      // limits.connect_timeout_ms on the other faces that call upstreams
      const slow = "(:message (tool/call 'plain/get-slow {}))";
      const repl = await launch(["repl", "--upstreams-config", "ptc.json", "-e", slow], { cwd: dir });
      assert.match(repl.stdout, /within 300 ms/, repl.stdout + repl.stderr);
      const c = await connectStdio("auto", ["--upstreams-config", join(dir, "ptc.json")]);
      try {
        assert.match(textOf(await evalLisp(c, slow)), /within 300 ms/);
      } finally {
        await c.close();
      }
      await writeConfig(dir, {
        upstreams: { plain: { ...base, doctor_probe: { tool: "get-slow" } } },
        limits: { connect_timeout_ms: 300 },
      }, "probe.json");
      const doctor = await launch(["doctor", "--connect", "--upstreams-config", "probe.json"], { cwd: dir });
      assert.notEqual(doctor.code, 0);
      assert.match(doctor.stdout + doctor.stderr, /300 ms/, doctor.stdout + doctor.stderr);

      const cat = await launch(["catalog", "--format", "json", "--upstreams-config", "ptc.json"], { cwd: dir });
      assert.equal(cat.code, 0, cat.stderr);
      const json = JSON.parse(cat.stdout) as { servers: { name: string; tools: { description: string }[] }[] };
      const th = json.servers.find((s) => s.name === "th")!;
      const plain = json.servers.find((s) => s.name === "plain")!;
      assert.ok(th.tools.every((t) => t.description.length <= 40), JSON.stringify(th.tools));
      assert.ok(plain.tools.some((t) => t.description.length > 40));

      // conflicts: "error" (the default) refuses the duplicate name; "skip" exposes neither.
      const th2 = { ...base, operation_overrides: { getOther: { name: "get-things" } } };
      await writeConfig(dir, { upstreams: { th: th2 } }, "dup.json");
      const dup = await launch(["catalog", "--upstreams-config", "dup.json"], { cwd: dir });
      assert.notEqual(dup.code, 0);
      assert.match(dup.stderr, /conflicts/);
      await writeConfig(dir, { upstreams: { th: { ...th2, conflicts: "skip" } } }, "skip.json");
      const skip = await launch(["catalog", "--format", "json", "--upstreams-config", "skip.json"], { cwd: dir });
      assert.equal(skip.code, 0, skip.stderr);
      assert.doesNotMatch(skip.stdout, /"get-things"/);
    });
  } finally {
    await service.close();
  }
});

Deno.test("config keys: $schema is an editor hint ptc accepts (an unknown key is refused)", async () => {
  await inTemp(async (dir) => {
    await writeConfig(dir, { $schema: "https://example.org/ptc.schema.json", upstreams: {} });
    const r = await launch(["eval", "--upstreams-config", "ptc.json", "(count (tool/servers))"], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    await writeConfig(dir, { $schemaa: "x", upstreams: {} });
    const typo = await launch(["eval", "--upstreams-config", "ptc.json", "1"], { cwd: dir });
    assert.notEqual(typo.code, 0, "an unknown top-level key is refused, so $schema is a key ptc knows");
  });
});

Deno.test("config keys on mcp_stdio and mcp_http: request_timeout_ms, and mcp_http's connect_timeout_ms", async () => {
  // the call's own timeout (10 s in callCtx) is far above: only request_timeout_ms can end the call at 300 ms
  const stdio = await startUpstream(mcpStdio, {
    transport: "mcp_stdio",
    command: Deno.execPath(),
    args: ["run", "--frozen", "--cached-only", "--allow-env", join(ROOT, "fixtures/mcp/stdio.ts")],
    request_timeout_ms: 300,
  });
  try {
    const r = await stdio.call("sleep", { ms: 3000 }, callCtx());
    assert.equal(!r.ok && r.reason, "timeout", JSON.stringify(r));
    assert.ok((await stdio.call("sleep", { ms: 10 }, callCtx())).ok, "a quick call still answers");
  } finally {
    await stdio.stop();
  }
  const fixture = await startMcpHttpFixture({ era: "both" });
  try {
    const u = await startUpstream(mcpHttp, {
      transport: "mcp_http",
      url: fixture.url,
      allow_insecure_loopback: true,
      request_timeout_ms: 300,
    });
    try {
      const r = await u.call("sleep", { ms: 3000 }, callCtx());
      assert.equal(!r.ok && r.reason, "timeout", JSON.stringify(r));
    } finally {
      await u.stop();
    }
  } finally {
    await fixture.close();
  }
  // a server that accepts the connection and never answers: the start ends at connect_timeout_ms
  const ac = new AbortController();
  const silent = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    () => new Promise<Response>((resolve) => ac.signal.addEventListener("abort", () => resolve(new Response("")))),
  );
  try {
    const started = startUpstream(mcpHttp, {
      transport: "mcp_http",
      url: `http://127.0.0.1:${silent.addr.port}/mcp`,
      allow_insecure_loopback: true,
      protocol: "streamable",
      start_timeout_ms: 20_000,
      connect_timeout_ms: 250,
    });
    await assert.rejects(started, (e: Error) => /250 ms|connect.timeout|no response headers/i.test(e.message));
  } finally {
    ac.abort();
    await silent.finished;
  }
});

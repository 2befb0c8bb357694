/**
 * `ptc mcp --approve-writes` with the official MCP SDK client over stdio: every write asks the client that made the
 * `lisp_eval` call (`elicitation/create`, form mode) before anything is sent, and the Observatory's write log is the
 * evidence — accepted: exactly one write; declined, cancelled, never answered, a client without the `elicitation`
 * capability, a 2026-07-28-era client (no server→client requests): none, `:not_applied`. A `pmap` of three writes asks
 * three times, one at a time, and sends exactly the accepted ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import type { RunningObservatory } from "../../fixtures/observatory/mod.ts";
import { withWriteObservatory } from "./write_observatory.ts";
import { ptcMcpArgs, ROOT } from "./ptc_mcp_child.ts";
import { hasInspector, runInspector } from "./inspector_cli.ts";
import { evalLisp, spawnHttpServer, textOf } from "./mcp_server_helpers.ts";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, boolean> } | "never";

interface Asked {
  message: string;
  mode?: string;
}

/** A client that may declare `elicitation` and answers each request with `answer()` (swappable between programs). */
async function connect(
  configPath: string,
  options: {
    elicitation: boolean;
    era: "legacy" | "auto";
    answer?: () => Answer;
    asked?: Asked[];
    auditLog?: string;
    /** How long the person takes before answering, ms (default 20). */
    thinkMs?: number;
    flags?: string[];
  },
): Promise<{ client: Client; inFlight: () => number; maxInFlight: () => number }> {
  const client = new Client(
    { name: "ptc-approval-test", version: "0.0.1" },
    {
      capabilities: options.elicitation ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: options.era, probe: { timeoutMs: 10_000 } },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  let open = 0;
  let max = 0;
  if (options.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { message: string; mode?: string };
      options.asked?.push({ message: params.message, mode: params.mode });
      open++;
      max = Math.max(max, open);
      try {
        const answer = options.answer!();
        // A person who never answers: ptc stops waiting after --approval-timeout-ms.
        if (answer === "never") return await new Promise<never>(() => {});
        // a person takes a moment: overlapping asks would show
        await new Promise((r) => setTimeout(r, options.thinkMs ?? 20));
        return answer;
      } finally {
        open--;
      }
    });
  }
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ptcMcpArgs([
      "--upstreams-config",
      configPath,
      "--allow-writes",
      "--approve-writes",
      "--approval-timeout-ms",
      "1500",
      "--response-profile",
      "debug",
      ...(options.auditLog ? ["--audit-log", options.auditLog] : []),
      ...(options.flags ?? []),
    ]),
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/tmp" },
    stderr: "pipe",
    cwd: ROOT,
  });
  transport.stderr?.on("data", () => {});
  await client.connect(transport);
  return { client, inFlight: () => open, maxInFlight: () => max };
}

const withObservatory = (fn: (o: RunningObservatory, configPath: string) => Promise<void>) =>
  withWriteObservatory(fn, 50);

const annotate = (trace: string, reason: string) =>
  `(let [r (tool/call 'observatory/create-trace-annotation {:trace_id "${trace}" :label "needs-review"} ` +
  `{:reason "${reason}"})] [(:ok r) (:reason r) (:mutation_state r)])`;

/** The approval outcomes the debug profile's call records carry. */
function approvals(result: unknown): unknown[] {
  const calls = (result as { structuredContent?: { upstream_calls?: { approval?: string }[] } }).structuredContent
    ?.upstream_calls ?? [];
  return calls.map((c) => c.approval);
}

Deno.test("ptc mcp --approve-writes: accept, decline, cancel, no answer — counted at the fixture's write log", async () => {
  await withObservatory(async (observatory, configPath) => {
    const trace = observatory.dataset.traces[0].id;
    const asked: Asked[] = [];
    let answer: Answer = { action: "accept", content: { approve: true } };
    const auditLog = join(await Deno.makeTempDir({ prefix: "ptc-approve-audit-" }), "audit.jsonl");
    const { client } = await connect(configPath, {
      elicitation: true,
      era: "legacy",
      answer: () => answer,
      asked,
      auditLog,
    });
    try {
      const lisp = (await client.listTools()).tools.find((t) => t.name === "lisp_eval")!;
      assert.match(lisp.description ?? "", /each write waits for a person's approval/);

      const accepted = await evalLisp(client, annotate(trace, "flag the failed run for review"));
      assert.match(textOf(accepted), /^\[true nil :applied\]/);
      assert.equal(observatory.writes().length, 1, "accepted: exactly one write");
      assert.deepEqual(approvals(accepted), ["accepted"]);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode, "form");
      for (
        const fact of [
          "observatory/create-trace-annotation",
          "effect: write",
          `"trace_id":"${trace}"`,
          "flag the failed run for review",
        ]
      ) assert.ok(asked[0].message.includes(fact), `the elicitation message names ${fact}: ${asked[0].message}`);

      const refusals: [Answer, string, string][] = [
        [{ action: "decline" }, ":declined", "declined"],
        [{ action: "cancel" }, ":declined", "cancelled"],
        [{ action: "accept", content: { approve: false } }, ":declined", "declined"],
        ["never", ":approval_unavailable", "unavailable"],
      ];
      for (const [given, reason, recorded] of refusals) {
        answer = given;
        const refused = await evalLisp(client, annotate(trace, "again"));
        assert.match(textOf(refused), new RegExp(`^\\[false ${reason} :not_applied\\]`), JSON.stringify(given));
        assert.deepEqual(approvals(refused), [recorded], JSON.stringify(given));
        assert.equal(observatory.writes().length, 1, `${JSON.stringify(given)}: nothing sent`);
      }
      // A read never asks.
      const before = asked.length;
      const read = await evalLisp(
        client,
        `(:ok (tool/call 'observatory/list-trace-annotations {:trace_id "${trace}"}))`,
      );
      assert.equal(textOf(read).split("\n")[0], "true");
      assert.equal(asked.length, before, "reads are not approved");
      const doc = await evalLisp(client, "(doc 'observatory/create-trace-annotation)");
      assert.match(textOf(doc), /Approval: waits for a person to approve each call before it is sent/);
    } finally {
      await client.close();
    }
    // The audit log's call lines carry each elicitation outcome (null for the read).
    const lines = (await Deno.readTextFile(auditLog)).trim().split("\n").map((l) => JSON.parse(l));
    const calls = lines.filter((l) => l.kind === "call");
    assert.deepEqual(
      calls.map((l) => [l.approval, l.mutation_state]),
      [
        ["accepted", "applied"],
        ["declined", "not_applied"],
        ["cancelled", "not_applied"],
        ["declined", "not_applied"],
        ["unavailable", "not_applied"],
        [null, null],
      ],
    );
    await Deno.remove(join(auditLog, ".."), { recursive: true });
  });
});

Deno.test("ptc mcp --approve-writes: a pmap of three writes asks three times, one at a time; only accepted ones are sent", async () => {
  await withObservatory(async (observatory, configPath) => {
    const traces = observatory.dataset.traces.slice(0, 3).map((t) => t.id);
    const asked: Asked[] = [];
    const script: Answer[] = [
      { action: "accept", content: { approve: true } },
      { action: "decline" },
      { action: "accept", content: { approve: true } },
    ];
    const conn = await connect(configPath, { elicitation: true, era: "legacy", answer: () => script.shift()!, asked });
    try {
      const program =
        `(mapv (fn [r] (:mutation_state r)) (pmap (fn [t] (tool/call 'observatory/create-trace-annotation ` +
        `{:trace_id t :label "needs-review"} {:reason "batch"})) ${JSON.stringify(traces).replaceAll(",", " ")}))`;
      const result = await evalLisp(conn.client, program);
      const states = textOf(result).split("\n")[0];
      assert.equal(asked.length, 3, "one approval per write");
      assert.equal(conn.maxInFlight(), 1, "asked one at a time");
      assert.equal(observatory.writes().length, 2, "exactly the two accepted writes");
      assert.equal((states.match(/:applied/g) ?? []).length, 2, states);
      assert.equal((states.match(/:not_applied/g) ?? []).length, 1, states);
      // each ask named its own call: an approval is never reused for another trace
      assert.deepEqual(
        asked.map((a) => traces.find((t) => a.message.includes(t))).sort(),
        [...traces].sort(),
      );
    } finally {
      await conn.client.close();
    }
  });
});

Deno.test("ptc mcp --approve-writes: no elicitation capability, or a 2026-07-28 client → :approval_unavailable, nothing sent", async () => {
  await withObservatory(async (observatory, configPath) => {
    const trace = observatory.dataset.traces[0].id;
    for (
      const options of [{ elicitation: false, era: "legacy" as const }, { elicitation: true, era: "auto" as const }]
    ) {
      const asked: Asked[] = [];
      const { client } = await connect(configPath, {
        ...options,
        asked,
        answer: () => ({ action: "accept", content: { approve: true } }),
      });
      try {
        const result = await evalLisp(client, annotate(trace, "x"));
        assert.match(textOf(result), /^\[false :approval_unavailable :not_applied\]/, JSON.stringify(options));
        assert.equal(asked.length, 0, JSON.stringify(options));
      } finally {
        await client.close();
      }
    }
    assert.equal(observatory.writes().length, 0);
  });
});

Deno.test("ptc mcp --http --approve-writes: the stateless HTTP face cannot send elicitation → :approval_unavailable", async () => {
  await withObservatory(async (observatory, configPath) => {
    const trace = observatory.dataset.traces[0].id;
    const server = await spawnHttpServer(
      ["--upstreams-config", configPath, "--allow-writes", "--approve-writes", "--approval-timeout-ms", "1500"],
      { PTC_ALLOW_WRITES: "" },
    );
    try {
      for (const era of ["legacy", "auto"] as const) {
        const asked: Asked[] = [];
        const client = new Client(
          { name: "ptc-approval-http", version: "0.0.1" },
          {
            capabilities: { elicitation: { form: {} } },
            versionNegotiation: { mode: era, probe: { timeoutMs: 10_000 } },
            jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
          },
        );
        client.setRequestHandler("elicitation/create", (request) => {
          asked.push({ message: (request.params as { message: string }).message });
          return Promise.resolve({ action: "accept", content: { approve: true } });
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        try {
          const result = await evalLisp(client, annotate(trace, "x"));
          assert.match(textOf(result), /^\[false :approval_unavailable :not_applied\]/, era);
          assert.equal(asked.length, 0, era);
        } finally {
          await client.close();
        }
      }
    } finally {
      await server.stop();
    }
    assert.equal(observatory.writes().length, 0);
  });
});

Deno.test({
  name: "MCP Inspector CLI over stdio (legacy and 2026 eras) declares no elicitation → :approval_unavailable",
  ignore: !hasInspector(),
  fn: async () => {
    await withObservatory(async (observatory, configPath) => {
      const trace = observatory.dataset.traces[0].id;
      const target = [
        Deno.execPath(),
        ...ptcMcpArgs(["--upstreams-config", configPath, "--allow-writes", "--approve-writes"]),
      ];
      for (const era of ["legacy", "modern"]) {
        const r = await runInspector([
          "--protocol-era",
          era,
          ...target,
          "--method",
          "tools/call",
          "--tool-name",
          "lisp_eval",
          "--tool-arg",
          `program=${annotate(trace, "inspector")}`,
        ], { cwd: ROOT }) as { result: { content: { text: string }[] } };
        assert.match(r.result.content[0].text, /^\[false :approval_unavailable :not_applied\]/, era);
      }
      assert.equal(observatory.writes().length, 0);
    });
  },
});

Deno.test("ptc mcp --approve-writes: the program's deadline pauses while the person decides", async () => {
  await withObservatory(async (observatory, configPath) => {
    const trace = observatory.dataset.traces[0].id;
    const conn = await connect(configPath, {
      elicitation: true,
      era: "legacy",
      answer: () => ({ action: "accept", content: { approve: true } }),
      // the person takes longer than the whole program may run; the program still has its time afterwards
      thinkMs: 1_200,
      flags: ["--program-timeout-ms", "800"],
    });
    try {
      const program = `(let [r (tool/call 'observatory/create-trace-annotation {:trace_id "${trace}" ` +
        `:label "needs-review"})] [(:mutation_state r) (> (:time_ms (budget/remaining)) 0)])`;
      const result = await evalLisp(conn.client, program);
      assert.match(textOf(result), /^\[:applied true\]/);
      assert.equal(observatory.writes().length, 1);
    } finally {
      await conn.client.close();
    }
  });
});

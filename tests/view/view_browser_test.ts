/**
 * `ptc view` and `ptc mcp --view` in a real browser: programs run with `ptc eval --record` against the Observatory
 * fixture (and the demo's eleven questions, the write one with writes enabled), `bin/ptc view` serves the recording
 * confined to the flags `ptc permissions view` prints, from another working directory, and headless Chromium loads
 * each page, checks what it shows, filters, clicks through to a run and saves a screenshot of each page (into
 * $PTC_VIEW_SCREENSHOTS when set — `docs/` holds the committed ones — else a temporary directory). Live: the MCP SDK
 * client calls `lisp_eval` on `ptc mcp --http … --view …` and the open runs page shows the new run by itself.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTokenDir, startObservatory } from "../../fixtures/observatory/mod.ts";
import { writeConcreteConfig } from "../../src/cli/demo_session.ts";
import { demoQuestions, demoWriteQuestion } from "../../src/cli/demo_questions.ts";
import { launch, LAUNCHER } from "../integration/launcher_helpers.ts";
import { connectHttp, evalLisp } from "../integration/mcp_server_helpers.ts";
import { launchBrowser, spawnServing } from "./browser.ts";
import type { Page } from "puppeteer-core";

const PMAP = `(let [r (pmap (fn [s] (tool/call 'observatory/list-traces {:org_id "acme" :status s :limit 3}))
               ["error" "ok"])]
  (println "statuses" (count r))
  (mapv (fn [x] (count (get-in x [:value :traces]))) r))`;
const MISSING = `(tool/call 'observatory/get-trace {:trace-id "nope"})`;
const PURE = `(+ 1 2)`;
/** Hostile text in a program: shown as text, never run as markup. */
const HOSTILE = `(str "<script>document.title='pwned'</script>" "<img src=x onerror=alert(1)>")`;

async function shotsDir(): Promise<string> {
  const dir = Deno.env.get("PTC_VIEW_SCREENSHOTS");
  if (dir) return dir;
  return await Deno.makeTempDir({ prefix: "ptc-view-shots-" });
}

async function shoot(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: join(dir, name) as `${string}.png`, fullPage: true });
}

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent ?? "");

/** Record `programs` (one evaluation each) with `bin/ptc eval --record` from `cwd`. */
async function record(cwd: string, config: string, rec: string, programs: string[], extra: string[] = []) {
  const jsonl = programs.map((p) => JSON.stringify(p)).join("\n") + "\n";
  const r = await launch(["eval", "--upstreams-config", config, "--record", rec, "--jsonl", ...extra], {
    cwd,
    stdin: jsonl,
  });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout.trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("ptc view in headless Chromium: runs, filters, a run's waterfall, what the agent sees, the demo", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-" });
  const cwd = join(dir, "elsewhere");
  await Deno.mkdir(cwd);
  await Deno.mkdir(join(dir, ".observatory"));
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const observatory = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none" });
  const browser = await launchBrowser();
  const shots = await shotsDir();
  const servers: { stop(): Promise<void> }[] = [];
  try {
    const config = await writeConcreteConfig(dir, observatory.url);
    const rec = join(dir, "rec");
    await record(cwd, config, rec, [PMAP, MISSING, PURE, HOSTILE]);

    const view = await spawnServing(LAUNCHER, ["view", "--recordings", rec, "--listen", "127.0.0.1:0"], [
      /serving (http:\/\/\S+)/,
    ], { cwd, clearEnv: true, env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, NO_COLOR: "1" } });
    servers.push(view);
    const base = view.urls[0];
    const page = await browser.browser.newPage();
    const blocked: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base)) blocked.push(r.url());
    });

    await t.step("the runs page lists every evaluation with its outcome, calls and bytes", async () => {
      await page.goto(base, { waitUntil: "load" });
      assert.equal(await text(page, "#count"), "4 of 4");
      const rows = await page.$$eval("#runs tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
      assert.equal(rows.length, 4);
      assert.ok(rows.some((r) => r.includes("not_found") === false && r.includes("observatory") === false));
      assert.equal(await page.title(), "Runs · ptc view", "hostile program text never becomes markup");
      await shoot(page, shots, "view-runs.png");
    });

    await t.step("filters: by tool, by text in the program, by outcome", async () => {
      await page.select("select[name=tool]", "observatory/list-traces");
      await Promise.all([page.waitForNavigation(), page.click("form.filters button")]);
      assert.equal(await text(page, "#count"), "1 of 4");
      await page.goto(`${base}?q=${encodeURIComponent("+ 1 2")}`);
      assert.equal(await text(page, "#count"), "1 of 4");
      await page.goto(`${base}?outcome=ok`);
      assert.equal(await text(page, "#count"), "4 of 4", "a returned tagged failure is still a run that returned");
    });

    await t.step("click through to the pmap run: highlighted program, prints, answer, waterfall, budgets", async () => {
      await page.goto(`${base}?tool=observatory/list-traces`);
      await Promise.all([page.waitForNavigation(), page.click("#runs tbody tr a")]);
      assert.match(await text(page, "#program"), /tool\/call 'observatory\/list-traces/);
      assert.ok((await page.$$("#program span.ht")).length >= 1, "tool/call is highlighted");
      assert.equal((await text(page, "#prints")).trim(), "statuses 2");
      assert.equal((await text(page, "#answer")).trim(), "[3 3]");
      const bars = await page.$$eval("#waterfall g.call rect", (rs) => rs.map((r) => Number(r.getAttribute("x"))));
      assert.equal(bars.length, 2, "one bar per upstream call");
      assert.match(await page.$eval("h2:nth-of-type(4)", (e) => e.textContent ?? ""), /at most [12] at once/);
      assert.match(await text(page, "#budgets"), /tool calls: 2 of 50/);
      assert.match(await text(page, "#snapshots"), /observatory [0-9a-f]{12}/);
      assert.match(await text(page, "#writes"), /No writes/);
      await shoot(page, shots, "view-run.png");
    });

    await t.step("what the agent sees: the description per exposure mode and each tool's doc", async () => {
      await page.goto(`${base}sees`);
      const descriptions = await page.$$eval("pre.description", (ps) => ps.map((p) => [p.id, p.hidden]));
      assert.equal(descriptions.length, 3);
      assert.match(await text(page, "pre.description:not([hidden])"), /Run a PTC-Lisp program/);
      await page.click(".tabs button:nth-child(3)");
      const lazy = await page.$eval("pre.description:not([hidden])", (p) => p.id);
      assert.match(lazy, /lazy$/);
      const docs = await page.$$eval("details.tool pre", (ps) => ps.map((p) => p.textContent ?? ""));
      assert.ok(docs.some((d) => d.startsWith("observatory/get-trace") && d.includes("Call: (tool/call")), docs[0]);
      await page.click("details.tool:nth-of-type(3) summary");
      assert.ok(await page.$eval("details.tool:nth-of-type(3)", (d) => d.hasAttribute("open")));
      await shoot(page, shots, "view-sees.png");
    });

    await t.step("nothing was fetched from anywhere but the view itself", () => {
      assert.deepEqual(blocked, []);
    });

    await t.step("the demo's eleven questions as runs, the write's mutation state visible", async () => {
      const demoConfig = await writeConcreteConfig(dir, observatory.url, {
        upstreams: "all",
        writes: true,
        fileName: "demo.jsonc",
      });
      const failed = observatory.dataset.traces.find((x) =>
        x.org_id === "globex" && x.status === "error" && x.step_count >= 5
      ) ?? observatory.dataset.traces[0];
      const questions = [...demoQuestions({ externalTraceId: failed.external_trace_id }), demoWriteQuestion()];
      assert.equal(questions.length, 11);
      const demoRec = join(dir, "demo-rec");
      const answers = await record(cwd, demoConfig, demoRec, questions.map((q) => q.program), ["--allow-writes"]);
      assert.ok(answers.every((a) => a.ok), JSON.stringify(answers.filter((a) => !a.ok)));
      const demoView = await spawnServing(
        LAUNCHER,
        ["view", "--recordings", demoRec, "--listen", "127.0.0.1:0"],
        [/serving (http:\/\/\S+)/],
        { cwd, clearEnv: true, env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, NO_COLOR: "1" } },
      );
      servers.push(demoView);
      await page.goto(demoView.urls[0]);
      assert.equal(await text(page, "#count"), "11 of 11");
      await shoot(page, shots, "view-demo-runs.png");
      await page.goto(`${demoView.urls[0]}?tool=observatory/create-trace-annotation`);
      assert.equal(await text(page, "#count"), "1 of 11");
      await Promise.all([page.waitForNavigation(), page.click("#runs tbody tr a")]);
      assert.match(await text(page, "#writes"), /observatory\/create-trace-annotation applied/);
      assert.match(await text(page, "#budgets"), /writes: 1 of \d+/);
      await shoot(page, shots, "view-demo-write.png");
    });
  } finally {
    for (const s of servers) await s.stop();
    await browser.close();
    await observatory.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("ptc mcp --view: the runs page shows a new evaluation by itself; the Host guard holds", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "ptc-view-live-" });
  await Deno.mkdir(join(dir, ".observatory"));
  const tokens = await createTokenDir(join(dir, ".observatory"));
  const observatory = await startObservatory({ port: 0, tokensFile: tokens.tokensFile, auditLog: "none", traces: 200 });
  const elsewhere = join(dir, "elsewhere");
  await Deno.mkdir(elsewhere);
  const browser = await launchBrowser();
  const shots = await shotsDir();
  let server: { stop(): Promise<void> } | undefined;
  let auditView: { stop(): Promise<void> } | undefined;
  try {
    const config = await writeConcreteConfig(dir, observatory.url);
    const audit = join(dir, "audit.jsonl");
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir, NO_COLOR: "1" };
    const served = await spawnServing(
      LAUNCHER,
      [
        "mcp",
        "--upstreams-config",
        config,
        "--http",
        "127.0.0.1:0",
        "--view",
        "127.0.0.1:0",
        "--audit-log",
        audit,
      ],
      [/listening on (http:\/\/\S+)/, /viewer on (http:\/\/\S+)/],
      { cwd: elsewhere, clearEnv: true, env },
    );
    server = served;
    const [mcpUrl, viewUrl] = served.urls;
    const page = await browser.browser.newPage();

    await t.step("an evaluation made through the MCP client appears on the open page", async () => {
      await page.goto(viewUrl);
      assert.equal(await text(page, "#count"), "0 of 0");
      const client = await connectHttp("auto", mcpUrl);
      try {
        const reload = page.waitForNavigation({ timeout: 20_000 });
        await evalLisp(
          client,
          `(count (get-in (tool/call 'observatory/list-traces {:org_id "acme" :limit 5})
                                                [:value :traces]))`,
        );
        await reload;
      } finally {
        await client.close();
      }
      assert.equal(await text(page, "#count"), "1 of 1");
      const row = await text(page, "#runs tbody tr");
      assert.match(row, /http/);
      assert.match(row, /local/);
      await Promise.all([page.waitForNavigation(), page.click("#runs tbody tr a")]);
      assert.match(await text(page, "#program"), /list-traces/);
      assert.equal((await text(page, "#answer")).trim(), "5");
      assert.match(await text(page, "#calls"), /observatory\/list-traces\s*read/);
      await shoot(page, shots, "view-live.png");
    });

    await t.step(
      "ptc view --audit-log shows the same evaluation from the audit log: its call, no program text",
      async () => {
        const view = await spawnServing(
          LAUNCHER,
          ["view", "--audit-log", join(dir, "audit.jsonl"), "--listen", "127.0.0.1:0"],
          [/serving (http:\/\/\S+)/],
          { cwd: elsewhere, clearEnv: true, env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: dir } },
        );
        auditView = view;
        await page.goto(view.urls[0]);
        assert.equal(await text(page, "#count"), "1 of 1");
        assert.match(await text(page, "#runs tbody tr"), /http.*local.*ok/s);
        await Promise.all([page.waitForNavigation(), page.click("#runs tbody tr a")]);
        assert.match(await text(page, "#program"), /keeps no program text/);
        assert.equal((await page.$$("#waterfall g.call")).length, 1, "the call line's start and duration");
        assert.match(await text(page, "#snapshots"), /observatory [0-9a-f]{12}/);
        await shoot(page, shots, "view-audit.png");
      },
    );

    await t.step("a request naming another Host is refused (DNS rebinding)", async () => {
      const port = new URL(viewUrl).port;
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
      await conn.write(
        new TextEncoder().encode(`GET / HTTP/1.1\r\nHost: evil.example:${port}\r\nConnection: close\r\n\r\n`),
      );
      const buf = new Uint8Array(256);
      const n = await conn.read(buf);
      conn.close();
      assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 403/);
    });
  } finally {
    await auditView?.stop();
    await server?.stop();
    await browser.close();
    await observatory.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

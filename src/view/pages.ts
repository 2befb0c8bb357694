/**
 * The pages of `ptc view`, rendered on the server with hono's `html` template (every interpolated value is escaped):
 * the runs list with its filters and paging, one run (program, prints, answer, waterfall of its upstream calls,
 * budgets, writes), and what the agent sees (the `lisp_eval` description per exposure mode and each tool's doc).
 * The CSS and the few lines of script are inline, under the page's nonce: nothing is fetched from anywhere else.
 * @module
 */
import { html, raw } from "hono/html";
import { highlightLisp } from "./highlight.ts";
import { peakConcurrency, type ViewCall, type ViewRun } from "./model.ts";

type Html = ReturnType<typeof raw>;

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:8px 20px;display:flex;gap:20px;align-items:baseline}
header b{font-size:16px}header a{color:#c9d4ff;text-decoration:none}header a.on{color:#fff;font-weight:600}
main{padding:16px 20px;max-width:1280px}h1{font-size:18px;margin:4px 0 12px}h2{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{padding:4px 8px;border-bottom:1px solid #e3e6ec;
text-align:left;vertical-align:top;white-space:nowrap}td.wrap{white-space:normal}th{background:#eef0f4;font-weight:600}
tr.row:hover{background:#f0f4ff}a{color:#2446c8}.ok{color:#17803d;font-weight:600}.err{color:#b42318;font-weight:600}
.muted{color:#667085}.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#fff;border:1px solid #e3e6ec;padding:8px 10px;overflow:auto;max-height:420px;margin:0;
white-space:pre-wrap;word-break:break-word;font:12.5px/1.45 ui-monospace,monospace}
form.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin-bottom:12px}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:#475467}
input,select,button{font:inherit;padding:3px 6px}.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}
.badge{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;background:#eef0f4}
.badge.applied{background:#d1fadf;color:#05603a}.badge.not_applied{background:#fee4e2;color:#912018}
.badge.indeterminate{background:#fef0c7;color:#93370d}.pager{margin:10px 0;display:flex;gap:12px}
.hc{color:#667085}.hs{color:#0b6b3a}.hk{color:#8a3ffc}.hn{color:#b54708}.hp{color:#98a2b3}.ht{color:#2446c8;
font-weight:600}.hf{color:#c11574}.hq{color:#0e7090}svg.wf{background:#fff;border:1px solid #e3e6ec}
.meter{display:inline-block;width:120px;height:8px;background:#eef0f4;vertical-align:middle;margin-right:6px}
.meter svg{display:block}
.tabs button{margin-right:4px}.tabs button.on{font-weight:700}.problems{color:#b42318}
`;

/** One page: header with the navigation, the content, the inline CSS and script under `nonce`. */
export function layout(
  title: string,
  active: "runs" | "sees",
  nonce: string,
  body: Html,
  opts: { live?: boolean; script?: string } = {},
): Html {
  const nav = (href: string, label: string, on: boolean) =>
    html`<a href="${href}" class="${on ? "on" : ""}">${label}</a>`;
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width,initial-scale=1">
        <title>${title} · ptc view</title>
        <style nonce="${nonce}">${raw(CSS)}</style>
      </head>
      <body>
    <header><b>ptc view</b>${nav("/", "Runs", active === "runs")}${nav(
      "/sees",
      "What the agent sees",
      active === "sees",
    )}
    ${opts.live ? html`<span class="badge" id="live">live</span>` : ""}</header>
    <main>${body}</main>
    ${opts.script ? html`<script nonce="${nonce}">${raw(opts.script)}</script>` : ""}
      </body>
    </html>
  ` as Html;
}

/** The filters of the runs list (query parameters). */
export interface RunFilters {
  outcome?: string;
  upstream?: string;
  tool?: string;
  from?: string;
  to?: string;
  q?: string;
  page: number;
}

/** Runs a page lists. */
export const PAGE_SIZE = 50;

/** Whether `run` passes the filters. */
export function matches(run: ViewRun, f: RunFilters): boolean {
  if (f.outcome === "ok" && !run.ok) return false;
  if (f.outcome === "error" && run.ok) return false;
  if (f.outcome && f.outcome !== "ok" && f.outcome !== "error" && run.outcome !== f.outcome) return false;
  if (f.upstream && !run.calls.some((c) => c.server === f.upstream)) return false;
  if (f.tool && !run.calls.some((c) => `${c.server}/${c.tool}` === f.tool)) return false;
  if (f.from && run.time < f.from) return false;
  if (f.to && run.time > f.to) return false;
  if (f.q && !(run.program ?? "").toLowerCase().includes(f.q.toLowerCase())) return false;
  return true;
}

function ms(n: number | undefined): string {
  if (n === undefined) return "–";
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(n < 10 ? 1 : 0)} ms`;
}

function bytes(n: number | undefined): string {
  if (n === undefined) return "–";
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

function outcomeCell(run: ViewRun): Html {
  return html`<span class="${run.ok ? "ok" : "err"}">${run.outcome}</span>` as Html;
}

function option(value: string, label: string, selected: string | undefined): Html {
  return html`<option value="${value}" ${value === (selected ?? "") ? raw("selected") : ""}>${label}</option>` as Html;
}

/** The runs page: filters, one page of runs (newest first), paging links. */
export function runsPage(
  all: ViewRun[],
  f: RunFilters,
  nonce: string,
  opts: { live: boolean; sources: string[]; problems: string[] },
): Html {
  const sorted = [...all].sort((
    a,
    b,
  ) => (a.time < b.time ? 1 : a.time > b.time ? -1 : b.id.localeCompare(a.id, "en", { numeric: true })));
  const shown = sorted.filter((r) => matches(r, f));
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, f.page), pages);
  const rows = shown.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const reasons = [...new Set(all.filter((r) => !r.ok).map((r) => r.outcome))].sort();
  const servers = [...new Set(all.flatMap((r) => r.calls.map((c) => c.server)))].sort();
  const tools = [...new Set(all.flatMap((r) => r.calls.map((c) => `${c.server}/${c.tool}`)))].sort();
  const link = (p: number) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...f, page: String(p) })) if (v) q.set(k, String(v));
    return `/?${q}`;
  };
  const body = html`
    <h1>Runs <span class="muted" id="count">${shown.length} of ${all.length}</span></h1>
    <p class="muted">${opts.sources.join(" · ")}</p>
    ${opts.problems.length ? html`<ul class="problems">${opts.problems.map((p) => html`<li>${p}</li>`)}</ul>` : ""}
    <form class="filters" method="get" action="/">
    <label>outcome<select name="outcome">${option("", "any", f.outcome)}${option("ok", "ok", f.outcome)}${option(
      "error",
      "any error",
      f.outcome,
    )}${reasons.map((r) => option(r, r, f.outcome))}</select></label>
    <label>upstream<select name="upstream">${option("", "any", f.upstream)}${servers.map((s) =>
      option(s, s, f.upstream)
    )}</select></label>
    <label>tool<select name="tool">${option("", "any", f.tool)}${tools.map((t) =>
      option(t, t, f.tool)
    )}</select></label>
    <label>from<input name="from" placeholder="2026-01-01T00:00" value="${f.from ?? ""}" size="16"></label>
    <label>to<input name="to" placeholder="2026-12-31T23:59" value="${f.to ?? ""}" size="16"></label>
    <label>program contains<input name="q" value="${f.q ?? ""}" size="18"></label>
    <button type="submit">Filter</button> <a href="/">clear</a></form>
    <table id="runs">
      <thead>
        <tr>
          <th>time</th>
          <th>face</th>
          <th>owner</th>
          <th>outcome</th>
          <th class="num">duration</th>
          <th class="num">upstream → answer</th>
          <th class="num">calls</th>
          <th class="num">writes</th>
          <th>program</th>
        </tr>
      </thead>
      <tbody>${rows.map((r) =>
        html`
          <tr class="row">
            <td><a href="/runs/${r.id}">${r.time.replace("T", " ").replace(/\.\d+Z$/, "Z")}</a></td>
            <td>${r.face ?? "–"}</td>
            <td>${r.owner ?? "–"}</td>
            <td>${outcomeCell(r)}</td>
            <td class="num">${ms(r.durationMs)}</td>
            <td class="num">${bytes(r.upstreamBytes)} → ${bytes(r.answerBytes)}</td>
            <td class="num">${r.calls.length}</td>
            <td class="num">${r.writes.length}</td>
            <td class="wrap muted">${r.hidden
              ? "(another owner's)"
              : (r.program ?? (r.programSha ? `sha256 ${r.programSha.slice(0, 12)}…` : ""))
                .slice(0, 80)}</td>
          </tr>
        `
      )}</tbody>
    </table>
    ${rows.length === 0 ? html`<p class="muted">No runs match.</p>` : ""}
    <div class="pager">${page > 1
      ? html`<a href="${link(page - 1)}">← newer</a>`
      : ""}<span>page ${page} of ${pages}</span>${page < pages
      ? html`<a href="${link(page + 1)}" id="older">older →</a>`
      : ""}</div>
  ` as Html;
  // Live: new runs reload the list, at most twice a second (not while the operator types in a filter).
  const script = opts.live
    ? `const es=new EventSource("/events");let due=0;es.onmessage=()=>{if(due)return;due=setTimeout(()=>{due=0;` +
      `const a=document.activeElement;if(!a||a.tagName!=="INPUT")location.reload()},500)};`
    : undefined;
  return layout("Runs", "runs", nonce, body, { live: opts.live, script });
}

/** The waterfall: one bar per call from its start offset over its duration (SVG attributes, no inline styles). */
function waterfall(calls: ViewCall[]): Html {
  const timed = calls.filter((c) => c.startMs !== undefined && c.durationMs !== undefined);
  if (timed.length === 0) {
    return html`<p class="muted">No timings (a version 1 recording, or no upstream call).</p>` as Html;
  }
  const order = [...timed].sort((a, b) => a.startMs! - b.startMs!);
  const end = Math.max(...order.map((c) => c.startMs! + c.durationMs!), 1);
  const labelW = 260;
  const barW = 640;
  const rowH = 22;
  const height = order.length * rowH + 24;
  const x = (t: number) => labelW + (t / end) * barW;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * end);
  return html`
    <svg class="wf" id="waterfall" width="${labelW + barW + 130}" height="${height}"
      xmlns="http://www.w3.org/2000/svg" font-size="12" font-family="system-ui,sans-serif">
    ${ticks.map((t) =>
      html`
        <line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${height - 16}" stroke="#e3e6ec" />
        <text x="${x(t)}" y="${height - 4}" fill="#667085" text-anchor="middle">${ms(t)}</text>
      `
    )}
    ${order.map((c, i) => {
      const y = i * rowH + 4;
      const fill = c.status === "ok" ? (c.effect === "write" ? "#7a5af8" : "#2e90fa") : "#f04438";
      const w = Math.max(2, (c.durationMs! / end) * barW);
      return html`
        <g class="call">
          <text x="4" y="${y + 13}" fill="#1d2330">${`${c.server}/${c.tool}`.slice(0, 38)}</text>
          <rect x="${x(c.startMs!)}" y="${y + 2}" width="${w}" height="${rowH - 8}" rx="2" fill="${fill}">
            <title>${c.server}/${c.tool} start ${ms(c.startMs)} for ${ms(c.durationMs)} ${c.status}${c.reason
              ? ` ${c.reason}`
              : ""}</title>
          </rect>
          <text x="${x(c.startMs!) + w + 4}" y="${y + 13}" fill="#475467">${ms(c.durationMs)} · ${c.status === "ok"
            ? "ok"
            : c.reason ?? "error"} · ${bytes(c.bytes)}</text>
        </g>
      `;
    })}</svg>
  ` as Html;
}

function meter(label: string, used: number | undefined, limit: number | undefined): Html {
  if (used === undefined) return html`` as Html;
  const w = limit ? Math.min(120, Math.round((used / limit) * 120)) : 0;
  return html`<div><span class="meter"><svg width="120" height="8"><rect width="${w}" height="8" fill="${
    limit && used >= limit ? "#f04438" : "#2e90fa"
  }"/></svg></span>${label}: ${used}${limit !== undefined ? ` of ${limit}` : ""}</div>` as Html;
}

/** One run. */
export function runPage(run: ViewRun, nonce: string): Html {
  const peak = peakConcurrency(run.calls);
  const snapshots = Object.entries(run.snapshots ?? {});
  const body = html`<p><a href="/">← runs</a></p>
<h1>Run ${run.id} ${outcomeCell(run)}</h1>
<div class="facts" id="facts">
<span>time</span><span>${run.time}</span>
<span>source</span><span>${run.source}${run.where ? ` · ${run.where}` : ""}</span>
<span>face</span><span>${run.face ?? "–"}${run.tool ? ` · ${run.tool}` : ""}</span>
<span>owner</span><span>${run.owner ?? "–"}</span>
<span>duration</span><span>${ms(run.durationMs)}</span>
<span>upstream → answer</span><span>${bytes(run.upstreamBytes)} → ${bytes(run.answerBytes)}</span>
${run.message ? html`<span>message</span><span class="err">${run.message}</span>` : ""}
${run.programSha ? html`<span>program sha256</span><span class="muted">${run.programSha}</span>` : ""}
<span>catalog snapshot</span><span id="snapshots">${
    snapshots.length
      ? snapshots.map(([s, id]) =>
        html`
          <span class="badge" title="${id}">${s} ${id.slice(0, 12)}</span>
        `
      )
      : "–"
  }</span></div>
<h2>Program</h2>
${
    run.hidden
      ? html`
        <p class="muted"
          id="program">Another owner's program: not shown (the operator can allow it with --view-all-programs).</p>
      `
      : run.program !== undefined
      ? html`<pre id="program">${highlightLisp(run.program)}</pre>`
      : html`<p class="muted" id="program">The audit log keeps no program text (only its digest).</p>`
  }
${
    run.prints?.length && !run.hidden
      ? html`
        <h2>Prints</h2>
        <pre id="prints">${run.prints.join("\n")}</pre>
      `
      : ""
  }
${
    run.answer !== undefined && !run.hidden
      ? html`
        <h2>Answer</h2>
        <pre id="answer">${run.answer}</pre>
      `
      : ""
  }
<h2>Upstream calls <span class="muted">${run.calls.length} · at most ${peak} at once</span></h2>
${waterfall(run.calls)}
${
    run.calls.length
      ? html`
        <table id="calls">
          <thead>
            <tr>
              <th>#</th>
              <th>tool</th>
              <th>effect</th>
              <th class="num">start</th>
              <th class="num">duration</th>
              <th>status</th>
              <th class="num">bytes</th>
              <th>mutation</th>
            </tr>
          </thead>
          <tbody>${run.calls.map((c, i) =>
            html`
              <tr>
                <td>${i + 1}</td>
                <td>${c.server}/${c.tool}</td>
                <td>${c.effect ?? "–"}</td>
                <td class="num">${ms(c.startMs)}</td>
                <td class="num">${ms(c.durationMs)}</td>
                <td class="${c.status === "ok" ? "ok" : "err"}">${c.status === "ok" ? "ok" : c.reason ?? "error"}</td>
                <td class="num">${bytes(c.bytes)}</td>
                <td>${c.mutationState
                  ? html`<span class="badge ${c.mutationState}">${c.mutationState}</span>`
                  : ""}</td>
              </tr>
            `
          )}</tbody>
        </table>
      `
      : ""
  }
<h2>Budgets</h2>
<div id="budgets">${
    run.usage
      ? html`${meter("tool calls", run.usage.toolCalls, run.limits?.maxToolCalls)}${
        meter("writes", run.usage.writeCalls, run.limits?.maxWriteCalls)
      }${meter("discovery operations", run.usage.discoveryOps, run.limits?.maxCatalogOps)}${
        (run.usage.budgetRefusals ?? []).map((r) => html`<div class="err">${r}</div>`)
      }`
      : html`<p class="muted">Not recorded (a version 1 recording).</p>`
  }</div>
<h2>Writes</h2>
<div id="writes">${
    run.writes.length
      ? html`<ul>${
        run.writes.map((w) =>
          html`<li>${w.server}/${w.tool} <span class="badge ${w.mutation_state}">${w.mutation_state}</span>${
            w.approval
              ? html`
                <span class="badge">approval: ${w.approval}</span>
              `
              : ""
          }</li>`
        )
      }</ul>`
      : html`<p class="muted">No writes.</p>`
  }</div>` as Html;
  return layout(`Run ${run.id}`, "runs", nonce, body);
}

/** What the agent of one catalog sees. */
export interface AgentView {
  /** Where the catalog comes from (a recording directory, or this server's config). */
  label: string;
  /** Exposure mode → the `lisp_eval` description. */
  descriptions: Record<string, string>;
  servers: { name: string; snapshot?: string; tools: { name: string; effect: string; doc: string }[] }[];
  problem?: string;
}

/** The "what the agent sees" page: one section per catalog, a tab per exposure mode, every tool's doc. */
export function seesPage(views: AgentView[], nonce: string): Html {
  const body = html`
    <h1>What the agent sees</h1>
    <p
      class="muted">The <code>lisp_eval</code> tool description for each catalog exposure mode (<code>--catalog-mode</code>),
    and what <code>(doc 'server/tool)</code> answers for each tool.</p>
    ${views.length === 0 ? html`<p class="muted">No catalog: open a recording with --recordings DIR.</p>` : ""}
    ${views.map((v, i) =>
      html`<section class="catalog"><h2>${v.label}</h2>${v.problem ? html`<p class="problems">${v.problem}</p>` : ""}
<div class="tabs">${
        Object.keys(v.descriptions).map((m, j) =>
          html`<button type="button" data-tab="d${i}-${m}" class="${j === 0 ? "on" : ""}">${m}</button>`
        )
      }</div>${
        Object.entries(v.descriptions).map(([m, text], j) =>
          html`<pre class="description" id="d${i}-${m}" ${j === 0 ? "" : raw("hidden")}>${text}</pre>`
        )
      }
${
        v.servers.map((s) =>
          html`<h2>${s.name} <span class="badge" title="${s.snapshot ?? ""}">snapshot ${
            s.snapshot?.slice(0, 12) ?? "–"
          }</span> <span class="muted">${s.tools.length} tools</span></h2>${
            s.tools.map((t) =>
              html`
                <details class="tool">
                  <summary>${s.name}/${t.name} <span class="muted">[${t.effect}]</span></summary>
                  <pre>${t.doc}</pre>
                </details>
              `
            )
          }`
        )
      }</section>`
    )}
  ` as Html;
  const script =
    `for(const b of document.querySelectorAll(".tabs button")){b.onclick=()=>{const s=b.closest("section");` +
    `for(const o of s.querySelectorAll(".tabs button"))o.classList.toggle("on",o===b);` +
    `for(const p of s.querySelectorAll("pre.description"))p.hidden=p.id!==b.dataset.tab}}`;
  return layout("What the agent sees", "sees", nonce, body, { script });
}

/**
 * `ptc view`: a local web UI over recordings (`--recordings DIR`, repeatable) and audit logs (`--audit-log FILE`,
 * repeatable) — the runs, one run's program, answer and waterfall, and what the agent sees. Loopback by default,
 * behind the HTTP face's guards; `ptc mcp --view HOST:PORT` serves the same pages over a running server
 * (`mcpView` below). docs/view.md.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { createEngine, EngineStartError } from "../engine/engine.ts";
import type { Engine } from "../engine/types.ts";
import { readTokenFile, singleToken } from "../mcp/auth.ts";
import { GuardConfigError } from "../mcp/guards.ts";
import { lispEvalDescriptionOf } from "../mcp/server.ts";
import type { ResponseProfile } from "../mcp/envelope.ts";
import { Replayer } from "../engine/replayer.ts";
import { RecordingError } from "../engine/recording_format.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { createViewApp, serveView } from "../view/app.ts";
import { LiveFeed } from "../view/live.ts";
import type { AgentView } from "../view/pages.ts";
import { AuditSource, RecordingSource, type RunSourceReader } from "../view/sources.ts";
import { parseFlags, UsageError, usageError } from "./usage.ts";
import { type FaceNeeds, mergeNeeds } from "./needs.ts";

/** The flags of `ptc view` (also read by `ptc permissions view`). */
export const VIEW_OPTIONS = {
  recordings: { type: "string", multiple: true },
  "audit-log": { type: "string", multiple: true },
  listen: { type: "string" },
  "auth-token-file": { type: "string" },
  "allowed-hosts": { type: "string" },
  open: { type: "boolean" },
} as const;

/** Where `ptc view` listens unless `--listen` says otherwise. */
export const DEFAULT_LISTEN = "127.0.0.1:7333";

/** Usage of `ptc view`. */
export function viewUsage(): string {
  return [
    "Usage: ptc view [--recordings DIR]… [--audit-log FILE]… [--listen HOST:PORT] [--open]",
    "",
    "A local web UI: the runs of recordings (--record) and audit logs (--audit-log), one run's program, answer and",
    "upstream-call waterfall, and what the agent sees (the lisp_eval description and each tool's doc).",
    "",
    "  --recordings DIR          a recording directory (repeatable)",
    "  --audit-log FILE          an audit log of ptc mcp (repeatable)",
    `  --listen HOST:PORT        where to serve (default ${DEFAULT_LISTEN}; port 0: any free port)`,
    "  --auth-token-file FILE    bearer token (≥ 32 chars) browsers must present once (?token=…); required off loopback",
    "  --allowed-hosts H,…       extra Host names accepted (behind a proxy)",
    "  --open                    open the view in the desktop's browser (xdg-open / open)",
  ].join("\n");
}

/** `HOST:PORT` → parts; UsageError naming the flag. */
export function parseListen(text: string, flag: string): { hostname: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`${flag}: expected HOST:PORT (e.g. ${DEFAULT_LISTEN}), got '${text}'`);
  return { hostname: m[1].replace(/^\[|\]$/g, ""), port };
}

/** The parsed flags. */
export interface ViewFlags {
  recordings: string[];
  auditLogs: string[];
  listen: { hostname: string; port: number };
  authTokenFile?: string;
  allowedHosts: string[];
  open: boolean;
}

/** Parse `ptc view` arguments; UsageError on anything wrong. */
export function parseViewFlags(args: string[]): ViewFlags {
  const { values, positionals } = parseFlags(args, VIEW_OPTIONS, true);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const recordings = values.recordings ?? [];
  const auditLogs = values["audit-log"] ?? [];
  if (recordings.length === 0 && auditLogs.length === 0) {
    throw new UsageError("name at least one --recordings DIR or --audit-log FILE");
  }
  return {
    recordings,
    auditLogs,
    listen: parseListen(values.listen ?? DEFAULT_LISTEN, "--listen"),
    authTokenFile: values["auth-token-file"],
    allowedHosts: (values["allowed-hosts"] ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    open: values.open === true,
  };
}

const abs = (p: string) => (isAbsolute(p) ? p : resolve(p));

/** The command that opens a URL in the desktop's browser. */
export const OPENER = Deno.build.os === "darwin" ? "open" : "xdg-open";

/** What `ptc view` needs from Deno: reads of its directories, logs and token, its listen address, the opener. */
export function viewNeeds(flags: ViewFlags): FaceNeeds {
  const { hostname, port } = flags.listen;
  return mergeNeeds({
    read: [...flags.recordings, ...flags.auditLogs, ...(flags.authTokenFile ? [flags.authTokenFile] : [])].map(abs),
    net: [`${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`],
    run: flags.open ? [OPENER] : [],
  });
}

/** The exposure modes the "what the agent sees" page shows. */
const MODES = ["auto", "inline", "lazy"] as const;

/** What the agent of `engine` sees: the description per mode and every tool's doc. */
export function agentView(
  label: string,
  engine: Engine,
  deps: { profile: ResponseProfile; programTimeoutMs: number },
): AgentView {
  const snapshots = engine.snapshots();
  return {
    label,
    descriptions: Object.fromEntries(MODES.map((m) => [m, lispEvalDescriptionOf(engine, { ...deps, catalogMode: m })])),
    servers: engine.catalog().map((s) => ({
      name: s.name,
      snapshot: snapshots[s.name],
      tools: s.tools.map((t) => ({ name: t.name, effect: t.effect, doc: engine.toolDoc(s.name, t.name) ?? "" })),
    })),
  };
}

/** The program timeout and profile `ptc mcp` uses by default (what a recording's agent saw unless told otherwise). */
const MCP_DEFAULTS = { profile: "slim" as const, programTimeoutMs: 10_000 };

/** What the agent saw for each recording: its catalog through a replay engine (nothing is started or contacted). */
async function recordingViews(sources: RecordingSource[]): Promise<AgentView[]> {
  const views: AgentView[] = [];
  for (const s of sources) {
    let engine: Engine | undefined;
    try {
      const journal = await Replayer.load(s.dir, () => {});
      engine = await createEngine({ journal, registry: registerBuiltins(), lazySandbox: true });
      views.push(agentView(`recording ${s.dir}`, engine, MCP_DEFAULTS));
    } catch (e) {
      const message = e instanceof EngineStartError ? e.lines.join("; ") : (e as Error).message;
      views.push({ label: `recording ${s.dir}`, descriptions: {}, servers: [], problem: message });
    } finally {
      await engine?.close();
    }
  }
  return views;
}

/** Open the URL in the desktop's browser; a failure is said, never fatal. */
async function openBrowser(url: string): Promise<void> {
  try {
    const child = new Deno.Command(OPENER, { args: [url], stdout: "null", stderr: "null" }).spawn();
    await child.status;
  } catch (e) {
    console.error(`ptc view: cannot open a browser (${(e as Error).message.split("\n")[0]}); visit ${url}`);
  }
}

/** Entry point of `ptc view`. */
export async function run(args: string[]): Promise<number> {
  if (args.includes("-h") || args.includes("--help")) {
    console.log(viewUsage());
    return 0;
  }
  let flags: ViewFlags;
  try {
    flags = parseViewFlags(args);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, viewUsage(), "view");
    throw e;
  }
  let token: string | undefined;
  const recordings = flags.recordings.map((d, i) => new RecordingSource(d, i));
  const sources: RunSourceReader[] = [...recordings, ...flags.auditLogs.map((f, i) => new AuditSource(f, i))];
  let server;
  try {
    if (flags.authTokenFile) {
      token = singleToken(await readTokenFile(flags.authTokenFile), "--auth-token-file", flags.authTokenFile);
    }
    for (const s of recordings) {
      await s.refresh();
      if (!s.manifest) throw new RecordingError(s.problems.at(-1) ?? `--recordings ${s.dir}: not a recording`);
    }
    const view = createViewApp({
      hostname: flags.listen.hostname,
      authToken: token,
      allowedHosts: flags.allowedHosts,
      sources,
      agentViews: () => recordingViews(recordings),
    });
    server = await serveView(view, flags.listen.hostname, flags.listen.port);
  } catch (e) {
    if (e instanceof RecordingError || e instanceof GuardConfigError || e instanceof Error) {
      console.error(`ptc view: ${e.message.split("\n")[0]}`);
      return 2;
    }
    throw e;
  }
  console.error(`ptc view: serving ${server.url}`);
  if (flags.open) await openBrowser(token ? `${server.url}?token=${encodeURIComponent(token)}` : server.url);
  const stop = Promise.withResolvers<void>();
  const onSignal = () => stop.resolve();
  for (const s of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(s, onSignal);
  await stop.promise;
  for (const s of ["SIGINT", "SIGTERM"] as const) Deno.removeSignalListener(s, onSignal);
  await server.close();
  return 0;
}

/** `ptc mcp --view HOST:PORT`: the same pages over the running server's recent evaluations. */
export async function mcpView(
  engine: Engine,
  options: {
    listen: { hostname: string; port: number };
    face: "stdio" | "http";
    authToken?: string;
    allowedHosts: string[];
    allPrograms: boolean;
    profile: ResponseProfile;
    programTimeoutMs: number;
    /** `--catalog-mode` as given (undefined: the config's `catalog.exposure` decides). */
    catalogMode?: string;
  },
): Promise<{ feed: LiveFeed; url: string; close(): Promise<void> }> {
  const feed = new LiveFeed({
    face: options.face,
    redact: (t) => engine.redact(t),
    limits: engine.runLimits() as unknown as Record<string, unknown>,
    snapshots: engine.snapshots(),
    effects: Object.fromEntries(engine.catalog().flatMap((s) => s.tools.map((t) => [`${s.name}/${t.name}`, t.effect]))),
  });
  const view = createViewApp({
    hostname: options.listen.hostname,
    authToken: options.authToken,
    allowedHosts: options.allowedHosts,
    sources: [feed],
    live: feed,
    allPrograms: options.allPrograms,
    agentViews: () =>
      Promise.resolve([
        agentView(`this server (--catalog-mode ${options.catalogMode ?? "from the config"})`, engine, options),
      ]),
  });
  const server = await serveView(view, options.listen.hostname, options.listen.port);
  return { feed, url: server.url, close: () => server.close() };
}

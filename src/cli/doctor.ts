/**
 * `ptc doctor --upstreams-config F [--connect] [--format text|json] [--read-only] [--allow-writes]`
 *
 * Without `--connect`: validates the config, resolves stdio commands on PATH, checks every credential is present and
 * readable (never printing it) and that the Deno permissions the config needs are granted. With `--connect`: also
 * starts each upstream, lists its tools and reports `ready` (tool count, protocol era) or a closed diagnostic code
 * with a fix hint. Exit codes: 0 all good, 1 a problem was found, 2 usage or config error.
 * @module
 */
import { parseFlags, UsageError, usageError } from "./usage.ts";
import {
  loadConfigFile,
  NO_CONFIG,
  processAllowsWrites,
  processReadOnly,
  type PtcConfig,
  resolveConfigPath,
} from "../upstream/config.ts";
import { createMaterializer } from "../upstream/credentials.ts";
import { createRedactor, type SecretRedactor } from "../upstream/redact.ts";
import {
  configAllowsWrites,
  effectDisagreements,
  type InstallPolicy,
  installUpstream,
  type WithheldTool,
  withheldTools,
} from "../upstream/install.ts";
import { formatConfigError } from "../upstream/messages.ts";
import type { JsonObject } from "../core/json.ts";
import type { PreflightCheck, TransportDeps, Upstream } from "../upstream/types.ts";
import { checkPermissions, computePermissions } from "../upstream/permissions.ts";
import type { TransportRegistry } from "../upstream/registry.ts";
import { UpstreamStartError } from "../upstream/types.ts";
import { registerBuiltins } from "../../transports/mod.ts";
import { probeCheck, reachChecks, unprobedCheck } from "./doctor_connect.ts";
import { progress } from "./progress.ts";

const USAGE = `Usage: ptc doctor [--upstreams-config FILE] [--connect] [--format text|json] [--read-only]
                  [--allow-writes]

Checks a config without running a program: the config itself, stdio commands on PATH, every credential
(present and readable; values are never printed) and the Deno permissions the config needs.
  --connect          also start every upstream and list its tools (ready, tool count, protocol era), connect to
                     each HTTP endpoint (TCP, and TLS for https) and call the upstream's doctor_probe read tool
                     (without one: "reachable, credentials not checked")
  --format F         text (default) or json (one JSON document)
  --read-only        apply read-only mode (only read tools count); env PTC_READ_ONLY
  --allow-writes     apply the process write switch (write tools the config allows count); env PTC_ALLOW_WRITES
With --connect, a tool whose configured effect contradicts the server's annotations is reported (the config wins);
anything an upstream logs while starting (a mapped tool the server does not list) is a problem. Each check prints as
it completes; exit 1 on any problem.
The config file defaults to $PTC_UPSTREAMS, else ./ptc.jsonc, else ~/.config/ptc/config.jsonc.`;

/** One check result (a transport's preflight checks have the same shape). */
type Check = PreflightCheck;

/** The doctor's report for one upstream. */
interface UpstreamReport {
  name: string;
  transport: string;
  checks: Check[];
  status: "ok" | "problem" | "ready" | "failed" | "skipped";
  code?: string;
  message?: string;
  hint?: string;
  tools?: number;
  /** Installed tools whose effect is write. */
  write_tools?: number;
  /** Tools whose operator-declared effect contradicts the server's annotations. */
  effect_disagreements?: string[];
  /** Tools the write gate withheld: name, effect and reason (as `ptc catalog --format json` lists them). */
  withheld?: WithheldTool[];
  /**
   * What the upstream logged while starting: a mapped tool the server does not list, two tools that map to one
   * name (the second hidden), an OpenAPI compile or overlay warning.
   */
  start_warnings?: string[];
  era?: string;
  protocolVersion?: string;
  /** `mcp_http`: the HTTP wire the handshake succeeded on (`streamable` or `sse`). */
  wire?: string;
}

/** What the doctor knows before any upstream starts: the config, its credentials and permissions. */
interface DoctorHead {
  config: { file: string; upstreams: number; credentials: number; readOnly: boolean; warnings: string[] };
  credentials: Check[];
  /** Everything the config needs (config file, credential sources, every upstream). */
  permissions: Check;
}

/** The complete report. */
interface DoctorReport extends DoctorHead {
  ok: boolean;
  upstreams: UpstreamReport[];
}

/** Where text output goes as each part completes. */
interface DoctorStream {
  head(r: DoctorHead): void;
  starting(upstream: string): void;
  upstream(u: UpstreamReport): void;
}

/** The flags of `ptc doctor` (also read by `ptc permissions doctor`). */
export const DOCTOR_OPTIONS = {
  "upstreams-config": { type: "string" },
  connect: { type: "boolean" },
  format: { type: "string" },
  "read-only": { type: "boolean" },
  "allow-writes": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc doctor`. */
export async function run(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseFlags(args, DOCTOR_OPTIONS, false);
  } catch (e) {
    return usageError(e instanceof UsageError ? e.message : String(e), USAGE, "doctor");
  }
  const v = flags.values;
  if (v.help) {
    console.log(USAGE);
    return 0;
  }
  const format = v.format ?? "text";
  if (format !== "text" && format !== "json") {
    return usageError(`--format must be text or json, got '${format}'`, USAGE, "doctor");
  }
  const file = resolveConfigPath(v["upstreams-config"]);
  if (!file) return usageError(NO_CONFIG, USAGE, "doctor");
  const registry = registerBuiltins();
  const loaded = await loadConfigFile(file, { registry, readOnly: processReadOnly(v["read-only"] === true) });
  if (Array.isArray(loaded)) {
    if (format === "json") {
      console.log(JSON.stringify({ ok: false, config: { file, errors: loaded } }, null, 2));
    } else {
      console.log(`config ${file}: ${loaded.length} problem(s)`);
      for (const e of loaded) console.log(`  ✗ ${formatConfigError(e)}`);
    }
    return 2;
  }
  const configFromEnv = v["upstreams-config"] === undefined || v["upstreams-config"] === "";
  const connect = v.connect === true;
  // Text is printed as each check completes (an upstream can take seconds to start); JSON is one document at the end.
  const stream = format === "text"
    ? {
      head: (r: DoctorHead) => console.log(renderHead(r)),
      upstream: (u: UpstreamReport) => console.log(renderUpstream(u, connect)),
      starting: (name: string) => progress("doctor", `checking upstream ${name}…`),
    }
    : undefined;
  const report = await diagnose(
    loaded,
    file,
    registry,
    connect,
    configFromEnv,
    processAllowsWrites(v["allow-writes"]),
    stream,
  );
  if (format === "json") console.log(JSON.stringify(report, null, 2));
  else console.log(report.ok ? "all checks passed" : "problems found");
  return report.ok ? 0 : 1;
}

/**
 * Credential names an upstream's parsed config references (`auth[].binding`, an oauth2 emitter's client id and secret
 * bindings, `env.X.binding`).
 */
function bindingsOf(config: unknown): string[] {
  const out = new Set<string>();
  const c = config as { auth?: unknown; env?: unknown };
  if (Array.isArray(c?.auth)) {
    for (const a of c.auth) if (typeof a?.binding === "string") out.add(a.binding);
  }
  // an oauth2 emitter's client id and secret (mcp_http keeps it beside auth, openapi under http)
  type OAuthBindings = { clientIdBinding?: string; clientSecretBinding?: string };
  const o = c as { oauth?: OAuthBindings; http?: { oauth?: OAuthBindings } };
  const oauth = o?.oauth ?? o?.http?.oauth;
  for (const b of [oauth?.clientIdBinding, oauth?.clientSecretBinding]) if (b) out.add(b);
  if (c?.env && typeof c.env === "object") {
    for (const v of Object.values(c.env as Record<string, unknown>)) {
      const b = (v as { binding?: unknown })?.binding;
      if (typeof b === "string") out.add(b);
    }
  }
  return [...out];
}

function depsFor(
  config: PtcConfig,
  name: string,
  redactor: SecretRedactor,
  log: (message: string) => void = () => {},
): TransportDeps {
  return {
    upstreamName: name,
    credentials: createMaterializer(config.credentials, redactor),
    redactor,
    limits: {
      callTimeoutMs: config.limits.callTimeoutMs,
      maxResponseBytes: config.limits.maxResponseBytes,
      connectTimeoutMs: config.limits.connectTimeoutMs,
    },
    fetch: globalThis.fetch.bind(globalThis),
    log,
  };
}

/** Run every check (and, with `connect`, start every upstream). */
async function diagnose(
  config: PtcConfig,
  file: string,
  registry: TransportRegistry,
  connect: boolean,
  configFromEnv: boolean,
  allowWrites = false,
  stream?: DoctorStream,
): Promise<DoctorReport> {
  const redactor = createRedactor();
  const materializer = createMaterializer(config.credentials, redactor);
  const credentials: Check[] = [];
  const badCredentials = new Set<string>();
  for (const spec of config.credentials.values()) {
    const where = spec.source === "env" ? `env ${spec.var}` : spec.source === "file" ? `file ${spec.path}` : "literal";
    const problems = await materializer.check([spec.name]);
    if (problems.length > 0) badCredentials.add(spec.name);
    credentials.push(
      problems.length === 0
        ? { check: spec.name, ok: true, detail: `present and readable (${where})` }
        : { check: spec.name, ok: false, detail: redactor.redact(problems.join("; ")) },
    );
  }
  const missingAll = checkPermissions(computePermissions(config, registry, { configFromEnv }));
  const permissions: Check = missingAll.length === 0
    ? { check: "permissions", ok: true, detail: "every permission the config needs is granted" }
    : {
      check: "permissions",
      ok: false,
      detail: `missing ${missingAll.join(" ")}`,
      hint: "`ptc permissions` prints the exact flags",
    };
  const head: DoctorHead = {
    config: {
      file,
      upstreams: config.upstreams.length,
      credentials: config.credentials.size,
      readOnly: config.readOnly,
      warnings: config.warnings.map((w) => redactor.redact(w)),
    },
    credentials,
    permissions,
  };
  stream?.head(head);
  const upstreams: UpstreamReport[] = [];
  for (const spec of config.upstreams) {
    stream?.starting(spec.name);
    const transport = registry.get(spec.transport)!;
    const report: UpstreamReport = { name: spec.name, transport: spec.transport, checks: [], status: "ok" };
    report.checks.push(...(transport.preflight?.(spec.config) ?? []));
    for (const b of bindingsOf(spec.config)) {
      report.checks.push({
        check: `credential ${b}`,
        ok: !badCredentials.has(b),
        detail: badCredentials.has(b) ? "unavailable (see credentials)" : "ok",
      });
    }
    const missing = checkPermissions(transport.permissions(spec.config));
    report.checks.push(
      missing.length === 0 ? { check: "permissions", ok: true, detail: "granted" } : {
        check: "permissions",
        ok: false,
        detail: `missing ${missing.join(" ")}`,
        hint: "`ptc permissions` prints the exact flags",
      },
    );
    const blocked = report.checks.some((c) => !c.ok);
    report.status = blocked ? "problem" : "ok";
    if (connect) {
      if (blocked) report.status = "skipped";
      else {await connectOne(
          report,
          spec.config,
          transport.start.bind(transport),
          depsFor(config, spec.name, redactor, (line) => (report.start_warnings ??= []).push(redactor.redact(line))),
          {
            readOnly: config.readOnly,
            configAllowsWrites: configAllowsWrites(config, spec),
            upstreamRefusesWrites: spec.allowWrites === false,
            processAllowsWrites: allowWrites,
            upstream: spec.name,
          },
          { endpoint: transport.endpoint?.(spec.config), probe: spec.doctorProbe, limits: config.limits },
        );}
    }
    const redacted = redactor.redactJson(report as unknown as JsonObject) as unknown as UpstreamReport;
    stream?.upstream(redacted);
    upstreams.push(redacted);
  }
  const ok = credentials.every((c) => c.ok) && permissions.ok && upstreams.every(upstreamOk);
  return { ok, ...head, upstreams };
}

/**
 * An upstream passes when it is ready (or, without --connect, its checks pass), every check after starting passed
 * and it logged nothing while starting: a mapped tool the server does not list is a finding, not a footnote.
 */
function upstreamOk(u: UpstreamReport): boolean {
  return (u.status === "ok" || u.status === "ready") && u.checks.every((c) => c.ok) &&
    (u.start_warnings ?? []).length === 0;
}

async function connectOne(
  report: UpstreamReport,
  config: unknown,
  start: (config: unknown, deps: TransportDeps) => Promise<Upstream>,
  deps: TransportDeps,
  policy: InstallPolicy,
  connect: {
    endpoint?: JsonObject;
    probe?: { tool: string; arguments: JsonObject };
    limits: { callTimeoutMs: number; connectTimeoutMs: number; maxResponseBytes: number };
  },
): Promise<void> {
  try {
    const upstream = await start(config, deps);
    try {
      const d: JsonObject = upstream.diagnostics();
      const { installed, withheld } = installUpstream(upstream, policy);
      report.checks.push(...await reachChecks(connect.endpoint, connect.limits.connectTimeoutMs));
      if (connect.probe) {
        report.checks.push(await probeCheck(upstream, installed, connect.probe, connect.limits, deps.redactor));
      } else if (typeof d.era !== "string") {
        // An MCP upstream's start was an authenticated handshake; any other start sent nothing with the credentials.
        report.checks.push(unprobedCheck());
      }
      report.status = "ready";
      report.tools = installed.length;
      report.write_tools = installed.filter((t) => t.effect === "write").length;
      if (withheld.size > 0) report.withheld = withheldTools(withheld);
      const disagreements = effectDisagreements(upstream.listTools());
      if (disagreements.length > 0) report.effect_disagreements = disagreements.map((l) => deps.redactor.redact(l));
      if (typeof d.era === "string") report.era = d.era;
      if (typeof d.protocolVersion === "string" && d.protocolVersion) report.protocolVersion = d.protocolVersion;
      if (typeof d.wire === "string") report.wire = d.wire;
    } finally {
      await upstream.stop();
    }
  } catch (e) {
    report.status = "failed";
    if (e instanceof UpstreamStartError) {
      report.code = e.code;
      report.message = deps.redactor.redact(e.message);
      if (e.hint) report.hint = e.hint;
    } else {
      report.code = e instanceof Error && e.name === "CredentialError" ? "credential_unavailable" : "start_failed";
      report.message = deps.redactor.redact(e instanceof Error ? e.message.split("\n")[0] : String(e));
    }
  }
}

const mark = (ok: boolean) => ok ? "✓" : "✗";

function renderHead(r: DoctorHead): string {
  const lines = [
    `ptc doctor: ${r.config.file}`,
    `config: ok (${r.config.upstreams} upstream(s), ${r.config.credentials} credential(s)` +
    `${r.config.readOnly ? ", read-only" : ""})`,
  ];
  for (const w of r.config.warnings) lines.push(`  ! ${w}`);
  if (r.credentials.length > 0) lines.push("credentials:");
  for (const c of r.credentials) lines.push(`  ${mark(c.ok)} ${c.check}: ${c.detail}`);
  lines.push(`${mark(r.permissions.ok)} permissions: ${r.permissions.detail}`);
  lines.push("upstreams:");
  return lines.join("\n");
}

function renderUpstream(u: UpstreamReport, connect: boolean): string {
  const lines: string[] = [];
  {
    let head = `  ${u.name} (${u.transport}): `;
    if (u.status === "ready") {
      head += `ready, ${u.tools} tool(s)${u.write_tools ? ` (${u.write_tools} write)` : ""}${
        u.era ? `, ${u.era} era (${u.protocolVersion})` : ""
      }${u.wire === "sse" ? " over HTTP+SSE" : ""}`;
    } else if (u.status === "failed") head += `FAILED [${u.code}] ${u.message}`;
    else if (u.status === "skipped") head += "not started (fix the problems below first)";
    else head += u.status === "ok" ? (connect ? "ok" : "checks ok (use --connect to start it)") : "problem";
    lines.push(head);
    if (u.hint) lines.push(`      hint: ${u.hint}`);
    for (const w of u.start_warnings ?? []) lines.push(`    ! ${w}`);
    for (const d of u.effect_disagreements ?? []) lines.push(`    ! ${d}`);
    for (const w of u.withheld ?? []) lines.push(`    - not installed: ${u.name}/${w.name}: ${w.reason}`);
    for (const c of u.checks) {
      lines.push(`    ${mark(c.ok)} ${c.check}: ${c.detail}${c.hint ? ` (hint: ${c.hint})` : ""}`);
    }
  }
  return lines.join("\n");
}

/**
 * What one face of ptc needs from Deno for the options it was actually given: the config's upstreams (hosts, secret
 * files, commands, env), the environment variables the face itself reads, the address `ptc mcp --http` listens on,
 * the files named on its command line, the sandbox processes it starts and the reads `ptc doctor` needs to resolve a
 * command on PATH. `ptc permissions COMMAND …` prints it; `src/cli/mod.ts` checks it before a face starts.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { sandboxPermissions } from "../sandbox/permissions.ts";
import type { PtcConfig } from "../upstream/config.ts";
import {
  ALLOW_WRITES_ENV,
  CONFIG_ENV,
  configLookupEnv,
  locateConfig,
  READ_ONLY_ENV,
} from "../upstream/config_location.ts";
import { configAllowsWrites } from "../upstream/install.ts";
import { computePermissions } from "../upstream/permissions.ts";
import { formatConfigError } from "../upstream/messages.ts";
import { type FaceNeeds, mergeNeeds, noNeeds, readGranted } from "./needs.ts";
import type { ConfigError } from "../upstream/types.ts";
import { isReplay, recordReplayChoice, recordReplayNeeds } from "./record_replay.ts";

/** Where the computed flags will be used: `deno run` from this checkout, or a `deno compile`d binary. */
export type Target = "source" | "compiled";

/** Options of `faceNeeds`. */
export interface FaceNeedsOptions {
  /** Reads an environment variable of the face's process (e.g. `recordingEnv`). */
  env: (name: string) => string | undefined;
  /** Default: where this process runs. */
  target?: Target;
  /** The compiled binary's path once installed (`target: "compiled"`; default: the running executable). */
  executable?: string;
}

/** The needs of one face invocation, and what could not be taken into account (one line each). */
export interface FaceNeedsResult {
  needs: FaceNeeds;
  /** Why the result may be incomplete: the args do not parse (the face will say so) or the config has problems. */
  problems: string[];
  /** The config file the face would load, if any. */
  configFile?: string;
}

/** The faces `faceNeeds` knows (every command that does more than print text). */
export const CONFINED_COMMANDS = [
  "eval",
  "repl",
  "mcp",
  "catalog",
  "doctor",
  "demo",
  "fixture",
  "init",
  "auth",
  "view",
] as const;

/** True when this code runs inside a `deno compile`d binary (its modules live in a virtual directory). */
export function isCompiled(): boolean {
  return /\/deno-compile-[^/]+\//.test(new URL(import.meta.url).pathname);
}

/**
 * What the host needs to start sandbox processes: the one place that asks src/sandbox/permissions.ts. A compiled
 * binary starts itself, and where it will be installed is not known when it is built: `compiledPath` names it
 * (`deno task compile` passes the output path); without one the running executable is taken.
 */
export function sandboxNeeds(target: Target, compiledPath?: string): FaceNeeds {
  const spawn = sandboxPermissions();
  const run = target === "compiled" && compiledPath ? [abs(compiledPath)] : spawn.run;
  return mergeNeeds({ run, read: spawn.read });
}

/** This checkout's folders of modules (`src/`, `transports/`, `fixtures/`). */
const CODE_DIRS = ["src", "transports", "fixtures"] as const;

/**
 * What a process started from source needs to load ptc's own modules on first use: a read of this checkout's module
 * folders. `bin/ptc` runs Deno with `--unstable-lazy-dynamic-imports`, so a command's modules (and the transports, the
 * MCP SDK, the OpenAPI tooling) are loaded when the command first needs them instead of all being resolved before the
 * first line runs; Deno checks a module loaded that late like any other read. Code only — no data, no secret, never
 * the working directory. A compiled binary embeds its modules and needs nothing.
 */
export function codeNeeds(target: Target): FaceNeeds {
  if (target === "compiled") return noNeeds();
  const root = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/+$/, "");
  return mergeNeeds({ read: CODE_DIRS.map((dir) => `${root}/${dir}`) });
}

const abs = (p: string) => (isAbsolute(p) ? p : resolve(p));
const dirOf = (p: string) => abs(p).replace(/\/[^/]*$/, "") || "/";

/**
 * The fallbacks of the write switches for a face that takes them (`allowWritesFlag` is whether `--allow-writes` was
 * given; undefined for `ptc mcp`, which grants every fallback itself), read only when they can matter — read-only
 * mode is off and the config allows writes somewhere: `$PTC_READ_ONLY` (which can close the gate), and
 * `$PTC_ALLOW_WRITES` when the flag is absent. Without the grant a fallback would read as unset: a
 * `PTC_ALLOW_WRITES=1` launch would silently run with writes off, a `PTC_READ_ONLY=1` one with writes on.
 */
function writeSwitchNeeds(config: PtcConfig, readOnly: boolean, allowWritesFlag: boolean | undefined): FaceNeeds {
  if (allowWritesFlag === undefined || readOnly || config.readOnly) return noNeeds();
  if (!config.upstreams.some((u) => configAllowsWrites(config, u))) return noNeeds();
  return mergeNeeds({ env: allowWritesFlag ? [READ_ONLY_ENV] : [READ_ONLY_ENV, ALLOW_WRITES_ENV] });
}

/**
 * The config-driven part: the file (flag, else $PTC_UPSTREAMS) and everything its upstreams and credentials need;
 * `allowWritesFlag` (faces that take `--allow-writes`): whether it was given.
 */
async function configNeeds(
  flag: string | undefined,
  env: (name: string) => string | undefined,
  readOnly: boolean,
  extra?: (config: PtcConfig | ConfigError[]) => FaceNeeds,
  upstreams = true,
  allowWritesFlag?: boolean,
): Promise<FaceNeedsResult> {
  const location = locateConfig(flag, env);
  const base = mergeNeeds({ env: configLookupEnv(flag, env) });
  if (!location) return { needs: base, problems: [] };
  const file = location.file;
  const withFile = mergeNeeds(base, { read: [file] });
  // Loading needs the read; without it the face can only be told to add it.
  if (!readGranted(file)) return { needs: withFile, problems: [], configFile: file };
  // The transports and the config parser load only when there is a config to read.
  const registry = (await import("../../transports/mod.ts")).registerBuiltins();
  const { loadConfigFile } = await import("../upstream/config.ts");
  const loaded = await loadConfigFile(file, { registry, readOnly });
  if (Array.isArray(loaded)) {
    return { needs: withFile, problems: loaded.map(formatConfigError), configFile: file };
  }
  const needs = mergeNeeds(
    withFile,
    computePermissions(loaded, registry, { configFromEnv: !flag, upstreams }),
    writeSwitchNeeds(loaded, readOnly, allowWritesFlag),
    extra?.(loaded) ?? {},
  );
  return { needs, problems: [], configFile: file };
}

/** `configNeeds` of a face's own flags: `--upstreams-config`, `--read-only` and `--allow-writes`. */
function flagConfigNeeds(
  v: Record<string, unknown>,
  env: (name: string) => string | undefined,
  extra?: Parameters<typeof configNeeds>[3],
): Promise<FaceNeedsResult> {
  const file = v["upstreams-config"] as string | undefined;
  return configNeeds(file, env, v["read-only"] === true, extra, true, v["allow-writes"] === true);
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parse like the face does (strictly); undefined when the face will reject the arguments itself. */
function parse(args: string[], options: Options, positionals = true) {
  try {
    return parseArgs({ args, options, allowPositionals: positionals, strict: true });
  } catch {
    return undefined;
  }
}

const unparsed = (command: string): FaceNeedsResult => ({
  needs: noNeeds(),
  problems: [`the arguments of \`ptc ${command}\` do not parse; it reports why itself`],
});

async function evalNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { EVAL_OPTIONS } = await import("./eval.ts");
  const p = parse(args, EVAL_OPTIONS);
  if (!p) return unparsed("eval");
  const v = p.values as Record<string, string | boolean | undefined>;
  const files = [v.file, v.data, v.context].filter((f): f is string => typeof f === "string").map(abs);
  const recording = recordReplayChoice(v.record, v.replay);
  if (typeof recording === "string") return unparsed("eval");
  const config = await configNeeds(
    v["upstreams-config"] as string | undefined,
    o.env,
    v["read-only"] === true,
    undefined,
    !isReplay(recording),
    v["allow-writes"] === true,
  );
  const own = mergeNeeds({ read: files }, recordReplayNeeds(recording));
  return { ...config, needs: mergeNeeds(config.needs, own, sandboxNeeds(o.target, o.executable)) };
}

async function replNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { REPL_OPTIONS } = await import("./repl.ts");
  const { historyPath } = await import("../repl/history.ts");
  const p = parse(args, REPL_OPTIONS);
  if (!p) return unparsed("repl");
  const v = p.values as Record<string, string | string[] | boolean | undefined>;
  const file = p.positionals[0];
  const own = mergeNeeds({ env: ["NO_COLOR"], read: file !== undefined && file !== "-" ? [abs(file)] : [] });
  // No --eval and no FILE: interactive on a terminal, with a history file (read, appended, its folder created).
  let history = noNeeds();
  if (v.eval === undefined && file === undefined) {
    const asked = new Set<string>();
    const path = historyPath((name) => (asked.add(name), o.env(name)));
    const dir = path ? dirOf(path) : undefined;
    history = mergeNeeds({ env: [...asked], read: dir ? [dir] : [], write: dir ? [dir] : [] });
  }
  const config = await flagConfigNeeds(v, o.env);
  return { ...config, needs: mergeNeeds(config.needs, own, history, sandboxNeeds(o.target, o.executable)) };
}

async function mcpNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { parseMcpFlags } = await import("./mcp_flags.ts");
  const asked = new Set<string>();
  let options;
  try {
    options = parseMcpFlags(args, (name) => (asked.add(name), o.env(name)));
  } catch {
    return { ...unparsed("mcp"), needs: mergeNeeds({ env: [...asked] }) };
  }
  const own = mergeNeeds({
    // every PTC_<FLAG> fallback of a flag not given on the command line is read at start
    env: [...asked],
    // --http: the public address, and loopback, where the HTTP server listens behind the door (src/mcp/door.ts);
    // --view: the viewer's address
    net: [
      ...[options.http, options.view].filter((a) => a !== undefined).map((a) =>
        `${a.hostname.includes(":") ? `[${a.hostname}]` : a.hostname}:${a.port}`
      ),
      ...(options.http ? ["127.0.0.1"] : []),
    ],
    // --audit-log: opened for appending (created if absent, reopened on SIGHUP), and looked at (lstat) first and
    // after each open: a symlink or anything but a regular file is refused
    read: [
      ...(options.httpAuthTokenFile ? [abs(options.httpAuthTokenFile)] : []),
      ...(options.auditLog ? [abs(options.auditLog)] : []),
    ],
    write: options.auditLog ? [abs(options.auditLog)] : [],
  }, recordReplayNeeds(options.recordReplay));
  // the config flag's own fallback (PTC_UPSTREAMS) was read above already; without either, the default places are
  // looked at (their variables are read then)
  const replay = isReplay(options.recordReplay);
  const config = await configNeeds(
    options.upstreamsConfig ?? "",
    (name) => (name === CONFIG_ENV ? undefined : o.env(name)),
    options.readOnly,
    undefined,
    !replay,
  );
  return { ...config, needs: mergeNeeds(config.needs, own, sandboxNeeds(o.target, o.executable)) };
}

/** The path of a URL (the URL itself when it does not parse: the face reports it). */
function urlPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * An OpenAPI document named on the command line (`catalog --operations DOC`, `init openapi DOC`): the file's read or
 * the URL's host:port, and a read of each `--overlay` file.
 */
async function documentNeeds(doc: string, overlays: unknown): Promise<FaceNeeds> {
  // Loaded here, not at start: the OpenAPI tooling (YAML, JSONPath) is only for the faces that read a document.
  const { isJsonFile, YAML_ENV } = await import("../../transports/openapi/overlay.ts");
  const read = (Array.isArray(overlays) ? overlays : []).filter((f): f is string => typeof f === "string").map(abs);
  const url = /^https?:\/\//i.test(doc);
  // a file that is not .json is parsed as YAML, and the YAML parser reads its debug variables; so may the answer of a
  // URL whose path is not .json (YAML unless its content type says JSON or it starts with `{`)
  const env = [...read, url ? urlPath(doc) : doc].some((f) => !isJsonFile(f)) ? YAML_ENV : [];
  if (!url) return mergeNeeds({ read: [abs(doc), ...read], env });
  const { hostPortOf } = await import("../../transports/http_common/config.ts");
  try {
    return mergeNeeds({ net: [hostPortOf(new URL(doc))], read, env });
  } catch {
    return mergeNeeds({ read, env }); // a malformed URL: the face says so
  }
}

async function catalogNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { CATALOG_OPTIONS } = await import("./catalog.ts");
  const p = parse(args, CATALOG_OPTIONS, false);
  if (!p) return unparsed("catalog");
  // --operations DOC surveys a document: no config is read
  if (typeof p.values.operations === "string") {
    return { needs: await documentNeeds(p.values.operations, p.values.overlay), problems: [] };
  }
  const v = p.values as Record<string, string | boolean | undefined>;
  const config = await flagConfigNeeds(v, o.env);
  const diff = typeof v.diff === "string" ? [abs(v.diff)] : [];
  return { ...config, needs: mergeNeeds(config.needs, { read: diff }) };
}

/** `ptc init openapi DOC [--overlay F]… [-o FILE]`: the document, the overlays, and the file it writes. */
async function initNeeds(args: string[]): Promise<FaceNeedsResult> {
  const { INIT_OPTIONS } = await import("./init.ts");
  const p = parse(args, INIT_OPTIONS);
  if (!p || p.positionals.length !== 2) return unparsed("init");
  const output = typeof p.values.output === "string" ? [abs(p.values.output)] : [];
  return {
    needs: mergeNeeds(await documentNeeds(p.positionals[1], p.values.overlay), { write: output }),
    problems: [],
  };
}

/**
 * `ptc doctor` checks that everything the config needs is granted, so it needs all of it (with or without
 * `--connect`), plus PATH and a read of each stdio command as found on PATH (the check stats the file).
 */
async function doctorNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { DOCTOR_OPTIONS } = await import("./doctor.ts");
  const p = parse(args, DOCTOR_OPTIONS, false);
  if (!p) return unparsed("doctor");
  const v = p.values as Record<string, string | boolean | undefined>;
  const { resolveCommand } = await import("../../transports/mcp_stdio/command.ts");
  return await flagConfigNeeds(v, o.env, (config) => {
    if (Array.isArray(config)) return noNeeds();
    const read: string[] = [];
    let stdio = false;
    for (const u of config.upstreams) {
      if (u.transport !== "mcp_stdio") continue;
      stdio = true;
      const c = u.config as { command?: unknown; cwd?: unknown; env?: Record<string, { literal?: string }> };
      if (typeof c.command !== "string" || typeof c.cwd !== "string") continue;
      const found = resolveCommand(c.command, c.cwd, c.env?.PATH?.literal ?? o.env("PATH"));
      if (found) read.push(found);
    }
    return mergeNeeds({ read, env: stdio ? ["PATH"] : [] });
  });
}

/**
 * `ptc auth login|status|logout`: what the config needs (each OAuth upstream's token file, read and written, its
 * server and authorization server); `login` also listens on 127.0.0.1 (an OS-assigned port) for the redirect.
 */
async function authNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { AUTH_OPTIONS } = await import("./auth.ts");
  const p = parse(args, AUTH_OPTIONS);
  if (!p) return unparsed("auth");
  const config = await configNeeds(p.values["upstreams-config"] as string | undefined, o.env, false);
  const listen = p.positionals[0] === "login" ? ["127.0.0.1"] : [];
  return { ...config, needs: mergeNeeds(config.needs, { net: listen }) };
}

/** A folder from `Deno.makeTempDir()`: reading and writing under $TMPDIR (read here to name it, as the check does). */
function tempDirNeeds(env: (name: string) => string | undefined): FaceNeeds {
  const tmp = (env("TMPDIR") || "/tmp").replace(/\/+$/, "") || "/";
  return mergeNeeds({ env: ["TMPDIR"], read: [tmp], write: [tmp] });
}

/** `ptc demo`: the fixture on loopback, its temporary folder, the example config and what that config needs. */
async function demoNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const { DEMO_OPTIONS } = await import("./demo.ts");
  const { EXAMPLE_CONFIG } = await import("./demo_session.ts");
  const p = parse(args, DEMO_OPTIONS, false);
  if (!p) return unparsed("demo");
  const port = p.values.port;
  const config = await configNeeds(EXAMPLE_CONFIG, () => undefined, false);
  // The copy of the example config points at the fixture's real port (any port on loopback unless --port says).
  const net = [typeof port === "string" && /^\d+$/.test(port) && Number(port) > 0 ? `127.0.0.1:${port}` : "127.0.0.1"];
  // Its credential files live in that temporary folder too, and the config file is never taken from PTC_UPSTREAMS.
  const upstream = {
    ...config.needs,
    net: config.needs.net.filter((h) => !h.startsWith("127.0.0.1:")),
    // the copy keeps its library files where they are (absolute paths into the checkout)
    read: [EXAMPLE_CONFIG, ...config.needs.read.filter((path) => path.endsWith(".clj"))],
    env: config.needs.env.filter((name) => name !== CONFIG_ENV),
  };
  return {
    ...config,
    needs: mergeNeeds(upstream, { net }, tempDirNeeds(o.env), sandboxNeeds(o.target, o.executable)),
  };
}

/** `ptc fixture observatory`: its listen address, its token files (a fresh temporary folder by default), its audit file. */
async function fixtureNeeds(args: string[], o: FaceNeedsOptions & { target: Target }): Promise<FaceNeedsResult> {
  const [, ...rest] = args;
  const { FIXTURE_OPTIONS } = await import("./fixture.ts");
  const p = parse(rest, FIXTURE_OPTIONS, false);
  if (!p) return unparsed("fixture");
  const v = p.values as Record<string, string | undefined>;
  const host = v.host ?? "127.0.0.1";
  const files: string[] = [];
  if (v["tokens-file"]) files.push(abs(v["tokens-file"]));
  else if (v["token-dir"]) files.push(abs(v["token-dir"]));
  const audit = v["audit-log"];
  const auditFile = audit && audit !== "stderr" && audit !== "none" ? [abs(audit)] : [];
  return {
    needs: mergeNeeds({
      net: [`${host.includes(":") ? `[${host}]` : host}:${v.port ?? 0}`],
      read: files,
      write: [...(v["token-dir"] ? files : []), ...auditFile],
    }, files.length === 0 ? tempDirNeeds(o.env) : {}),
    problems: [],
  };
}

/** `ptc view`: reads of its recordings, logs and token file, its listen address, the browser opener with --open. */
async function viewFaceNeeds(args: string[]): Promise<FaceNeedsResult> {
  const { parseViewFlags, viewNeeds } = await import("./view.ts");
  try {
    return { needs: viewNeeds(parseViewFlags(args)), problems: [] };
  } catch {
    return unparsed("view");
  }
}

/**
 * The needs of `ptc COMMAND ARGS…`. Commands outside `CONFINED_COMMANDS` (help, version, docs) need nothing;
 * `permissions` itself reads any config and environment.
 */
export async function faceNeeds(command: string, args: string[], options: FaceNeedsOptions): Promise<FaceNeedsResult> {
  const o: FaceNeedsOptions & { target: Target } = { target: isCompiled() ? "compiled" : "source", ...options };
  if (args.includes("-h") || args.includes("--help")) return { needs: noNeeds(), problems: [] };
  switch (command) {
    case "eval":
      return await evalNeeds(args, o);
    case "repl":
      return await replNeeds(args, o);
    case "mcp":
      return await mcpNeeds(args, o);
    case "catalog":
      return await catalogNeeds(args, o);
    case "doctor":
      return await doctorNeeds(args, o);
    case "demo":
      return await demoNeeds(args, o);
    case "fixture":
      return await fixtureNeeds(args, o);
    case "init":
      return await initNeeds(args);
    case "auth":
      return await authNeeds(args, o);
    case "view":
      return await viewFaceNeeds(args);
    case "permissions":
      return { needs: { ...noNeeds(), anyRead: true, anyEnv: true }, problems: [] };
    default:
      return { needs: noNeeds(), problems: [] };
  }
}

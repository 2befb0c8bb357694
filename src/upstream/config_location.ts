/**
 * Where the config comes from and the process-wide switches that sit beside it: the flag, `$PTC_UPSTREAMS` or a
 * default place; `--read-only`, `--allow-writes` and `--approve-writes` with their environment fallbacks. Apart from
 * `config.ts` (which parses and checks a config, and loads its JSONC and JSON Schema tooling) so that a face started
 * without a config never loads that tooling.
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";

/** The environment variable naming the config file when no flag does. */
export const CONFIG_ENV = "PTC_UPSTREAMS";

/** The variables default config discovery reads (besides {@link CONFIG_ENV}). */
export const DISCOVERY_ENV = ["XDG_CONFIG_HOME", "HOME"] as const;

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * Where ptc looks for a config when neither `--upstreams-config` nor `$PTC_UPSTREAMS` names one, in order:
 * `./ptc.jsonc` in the working directory, then `$XDG_CONFIG_HOME/ptc/config.jsonc` (`~/.config/ptc/config.jsonc` when
 * XDG_CONFIG_HOME is unset or not absolute, as the XDG spec says).
 */
export function defaultConfigCandidates(env: (name: string) => string | undefined = readEnv): string[] {
  const out: string[] = [];
  try {
    out.push(resolve("ptc.jsonc"));
  } catch {
    // the working directory cannot be read (confined without it): only the user's config folder is looked at
  }
  const xdg = env("XDG_CONFIG_HOME");
  const home = env("HOME");
  const base = xdg && isAbsolute(xdg) ? xdg : home ? join(home, ".config") : undefined;
  if (base) out.push(join(base, "ptc", "config.jsonc"));
  return out;
}

/** Where the config came from: named by the flag, by `$PTC_UPSTREAMS`, or found at a default place. */
export interface ConfigLocation {
  file: string;
  source: "flag" | "env" | "default";
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The config file to use and where it came from: the flag, else `$PTC_UPSTREAMS`, else the first default place that
 * holds a file ({@link defaultConfigCandidates}); undefined when none (no upstreams).
 */
export function locateConfig(
  flag: string | undefined,
  env: (name: string) => string | undefined = readEnv,
): ConfigLocation | undefined {
  if (flag !== undefined && flag !== "") return { file: resolve(flag), source: "flag" };
  const named = env(CONFIG_ENV);
  if (named) return { file: resolve(named), source: "env" };
  const found = defaultConfigCandidates(env).find(isFile);
  return found ? { file: found, source: "default" } : undefined;
}

/** The config file to use ({@link locateConfig}), or undefined (no upstreams). */
export function resolveConfigPath(flag: string | undefined): string | undefined {
  return locateConfig(flag)?.file;
}

/**
 * The environment variables finding the config reads: none after a flag, `PTC_UPSTREAMS` when it names the file, and
 * with it the discovery variables when the default places are looked at.
 */
export function configLookupEnv(flag: string | undefined, env: (name: string) => string | undefined): string[] {
  if (flag !== undefined && flag !== "") return [];
  return env(CONFIG_ENV) ? [CONFIG_ENV] : [CONFIG_ENV, ...DISCOVERY_ENV];
}

/** The one-line advice when a command needs a config and none was found. */
export const NO_CONFIG =
  "no config: pass --upstreams-config FILE, set PTC_UPSTREAMS, or create ./ptc.jsonc (or ~/.config/ptc/config.jsonc)";

/** The environment fallback of `--allow-writes`, the process half of the write gate. */
export const ALLOW_WRITES_ENV = "PTC_ALLOW_WRITES";

/** The environment fallback of `--approve-writes` (every face that takes the flag). */
export const APPROVE_WRITES_ENV = "PTC_APPROVE_WRITES";

/** The process half of write approval: `--approve-writes`, else `$PTC_APPROVE_WRITES` (the config can add it too). */
export function processApprovesWrites(flag: boolean | undefined): boolean {
  return flag === true || envSwitch(APPROVE_WRITES_ENV);
}

/** The environment fallback of `--read-only` (every face that takes the flag, as `ptc mcp` does). */
export const READ_ONLY_ENV = "PTC_READ_ONLY";

/** A boolean switch's environment fallback (1/true/yes/on); an unreadable environment counts as not set. */
function envSwitch(name: string): boolean {
  let env: string | undefined;
  try {
    env = Deno.env.get(name);
  } catch {
    env = undefined;
  }
  return env !== undefined && ["1", "true", "yes", "on"].includes(env.toLowerCase());
}

/**
 * Read-only mode of the process: the `--read-only` flag, else `$PTC_READ_ONLY`. Honoured wherever `$PTC_ALLOW_WRITES`
 * is, so a shell that exports read-only mode for `ptc mcp` never gets writes from `ptc eval` or the REPL.
 */
export function processReadOnly(flag: boolean | undefined): boolean {
  return flag === true || envSwitch(READ_ONLY_ENV);
}

/**
 * The process half of the write gate: the `--allow-writes` flag, else `$PTC_ALLOW_WRITES` (1/true/yes/on). An
 * unreadable environment counts as not set.
 */
export function processAllowsWrites(flag: boolean | undefined): boolean {
  return flag === true || envSwitch(ALLOW_WRITES_ENV);
}

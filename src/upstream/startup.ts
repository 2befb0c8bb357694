/**
 * Start-up sequence every command that loads a config shares: find the file (flag, then PTC_UPSTREAMS, then the
 * default places: ./ptc.jsonc, $XDG_CONFIG_HOME/ptc/config.jsonc), load and
 * validate it, then check that Deno grants what it needs. Problems come back as one line each (the CLI prints
 * them and exits 2 before anything starts).
 * @module
 */
import type { PtcConfig } from "./config.ts";
import { type ConfigLocation, locateConfig } from "./config_location.ts";
import { checkPermissions, computePermissions } from "./permissions.ts";
import type { TransportRegistry } from "./registry.ts";
import { formatConfigError } from "./messages.ts";

/** Outcome of `prepareConfig`. */
export type PreparedConfig =
  | { ok: true; config: PtcConfig | undefined; warnings: string[]; location?: ConfigLocation }
  | { ok: false; problems: string[] };

/** Options of `prepareConfig`. */
export interface PrepareOptions {
  /** `--upstreams-config` value. */
  configFlag?: string;
  /** `--read-only`. */
  readOnly?: boolean;
  registry?: TransportRegistry;
  /** Skip the Deno permission check (`ptc permissions` itself). */
  skipPermissionCheck?: boolean;
  /** The upstreams will not be started (a replay): their credentials, hosts, files and commands are not needed. */
  withoutUpstreams?: boolean;
}

/**
 * Resolve, load and validate the config, then check permissions. `config` is undefined when neither the flag nor
 * PTC_UPSTREAMS names a file and no default place holds one (zero upstreams).
 */
export async function prepareConfig(options: PrepareOptions = {}): Promise<PreparedConfig> {
  const location = locateConfig(options.configFlag);
  if (location === undefined) return { ok: true, config: undefined, warnings: [] };
  const file = location.file;
  // The parser and its schema checks load only when there is a config to read.
  const { loadConfigFile } = await import("./config.ts");
  const loaded = await loadConfigFile(file, { registry: options.registry, readOnly: options.readOnly });
  if (Array.isArray(loaded)) return { ok: false, problems: loaded.map(formatConfigError) };
  if (!options.skipPermissionCheck) {
    const configFromEnv = options.configFlag === undefined || options.configFlag === "";
    const missing = checkPermissions(computePermissions(loaded, options.registry, {
      configFromEnv,
      upstreams: !options.withoutUpstreams,
    }));
    if (missing.length > 0) {
      return {
        ok: false,
        problems: [
          `missing Deno permissions for ${file}: ${missing.join(" ")} ` +
          `(run \`ptc permissions --upstreams-config ${file}\` for the full set)`,
        ],
      };
    }
  }
  return { ok: true, config: loaded, warnings: loaded.warnings, location };
}

/**
 * Deno permissions as part of the product: the minimal flags a config needs (hosts with ports, schema and secret
 * files, the config file itself, env vars including PTC_UPSTREAMS, commands), merged from every transport's
 * `permissions(config)`, and a start-up check with `Deno.permissions.query` that names what is missing (never prompts).
 * @module
 */
import type { PermissionNeeds } from "./types.ts";
import type { PtcConfig } from "./config.ts";
import { CONFIG_ENV } from "./config_location.ts";
import { defaultRegistry, type TransportRegistry } from "./registry.ts";

const sortUnique = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** Options of `computePermissions`. */
export interface ComputeOptions {
  /** The config file was found through $PTC_UPSTREAMS, which must then be readable (default true). */
  configFromEnv?: boolean;
  /**
   * false: the upstreams will not be started (a replay answers from a recording): only the config file and its
   * libraries are read — no credential, host, file or command of any upstream (default true).
   */
  upstreams?: boolean;
}

/** Everything `config` needs, merged and sorted. */
export function computePermissions(
  config: PtcConfig,
  registry: TransportRegistry = defaultRegistry,
  options: ComputeOptions = {},
): PermissionNeeds {
  const net: string[] = [];
  const read: string[] = [];
  const write: string[] = [];
  // PTC_ALLOW_WRITES is a face's flag fallback, not a need of the config: src/cli/face_needs.ts lists it for the
  // faces that take --allow-writes (when the flag is absent and the config allows writes).
  const env: string[] = options.configFromEnv === false ? [] : [CONFIG_ENV];
  const run: string[] = [];
  let anyEnv = false;
  if (config.file) read.push(config.file);
  for (const lib of config.libraries) read.push(lib.path);
  const upstreams = options.upstreams === false ? [] : config.upstreams;
  const credentials = options.upstreams === false ? [] : config.credentials.values();
  for (const spec of credentials) {
    if (spec.source === "env") env.push(spec.var);
    if (spec.source === "file") read.push(spec.path);
  }
  for (const u of upstreams) {
    const t = registry.get(u.transport);
    if (!t) continue;
    const needs = t.permissions(u.config);
    net.push(...needs.net);
    read.push(...needs.read);
    write.push(...needs.write ?? []);
    env.push(...needs.env);
    run.push(...needs.run);
    anyEnv ||= needs.anyEnv === true;
  }
  return {
    net: sortUnique(net),
    read: sortUnique(read),
    ...(write.length ? { write: sortUnique(write) } : {}),
    env: sortUnique(env),
    run: sortUnique(run),
    anyEnv,
  };
}

/** The flags for `deno run` / `deno compile`, e.g. `--allow-net=api.example.com:443`. */
export function permissionFlags(needs: PermissionNeeds): string[] {
  const flags: string[] = [];
  if (needs.net.length) flags.push(`--allow-net=${needs.net.join(",")}`);
  if (needs.read.length) flags.push(`--allow-read=${needs.read.join(",")}`);
  if (needs.anyEnv) flags.push("--allow-env");
  else if (needs.env.length) flags.push(`--allow-env=${needs.env.join(",")}`);
  if (needs.run.length) flags.push(`--allow-run=${needs.run.join(",")}`);
  return flags;
}

type Query = Deno.PermissionDescriptor;

function granted(desc: Query): boolean {
  try {
    return Deno.permissions.querySync(desc).state === "granted";
  } catch {
    return false;
  }
}

/**
 * The subset of `needs` that is not granted to this process, as flags (empty when everything is granted).
 * Uses `Deno.permissions.query`, which never prompts.
 */
export function missingPermissions(needs: PermissionNeeds): PermissionNeeds {
  return {
    net: needs.net.filter((host) => !granted({ name: "net", host })),
    read: needs.read.filter((path) => !granted({ name: "read", path })),
    env: needs.anyEnv
      ? (granted({ name: "env" }) ? [] : needs.env)
      : needs.env.filter((variable) => !granted({ name: "env", variable })),
    run: needs.run.filter((command) => !granted({ name: "run", command })),
    anyEnv: needs.anyEnv === true && !granted({ name: "env" }),
  };
}

/** Missing flags for `needs` (empty when all granted). */
export function checkPermissions(needs: PermissionNeeds): string[] {
  return permissionFlags(missingPermissions(needs));
}

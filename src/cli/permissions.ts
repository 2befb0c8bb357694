/**
 * `ptc permissions`: print the minimal Deno permission flags a config needs (hosts with ports, schema and secret
 * files, the config file, env vars, commands) for `deno run` / `deno compile`.
 * @module
 */
import { registerBuiltins } from "../../transports/mod.ts";
import { computePermissions, permissionFlags } from "../upstream/permissions.ts";
import { prepareConfig } from "../upstream/startup.ts";
import { sandboxPermissions } from "../sandbox/mod.ts";
import { choiceFlag, parseFlags, UsageError, usageError } from "./usage.ts";

const USAGE = `Usage: ptc permissions [--upstreams-config F] [--format flags|json]

Prints the Deno permission flags the config (F, else $PTC_UPSTREAMS) needs, e.g.
  deno run $(ptc permissions --upstreams-config F) main.ts mcp --upstreams-config F
  --format flags|json   flags (default): one line of flags; json: {net, read, env, run, anyEnv}`;

/** Entry point of `ptc permissions`. */
export async function run(args: string[]): Promise<number> {
  let values;
  try {
    values = parseFlags(args, {
      "upstreams-config": { type: "string" },
      format: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, false).values;
    choiceFlag("format", values.format, ["flags", "json"]);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "permissions");
    throw e;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const registry = registerBuiltins();
  const prepared = await prepareConfig({
    configFlag: values["upstreams-config"] as string | undefined,
    registry,
    skipPermissionCheck: true,
  });
  if (!prepared.ok) {
    for (const p of prepared.problems) console.error(`ptc permissions: ${p}`);
    return 2;
  }
  if (!prepared.config) {
    console.error("ptc permissions: no config: pass --upstreams-config FILE or set PTC_UPSTREAMS");
    return 2;
  }
  const needs = computePermissions(prepared.config, registry);
  // ptc's own needs: starting sandbox processes (this executable, no reads).
  const sandbox = sandboxPermissions();
  needs.run = [...new Set([...needs.run, ...sandbox.run])].sort();
  needs.read = [...new Set([...needs.read, ...sandbox.read])].sort();
  if (values.format === "json") console.log(JSON.stringify(needs, null, 2));
  else console.log(permissionFlags(needs).join(" "));
  return 0;
}

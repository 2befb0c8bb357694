/**
 * `ptc permissions [--format flags|lines|json] [--target source|compiled] [--launch] [COMMAND ARGS…]`: print the
 * minimal Deno permission flags of one ptc invocation — the face and the options actually used (see
 * `face_needs.ts`) — for `deno run`, `bin/ptc` and `deno compile`.
 * @module
 */
import { codeNeeds, CONFINED_COMMANDS, faceNeeds, isCompiled, type Target } from "./face_needs.ts";
import { faceFlags, mergeNeeds } from "./needs.ts";
import { UsageError, usageError } from "./usage.ts";

const USAGE = `Usage: ptc permissions [--format flags|lines|json] [--target source|compiled] [COMMAND [ARGS…]]

Prints the Deno permission flags \`ptc COMMAND ARGS…\` needs: the hosts, secret files, commands and environment of
its config, the variables the command reads, the address \`mcp --http\` listens on, the files named on the command
line and the sandbox processes it starts. COMMAND is one of ${CONFINED_COMMANDS.join(", ")}; without one, e.g.
\`ptc permissions --upstreams-config F\`, the arguments are those of \`ptc eval\`.
  deno run --no-prompt $(ptc permissions mcp --http 127.0.0.1:7332 --upstreams-config F) main.ts \\
    mcp --http 127.0.0.1:7332 --upstreams-config F
  --format F    flags (default): one line; lines: one flag per line (paths may hold spaces); json: the needs
  --target T    source (default from source): \`deno run\` of this checkout; compiled: a \`deno compile\`d binary
  --launch      for bin/ptc: never fail; a config problem is left for the command itself to report`;

interface PermissionsArgs {
  format: "flags" | "lines" | "json";
  target?: Target;
  launch: boolean;
  command: string;
  rest: string[];
  help: boolean;
}

function parse(args: string[]): PermissionsArgs {
  const out: PermissionsArgs = { format: "flags", launch: false, command: "eval", rest: [], help: false };
  let i = 0;
  const value = (name: string, inline: string | undefined) => {
    if (inline !== undefined) return inline;
    if (i + 1 >= args.length) throw new UsageError(`--${name} needs a value`);
    return args[++i];
  };
  for (; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    if (flag === "--") {
      // everything after is a ptc command line (bin/ptc); an empty one is `ptc` alone, which needs nothing
      i++;
      if (i >= args.length) out.command = "";
      break;
    }
    if (flag === "-h" || flag === "--help") out.help = true;
    else if (flag === "--launch") out.launch = true;
    else if (flag === "--format") {
      const f = value("format", inline);
      if (f !== "flags" && f !== "lines" && f !== "json") {
        throw new UsageError(`--format must be flags, lines or json, got '${f}'`);
      }
      out.format = f;
    } else if (flag === "--target") {
      const t = value("target", inline);
      if (t !== "source" && t !== "compiled") throw new UsageError(`--target must be source or compiled, got '${t}'`);
      out.target = t;
    } else if (flag === "--upstreams-config") {
      // `ptc permissions --upstreams-config F [--read-only]`: those of `ptc eval`
      out.rest.push("--upstreams-config", value("upstreams-config", inline));
    } else if (flag === "--read-only") out.rest.push("--read-only");
    else if (a.startsWith("-")) {
      throw new UsageError(`unknown option '${a}' (options of a command go after it: ptc permissions COMMAND ${a} …)`);
    } else break;
  }
  if (i < args.length && out.rest.length > 0) {
    throw new UsageError(`--upstreams-config goes after the command: ptc permissions ${args[i]} --upstreams-config F`);
  }
  if (i < args.length) {
    out.command = args[i];
    out.rest = args.slice(i + 1);
  }
  return out;
}

/** Entry point of `ptc permissions`. */
export async function run(args: string[]): Promise<number> {
  let p: PermissionsArgs;
  try {
    p = parse(args);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "permissions");
    throw e;
  }
  if (p.help) {
    console.log(USAGE);
    return 0;
  }
  const known = (CONFINED_COMMANDS as readonly string[]).includes(p.command) || p.command === "permissions" ||
    p.command === "";
  if (!known && !p.launch) {
    return usageError(`unknown command '${p.command}' (one of ${CONFINED_COMMANDS.join(", ")})`, USAGE, "permissions");
  }
  const result = await faceNeeds(p.command, p.rest, { env: (name) => Deno.env.get(name), target: p.target });
  if (result.problems.length > 0 && !p.launch) {
    for (const line of result.problems) console.error(`ptc permissions: ${line}`);
    return 2;
  }
  // The process also loads ptc's own modules on first use (from source; a compiled binary embeds them).
  const needs = mergeNeeds(result.needs, codeNeeds(p.target ?? (isCompiled() ? "compiled" : "source")));
  const flags = faceFlags(needs);
  if (p.format === "json") console.log(JSON.stringify(needs, null, 2));
  else if (p.format === "lines") console.log(flags.join("\n"));
  else console.log(flags.join(" "));
  return 0;
}

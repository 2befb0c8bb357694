/**
 * `ptc catalog`: load and compile every upstream of a config and print the tool catalog (text or JSON), or the
 * difference to an earlier JSON catalog (`--diff OLD.json`). Problems print one line each and exit 2.
 * @module
 */
import { loadBuiltinTransports } from "../../transports/mod.ts";
import { catalogJson, catalogText, diffCatalogs } from "../upstream/catalog.ts";
import { RuntimeStartError, startRuntime } from "../upstream/runtime.ts";
import { prepareConfig } from "../upstream/startup.ts";
import { choiceFlag, parseFlags, UsageError, usageError } from "./usage.ts";

const USAGE = `Usage: ptc catalog [--upstreams-config F] [--format text|json] [--diff OLD.json] [--read-only]

Loads the config (F, else $PTC_UPSTREAMS), starts every upstream, compiles its tools and prints the catalog.
  --format text|json   text (default): one line per tool with its signature and result type; json: the full catalog
  --diff OLD.json      compare with an earlier \`--format json\` output: + added, - removed, ~ changed tools
  --read-only          show only tools annotated read-only

Exit codes: 0 ok, 2 config, permission or upstream problems (one line each).`;

function fail(lines: string[]): number {
  for (const l of lines) console.error(`ptc catalog: ${l}`);
  return 2;
}

/** Entry point of `ptc catalog`. */
export async function run(args: string[]): Promise<number> {
  let values;
  try {
    const parsed = parseFlags(args, {
      "upstreams-config": { type: "string" },
      format: { type: "string" },
      diff: { type: "string" },
      "read-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, false);
    values = parsed.values;
    choiceFlag("format", values.format, ["text", "json"]);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "catalog");
    throw e;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const registry = await loadBuiltinTransports();
  const prepared = await prepareConfig({
    configFlag: values["upstreams-config"] as string | undefined,
    readOnly: values["read-only"] === true,
    registry,
  });
  if (!prepared.ok) return fail(prepared.problems);
  if (!prepared.config) return fail(["no config: pass --upstreams-config FILE or set PTC_UPSTREAMS"]);
  for (const w of prepared.warnings) console.error(`ptc catalog: warning: ${w}`);

  let old: unknown;
  if (values.diff !== undefined) {
    try {
      old = JSON.parse(await Deno.readTextFile(values.diff as string));
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound
        ? "file not found"
        : e instanceof SyntaxError
        ? "not JSON"
        : "cannot be read";
      return fail([`--diff ${values.diff}: ${why}`]);
    }
  }

  let runtime;
  try {
    runtime = await startRuntime(prepared.config, {
      registry,
      snapshot: "frozen",
      failurePolicy: "fatal",
      log: (line) => console.error(`ptc catalog: ${line}`),
    });
  } catch (e) {
    if (e instanceof RuntimeStartError) return fail(e.problems);
    throw e;
  }
  try {
    if (old !== undefined) {
      let changes;
      try {
        changes = diffCatalogs(old, catalogJson(runtime));
      } catch (e) {
        return fail([`--diff ${values.diff}: ${(e as Error).message}`]);
      }
      if (changes.length === 0) console.log("no changes");
      for (const c of changes) {
        const sign = c.kind === "added" ? "+" : c.kind === "removed" ? "-" : "~";
        console.log(`${sign} ${c.ref}${c.parts ? ` (${c.parts.join(", ")})` : ""}`);
      }
    } else if (values.format === "json") {
      console.log(JSON.stringify(catalogJson(runtime), null, 2));
    } else {
      console.log(catalogText(runtime));
    }
    return 0;
  } finally {
    await runtime.stop();
  }
}

/**
 * `ptc catalog`: load and compile every upstream of a config and print the tool catalog (text or JSON), or the
 * difference to an earlier JSON catalog (`--diff OLD.json`). Problems print one line each and exit 2.
 * @module
 */
import { registerBuiltins } from "../../transports/mod.ts";
import { createEngine, EngineStartError } from "../engine/engine.ts";
import type { Engine } from "../engine/types.ts";
import { diffCatalogs } from "../upstream/catalog.ts";
import { resolveConfigPath } from "../upstream/config.ts";
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

/** The flags of `ptc catalog` (also read by `ptc permissions catalog`). */
export const CATALOG_OPTIONS = {
  "upstreams-config": { type: "string" },
  format: { type: "string" },
  diff: { type: "string" },
  "read-only": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc catalog`. */
export async function run(args: string[]): Promise<number> {
  let values;
  try {
    const parsed = parseFlags(args, CATALOG_OPTIONS, false);
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
  const configFlag = values["upstreams-config"] as string | undefined;
  if (!resolveConfigPath(configFlag)) return fail(["no config: pass --upstreams-config FILE or set PTC_UPSTREAMS"]);
  // The catalog runs no program: the engine never starts a sandbox.
  let engine: Engine;
  try {
    engine = await createEngine({
      registry: registerBuiltins(),
      upstreamsConfig: configFlag,
      readOnly: values["read-only"] === true,
      snapshot: "frozen",
      lazySandbox: true,
      onWarning: (w) => console.error(`ptc catalog: warning: ${w}`),
      onLog: (line) => console.error(`ptc catalog: ${line}`),
    });
  } catch (e) {
    if (e instanceof EngineStartError) return fail(e.lines);
    throw e;
  }
  try {
    return await printCatalog(engine, values.diff as string | undefined, values.format === "json");
  } finally {
    await engine.close();
  }
}

async function printCatalog(engine: Engine, diff: string | undefined, json: boolean): Promise<number> {
  let old: unknown;
  if (diff !== undefined) {
    try {
      old = JSON.parse(await Deno.readTextFile(diff));
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound
        ? "file not found"
        : e instanceof SyntaxError
        ? "not JSON"
        : "cannot be read";
      return fail([`--diff ${diff}: ${why}`]);
    }
  }

  if (old !== undefined) {
    let changes;
    try {
      changes = diffCatalogs(old, engine.catalogJson());
    } catch (e) {
      return fail([`--diff ${diff}: ${(e as Error).message}`]);
    }
    if (changes.length === 0) console.log("no changes");
    for (const c of changes) {
      const sign = c.kind === "added" ? "+" : c.kind === "removed" ? "-" : "~";
      console.log(`${sign} ${c.ref}${c.parts ? ` (${c.parts.join(", ")})` : ""}`);
    }
  } else if (json) {
    console.log(JSON.stringify(engine.catalogJson(), null, 2));
  } else {
    console.log(engine.catalogText());
  }
  return 0;
}

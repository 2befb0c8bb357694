/**
 * `ptc catalog`: load and compile every upstream of a config and print the tool catalog (text or JSON), or the
 * difference to an earlier JSON catalog (`--diff OLD.json`, exit 1 when they differ). Every upstream gets one attempt
 * to start; one that fails is listed with its state and its problem printed (one line each), and the exit status is 2.
 * @module
 */
import { registerBuiltins } from "../../transports/mod.ts";
import { createEngine, EngineStartError } from "../engine/engine.ts";
import type { Engine } from "../engine/types.ts";
import { diffCatalogs } from "../upstream/catalog.ts";
import { NO_CONFIG, processAllowsWrites, processReadOnly, resolveConfigPath } from "../upstream/config.ts";
import { choiceFlag, parseFlags, UsageError, usageError } from "./usage.ts";
import { documentBaseUrl, loadCliDocument, requiredSchemes, schemeSupplied, surveyCliDocument } from "./openapi_doc.ts";
import { PLACEHOLDER_BASE_URL } from "../../transports/openapi/init_config.ts";
import { MCP_FLAGS } from "./mcp_flags.ts";
import { progress } from "./progress.ts";
import type { ResponseProfile } from "../mcp/envelope.ts";

const USAGE =
  `Usage: ptc catalog [--upstreams-config F] [--format text|json] [--diff OLD.json] [--read-only] [--allow-writes]
       ptc catalog --prompt [--catalog-mode auto|inline|lazy] [--response-profile slim|structured|debug] …
       ptc catalog --operations DOC_FILE_OR_URL [--overlay FILE]… [--format text|json]

Loads the config (F, else $PTC_UPSTREAMS, else ./ptc.jsonc or ~/.config/ptc/config.jsonc), starts every upstream, compiles its tools and prints the catalog; an
upstream that cannot start is listed with its state, and its problem printed.
  --format text|json   text (default): one line per tool with its signature and result type; json: the full catalog
  --diff OLD.json      compare with an earlier \`--format json\` output: + added, - removed, ~ changed tools
                       (with --format json: {"changes": [{"kind", "ref", "parts"}…]})
  --prompt             print exactly the lisp_eval description \`ptc mcp\` serves for this config (what the agent
                       sees); --catalog-mode (default: the config's catalog.exposure) and --response-profile (default
                       slim) as given to ptc mcp
  --read-only          show only read tools; env PTC_READ_ONLY
  --allow-writes       show the write tools the config allows (allow_writes); env PTC_ALLOW_WRITES
  --operations DOC     list every operation of an OpenAPI document and whether it compiles (no config needed):
                       "+ id  METHOD /path → tool" or "- id  METHOD /path: why not"
  --overlay FILE       with --operations: apply this OpenAPI Overlay 1.0 file first (repeatable, in order), to see
                       what an upstream's \`overlays\` would change

Exit codes: 0 ok (with --diff: no changes), 1 --diff found changes, 2 config, permission or upstream problems
(an upstream that could not start: the rest of the catalog is printed all the same; --diff refuses to compare)
(one line each).`;

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
  operations: { type: "string" },
  overlay: { type: "string", multiple: true },
  "allow-writes": { type: "boolean" },
  prompt: { type: "boolean" },
  "catalog-mode": { type: "string" },
  "response-profile": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc catalog`. */
export async function run(args: string[]): Promise<number> {
  let values;
  try {
    const parsed = parseFlags(args, CATALOG_OPTIONS, false);
    values = parsed.values;
    choiceFlag("format", values.format, ["text", "json"]);
    choiceFlag("catalog-mode", values["catalog-mode"], ["auto", "inline", "lazy"]);
    choiceFlag("response-profile", values["response-profile"], ["slim", "structured", "debug"]);
    for (const flag of ["catalog-mode", "response-profile"] as const) {
      if (values[flag] !== undefined && !values.prompt) throw new UsageError(`--${flag} goes with --prompt`);
    }
    if (values.prompt && (values.diff !== undefined || values.format === "json")) {
      throw new UsageError("--prompt prints the description as text; it does not combine with --diff or --format json");
    }
    if (values.overlay !== undefined && values.operations === undefined) {
      throw new UsageError("--overlay goes with --operations DOC (a config names its files in `overlays`)");
    }
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "catalog");
    throw e;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.operations !== undefined) {
    return await listOperations(values.operations as string, values.overlay ?? [], values.format === "json");
  }
  const configFlag = values["upstreams-config"] as string | undefined;
  if (!resolveConfigPath(configFlag)) return fail([NO_CONFIG]);
  // The catalog runs no program: the engine never starts a sandbox.
  let engine: Engine;
  try {
    engine = await createEngine({
      registry: registerBuiltins(),
      upstreamsConfig: configFlag,
      readOnly: processReadOnly(values["read-only"] === true),
      allowWrites: processAllowsWrites(values["allow-writes"] === true),
      upstreamStart: "background",
      lazySandbox: true,
      onWarning: (w) => console.error(`ptc catalog: warning: ${w}`),
      onLog: (line) => console.error(`ptc catalog: ${line}`),
    });
  } catch (e) {
    if (e instanceof EngineStartError) return fail(e.lines);
    throw e;
  }
  try {
    // The catalog's job is the tools: every upstream gets one attempt to list them; one that cannot is shown with
    // its state (and why), never the reason the command fails to run.
    const unsubscribe = Deno.stderr.isTerminal() ? watchStarts(engine) : undefined;
    await engine.settleUpstreams();
    unsubscribe?.();
    let code = 0;
    if (values.prompt) {
      const { lispEvalDescriptionOf } = await import("../mcp/server.ts");
      const mode = values["catalog-mode"] as "auto" | "inline" | "lazy" | undefined;
      const profile = (values["response-profile"] ?? MCP_FLAGS["response-profile"].default) as ResponseProfile;
      console.log(lispEvalDescriptionOf(engine, {
        catalogMode: mode,
        profile,
        programTimeoutMs: MCP_FLAGS["program-timeout-ms"].default,
      }));
    } else code = await printCatalog(engine, values.diff as string | undefined, values.format === "json");
    // Everything that could be listed was; an upstream that could not start (its problem is on stderr, its state in
    // the listing) makes the exit status 2, so a script can tell a partial catalog.
    const down = engine.catalog().some((s) => s.status !== "ready");
    return code === 0 && down ? 2 : code;
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
    // Comparing without an upstream's tools would report them all removed: say why instead.
    const missing = engine.catalog().filter((s) => s.status !== "ready");
    if (missing.length > 0) {
      return fail(missing.map((s) => `--diff: upstream ${s.name} is ${s.statusText}; cannot compare its tools`));
    }
    let changes;
    try {
      changes = diffCatalogs(old, engine.catalogJson());
    } catch (e) {
      return fail([`--diff ${diff}: ${(e as Error).message}`]);
    }
    if (json) console.log(JSON.stringify({ changes }, null, 2));
    else if (changes.length === 0) console.log("no changes");
    else {
      for (const c of changes) {
        const sign = c.kind === "added" ? "+" : c.kind === "removed" ? "-" : "~";
        console.log(`${sign} ${c.ref}${c.parts ? ` (${c.parts.join(", ")})` : ""}`);
      }
    }
    // Like diff(1): a script (or CI job) can tell "the catalog drifted" from "nothing changed".
    return changes.length === 0 ? 0 : 1;
  } else if (json) {
    console.log(JSON.stringify(engine.catalogJson(), null, 2));
  } else {
    console.log(engine.catalogText());
  }
  return 0;
}

/**
 * `--operations DOC`: every operation of the document and whether it compiles as a read-only tool; a non-GET one that
 * compiles once declared says which `operation_overrides.<id>.effect` to add.
 */
async function listOperations(docArg: string, overlays: string[], json: boolean): Promise<number> {
  let cli;
  try {
    cli = await loadCliDocument(docArg, overlays);
  } catch (e) {
    return fail((e as Error).message.split("\n"));
  }
  for (const w of cli.warnings) console.error(`ptc catalog: warning: ${w}`);
  const baseUrl = documentBaseUrl(cli)?.url ?? PLACEHOLDER_BASE_URL;
  const ops = surveyCliDocument(cli, "doc", baseUrl, schemeSupplied(cli.loaded.doc, requiredSchemes(cli.loaded.doc)));
  if (json) {
    console.log(JSON.stringify(
      ops.map((o) => ({
        id: o.id,
        method: o.method,
        path: o.path,
        ...(o.derived ? { derived_id: true } : {}),
        ...(o.deprecated ? { deprecated: true } : {}),
        compiles: o.tool !== undefined,
        ...(o.tool !== undefined ? { tool: o.tool } : { problems: o.problems }),
        ...(o.declare ? { declare_effect: o.declare } : {}),
        ...(o.warnings.length ? { warnings: o.warnings } : {}),
      })),
      null,
      2,
    ));
    return 0;
  }
  const width = Math.min(40, Math.max(0, ...ops.map((o) => o.id.length)));
  for (const o of ops) {
    const head = `${o.tool !== undefined ? "+" : "-"} ${o.id.padEnd(width)}  ${o.method} ${o.path}`;
    const dep = o.deprecated ? " (deprecated)" : "";
    console.log(o.tool !== undefined ? `${head} → ${o.tool}${dep}` : `${head}${dep}: ${o.problems.join("; ")}`);
  }
  const n = ops.filter((o) => o.tool !== undefined).length;
  console.log(`${n} of ${ops.length} operations compile as read-only tools`);
  const declarable = ops.filter((o) => o.declare !== undefined).length;
  if (declarable) {
    console.log(`${declarable} more compile once declared in operation_overrides.<id>.effect (writes or safe queries)`);
  }
  return 0;
}

/**
 * Progress on a terminal (src/cli/progress.ts) while upstreams start — three MCP servers can take seconds — one line
 * as each comes up or fails. Off a terminal nothing is subscribed.
 */
function watchStarts(engine: Engine): () => void {
  const servers = engine.catalog().length;
  if (servers > 0) progress("catalog", `starting ${servers} upstream(s)…`);
  return engine.subscribe((e) => {
    if (e.type !== "phase") return;
    if (e.to === "ready") progress("catalog", `${e.upstream} is up`);
    else if (e.to === "failed" || e.to === "reconnecting") {
      progress("catalog", `${e.upstream} did not start${e.cause ? ` [${e.cause.code}]` : ""}`);
    }
  });
}

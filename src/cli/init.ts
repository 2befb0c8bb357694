/**
 * `ptc init openapi DOC_FILE_OR_URL [--name N] [--base-url U] [-o FILE]`: write a commented JSONC config for an
 * OpenAPI document — every operation that compiles as a read included, the rest commented out with the reason,
 * credentials and base URL as placeholders the comments explain.
 * @module
 */
import { dirname, relative, resolve } from "node:path";
import { PLACEHOLDER_BASE_URL, renderInitConfig } from "../../transports/openapi/init_config.ts";
import { UPSTREAM_NAME_PATTERN } from "../upstream/config_schema.ts";
import {
  documentBaseUrl,
  loadCliDocument,
  requiredSchemes,
  schemeSupplied,
  securitySchemes,
  surveyCliDocument,
} from "./openapi_doc.ts";
import { intFlag, parseFlags, UsageError, usageError } from "./usage.ts";
import { progress } from "./progress.ts";
import { describeFilter, isEmptyFilter, type OperationFilter, selectOperations } from "./init_filter.ts";

const USAGE = `Usage: ptc init openapi DOC_FILE_OR_URL [--name N] [--base-url U] [--overlay FILE]… [-o FILE] [--force]
                        [--include GLOB]… [--exclude GLOB]… [--tag T]… [--schema-max-bytes N]

Writes a commented JSONC config for an OpenAPI 3.0/3.1 document (a file or an http(s) URL): every operation that
compiles as a read-only tool is included, every other one is listed commented out with the reason. Credentials and the
base URL are placeholders the comments explain. Check the result with: ptc catalog --upstreams-config FILE
  --name N       upstream name (default: from the document's title)
  --base-url U   the service's base URL (default: the document's first absolute server URL, else a placeholder)
  --overlay FILE apply this OpenAPI Overlay 1.0 file to the document first (repeatable, in order); the config
                 names it in \`overlays\`
  -o, --output F write to F instead of stdout (refused if F exists, unless --force)
  --include GLOB only operations whose operationId (or, for a GLOB starting with /, path) matches (repeatable);
                 e.g. --include 'repos/list-*' --include '/repos/{owner}/{repo}/issues*'
  --exclude GLOB leave out operations that match (repeatable; applied after --include and --tag)
  --tag T        only operations tagged T (repeatable; with --include, either selects)
  --schema-max-bytes N  load a document larger than the default cap (64 MiB files, 16 MiB URLs) and write
                 schema_max_bytes: N into the config

Exit codes: 0 written, 1 written but no operation compiles, 2 usage or document problems.`;

/** The flags of `ptc init` (also read by `ptc permissions init`). */
export const INIT_OPTIONS = {
  name: { type: "string" },
  "base-url": { type: "string" },
  overlay: { type: "string", multiple: true },
  output: { type: "string", short: "o" },
  force: { type: "boolean" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  tag: { type: "string", multiple: true },
  "schema-max-bytes": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc init`. */
export async function run(args: string[]): Promise<number> {
  let values;
  let positionals: string[];
  let schemaMaxBytes: number | undefined;
  try {
    const parsed = parseFlags(args, INIT_OPTIONS);
    values = parsed.values;
    positionals = parsed.positionals;
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    if (positionals[0] !== "openapi") {
      throw new UsageError(
        positionals[0] === undefined
          ? "missing kind: ptc init openapi DOC"
          : `unknown kind '${positionals[0]}'; only openapi`,
      );
    }
    if (positionals.length !== 2) throw new UsageError("expected exactly one DOC_FILE_OR_URL");
    if (values.name !== undefined && !new RegExp(UPSTREAM_NAME_PATTERN).test(values.name)) {
      throw new UsageError(`--name '${values.name}': must start with a letter and use only A-Z a-z 0-9 _ - (≤ 64)`);
    }
    if (values["base-url"] !== undefined) checkBaseUrl(values["base-url"]);
    schemaMaxBytes = intFlag("schema-max-bytes", values["schema-max-bytes"], 1);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "init");
    throw e;
  }
  const fail = (line: string) => {
    console.error(`ptc init: ${line}`);
    return 2;
  };
  let cli;
  try {
    progress("init", `reading ${positionals[1]}…`);
    cli = await loadCliDocument(positionals[1], values.overlay ?? [], schemaMaxBytes);
  } catch (e) {
    for (const line of (e as Error).message.split("\n")) console.error(`ptc init: ${line}`);
    return 2;
  }
  for (const w of cli.warnings) console.error(`ptc init: warning: ${w}`);
  const doc = cli.loaded.doc;
  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown };
  const title = `${typeof info.title === "string" ? info.title : "OpenAPI service"}${
    typeof info.version === "string" ? ` ${info.version}` : ""
  }`;
  const name = values.name ?? slug(typeof info.title === "string" ? info.title : "api");
  const fromDoc = documentBaseUrl(cli);
  const baseUrl = values["base-url"] !== undefined
    ? { url: values["base-url"].replace(/\/+$/, ""), origin: "flag" as const }
    : fromDoc
    ? { ...fromDoc, origin: "document" as const }
    : { url: PLACEHOLDER_BASE_URL, origin: "placeholder" as const };
  const required = requiredSchemes(doc);
  const filter: OperationFilter = {
    include: values.include ?? [],
    exclude: values.exclude ?? [],
    tags: values.tag ?? [],
  };
  progress("init", "compiling every operation…");
  const surveyed = surveyCliDocument(cli, name, baseUrl.url, schemeSupplied(doc, required));
  const operations = selectOperations(surveyed, filter);
  if (!isEmptyFilter(filter) && operations.length === 0) {
    return fail(`${describeFilter(filter)} selects none of the document's ${surveyed.length} operations`);
  }
  const output = values.output === undefined ? undefined : resolve(Deno.cwd(), values.output);
  // Paths in the config are relative to the config file's folder (when written to stdout: as given, absolute).
  const fromConfig = (path: string) => (output ? relative(dirname(output), path) || path : path);
  const schema = cli.kind === "url" ? { schema_url: cli.location } : { schema_file: fromConfig(cli.location) };
  const text = renderInitConfig({
    name,
    schema,
    baseUrl,
    title,
    source: cli.kind === "url" ? cli.location : positionals[1],
    operations,
    overlays: cli.overlays.map(fromConfig),
    securitySchemes: securitySchemes(doc),
    requiredSchemes: required,
    ...(isEmptyFilter(filter)
      ? {}
      : { leftOut: { count: surveyed.length - operations.length, filters: describeFilter(filter) } }),
    ...(schemaMaxBytes !== undefined ? { schemaMaxBytes } : {}),
  });
  if (output) {
    try {
      await Deno.writeTextFile(output, text, { createNew: values.force !== true });
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) return fail(`${values.output} exists; pass --force to replace it`);
      return fail(
        `cannot write ${values.output}: ${e instanceof Deno.errors.PermissionDenied ? "permission denied" : "failed"}`,
      );
    }
  } else {
    await Deno.stdout.write(new TextEncoder().encode(text));
  }
  const included = operations.filter((o) => o.tool !== undefined).length;
  const filtered = surveyed.length - operations.length;
  console.error(
    `ptc init: ${included} of ${operations.length} operations included${
      filtered ? ` (${filtered} more left out by the filters)` : ""
    }${output ? `; wrote ${values.output}` : ""}`,
  );
  if (included === 0) {
    console.error("ptc init: no operation compiles as a read-only tool; the config lists them all commented out");
    return 1;
  }
  return 0;
}

function checkBaseUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url '${text}': not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError(`--base-url: use https://`);
  if (url.search || url.hash) throw new UsageError("--base-url must not have a ?query or #fragment");
}

/** An upstream name from a document title: lowercase words joined by `_`, starting with a letter. */
export function slug(title: string): string {
  const words = title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  const name = /^[a-z]/.test(words) ? words : `api_${words}`;
  return name.slice(0, 40).replace(/_+$/, "") || "api";
}

/**
 * `ptc fixture observatory [--port N] [--host H] [--seed S] [--traces N] [--tokens-file F | --token-dir D]
 * [--audit-log F] [--write-delay-ms N|hang]`: run the local Observatory fixture until SIGINT/SIGTERM. Without
 * --tokens-file fresh tokens (full access, and read-only) are written to --token-dir (or a new temp dir) and the
 * paths are printed.
 * @module
 */
import { intFlag, parseFlags, UsageError, usageError } from "./usage.ts";
import { untilStopSignal } from "./signals.ts";

const USAGE = `Usage: ptc fixture observatory [options]

Run the Observatory fixture (LLM traces, steps and cost analytics; OpenAPI at /api/openapi.json).

Options:
  --port N           port to listen on (default 0 = any free port)
  --host H           address to bind (default 127.0.0.1)
  --seed S           data seed (default "observatory"); same seed, same bytes
  --traces N         number of traces to generate (default 4000)
  --tokens-file F    tokens file (JSON, re-read on change); default: fresh tokens (see --token-dir)
  --token-dir D      where the fresh tokens go: D/tokens.json (service), D/observatory.token (client, full access
                     incl. traces:write) and D/observatory-read.token (client, read-only); default: a new temp dir
  --audit-log F      append audit lines to F ("stderr" for stderr; default: stderr)
  --write-delay-ms N hold every write response N ms after the write was handled ("hang": until stopped), to see
                     how a client reports a write whose answer never came (default 0)
  -h, --help         show this help`;

/** The flags of `ptc fixture observatory` (also read by `ptc permissions fixture`). */
export const FIXTURE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  seed: { type: "string" },
  traces: { type: "string" },
  "tokens-file": { type: "string" },
  "token-dir": { type: "string" },
  "audit-log": { type: "string" },
  "write-delay-ms": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Entry point of `ptc fixture`. */
export async function run(args: string[]): Promise<number> {
  const [kind, ...rest] = args;
  if (kind === "-h" || kind === "--help") {
    console.log(USAGE);
    return 0;
  }
  if (kind !== "observatory") {
    return usageError(kind === undefined ? "missing fixture name" : `unknown fixture '${kind}'`, USAGE, "fixture");
  }
  let flags;
  let port: number | undefined;
  let traces: number | undefined;
  let writeDelayMs: number | undefined;
  try {
    flags = parseFlags(rest, FIXTURE_OPTIONS, false);
    port = intFlag("port", flags.values.port, 0, 65535);
    traces = intFlag("traces", flags.values.traces, 1, 200_000);
    const delay = flags.values["write-delay-ms"];
    writeDelayMs = delay === "hang" ? Infinity : intFlag("write-delay-ms", delay, 0, 3_600_000);
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message, USAGE, "fixture");
    throw e;
  }
  if (flags.values.help) {
    console.log(USAGE);
    return 0;
  }
  const { createTokenDir, startObservatory, TokensFileError } = await import("../../fixtures/observatory/mod.ts");
  let tokensFile = flags.values["tokens-file"];
  let tokenFile: string | undefined;
  let readOnlyTokenFile: string | undefined;
  if (tokensFile && flags.values["token-dir"]) {
    return usageError("use either --tokens-file or --token-dir, not both", USAGE, "fixture");
  }
  if (!tokensFile) {
    const dir = flags.values["token-dir"];
    if (dir) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const made = await createTokenDir(dir);
    tokensFile = made.tokensFile;
    tokenFile = made.tokenFile;
    readOnlyTokenFile = made.readOnlyTokenFile;
  }
  let server;
  try {
    server = await startObservatory({
      port,
      host: flags.values.host ?? "127.0.0.1",
      seed: flags.values.seed,
      traces,
      tokensFile,
      auditLog: flags.values["audit-log"] ?? "stderr",
      writeDelayMs,
    });
  } catch (e) {
    if (e instanceof TokensFileError) {
      console.error(`ptc fixture: ${e.message}`);
      return 2;
    }
    const msg = e instanceof Error ? e.message : String(e);
    console.error(
      `ptc fixture: cannot start the Observatory on ${flags.values.host ?? "127.0.0.1"}:${port ?? 0}: ${msg}`,
    );
    return 1;
  }
  console.log(`Observatory listening on ${server.url}`);
  console.log(`OpenAPI document: ${server.url}/api/openapi.json`);
  console.log(`tokens file: ${tokensFile}`);
  if (tokenFile) console.log(`client token file (for a ptc "file" credential): ${tokenFile}`);
  if (readOnlyTokenFile) console.log(`read-only client token file (no traces:write): ${readOnlyTokenFile}`);
  if (writeDelayMs) {
    console.log(`write responses are held ${writeDelayMs === Infinity ? "until stopped" : `${writeDelayMs} ms`}`);
  }
  console.log("Press Ctrl-C to stop.");
  await untilStopSignal();
  await server.stop();
  console.log("Observatory stopped.");
  return 0;
}

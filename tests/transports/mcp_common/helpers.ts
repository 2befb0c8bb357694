/**
 * Test helpers for the MCP transports: fake runtime deps (credentials from a map, a real redactor), config contexts
 * and the fixture commands.
 * @module
 */
import type { JsonObject } from "../../../src/core/json.ts";
import type {
  AuthEmitter,
  CallContext,
  ConfigContext,
  ConfigError,
  CredentialMaterializer,
  Transport,
  TransportDeps,
  Upstream,
} from "../../../src/upstream/types.ts";
import { createRedactor } from "../../../src/upstream/redact.ts";

/** Absolute path of the repo root. */
export const ROOT = new URL("../../../", import.meta.url).pathname.replace(/\/$/, "");
/** The stdio fixture entry. */
export const STDIO_FIXTURE = `${ROOT}/fixtures/mcp/stdio.ts`;
/** The deno binary running the tests. */
export const DENO = Deno.execPath();

/** Fake credentials: name → value. */
export function fakeCredentials(values: Record<string, string>): CredentialMaterializer {
  return {
    resolve(name: string) {
      const v = values[name];
      if (v === undefined) return Promise.reject(new Error(`credential "${name}" is not set`));
      return Promise.resolve(v);
    },
    async authHeaders(auth: AuthEmitter[]) {
      const out: Record<string, string> = {};
      for (const a of auth) {
        const v = await this.resolve(a.binding);
        if (a.scheme === "bearer") out.authorization = `Bearer ${v}`;
        else if (a.scheme === "basic") out.authorization = `Basic ${btoa(v)}`;
        else out[a.header!] = v;
      }
      return out;
    },
  };
}

/** Runtime deps for a transport under test; `logs` collects the diagnostics log. */
export function makeDeps(
  options: { credentials?: Record<string, string>; name?: string } = {},
): TransportDeps & { logs: string[] } {
  const redactor = createRedactor();
  const logs: string[] = [];
  return {
    upstreamName: options.name ?? "fx",
    credentials: fakeCredentials(options.credentials ?? {}),
    redactor,
    limits: { callTimeoutMs: 10_000, maxResponseBytes: 1024 * 1024, connectTimeoutMs: 5000 },
    fetch: globalThis.fetch,
    log: (m) => logs.push(redactor.redact(m)),
    logs,
  };
}

/** A config context. */
export function makeCtx(options: { credentials?: string[]; name?: string } = {}): ConfigContext {
  const name = options.name ?? "fx";
  return {
    upstreamName: name,
    path: `upstreams.${name}`,
    configDir: ROOT,
    credentialNames: new Set(options.credentials ?? []),
  };
}

/** A call context. */
export function callCtx(overrides: Partial<CallContext> = {}): CallContext {
  return { signal: new AbortController().signal, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024, ...overrides };
}

/** Parse a config or fail the test with the errors. */
export function parseOk<C>(t: Transport<C>, raw: JsonObject, ctx = makeCtx()): C {
  const c = t.parseConfig(raw, ctx);
  if (Array.isArray(c)) throw new Error(`config errors: ${JSON.stringify(c as ConfigError[])}`);
  return c as C;
}

/** Parse + start; the caller must stop the upstream. */
export async function startUpstream<C>(
  t: Transport<C>,
  raw: JsonObject,
  deps = makeDeps(),
  ctx = makeCtx(),
): Promise<Upstream> {
  return await t.start(parseOk(t, raw, ctx), deps);
}

/**
 * How a test starts a Deno child (a fixture server, or ptc itself): `--frozen --cached-only` resolves every package
 * from deno.lock and the installed node_modules, never from the registry. An MCP stdio child gets a cleared
 * environment, so it cannot reach the registry through this machine's proxy; with `--no-lock` it resolved against
 * whatever registry metadata the Deno cache held, and passed or failed by which test ran first on a fresh machine.
 */
export const DENO_RUN_ARGS = ["run", "--frozen", "--cached-only"];

/** Environment every fixture child gets besides what a test adds (nothing: the child's environment is cleared). */
export const FIXTURE_ENV: JsonObject = {};

/** The stdio fixture as an mcp_stdio config. */
export function stdioFixture(extraArgs: string[] = [], more: JsonObject = {}): JsonObject {
  const env = { ...FIXTURE_ENV, ...(more.env as JsonObject | undefined ?? {}) };
  return {
    transport: "mcp_stdio",
    command: DENO,
    args: [...DENO_RUN_ARGS, "--allow-env", STDIO_FIXTURE, ...extraArgs],
    ...more,
    env,
  };
}

/** True while a process with this pid exists and is not a zombie. */
export function pidAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Poll until `cond` is true (bounded); returns whether it became true. */
export async function waitFor(cond: () => boolean, timeoutMs = 10_000, stepMs = 25): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return cond();
}

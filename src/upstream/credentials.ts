/**
 * Credentials: the top-level `credentials` section (sources `env`, `file`, `literal`) and the materializer that
 * turns `auth` emitters into request headers. `env` and `file` sources are read on EVERY call (no cache), so
 * replacing a secret file rotates the token without a restart. Every resolved secret and its encoded forms
 * (`Bearer x`, `user:pass`, its base64) are registered with the redactor before they are returned.
 * Error messages name the credential, variable or path — never the secret.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { AuthEmitter, ConfigError, CredentialMaterializer, Redactor } from "./types.ts";
import { base64Utf8 } from "./redact.ts";
import { didYouMean } from "../core/suggest.ts";
import { joinKey, unknownKeyHint } from "./messages.ts";
import { HEADER_TOKEN_RE, isReservedHeader } from "./headers.ts";

/** What kind of emitter a credential is meant for. */
export type SchemeHint = "bearer" | "basic" | "raw";

/** A parsed credential binding. */
export type CredentialSpec =
  & { name: string; schemeHint?: SchemeHint }
  & ({ source: "env"; var: string } | { source: "file"; path: string } | { source: "literal"; value: string });

/** Thrown when a credential cannot be resolved or emitted. The message never contains the secret. */
export class CredentialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialError";
  }
}

const NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const ENV_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SOURCE_KEYS: Record<string, string[]> = {
  env: ["source", "var", "scheme_hint"],
  file: ["source", "path", "scheme_hint"],
  literal: ["source", "value", "scheme_hint"],
};

/** JSON Schema of one credential binding (published in the config schema). */
export const credentialSchema = {
  type: "object",
  description: "A secret: from an environment variable, a file (re-read on every request) or a literal.",
  properties: {
    source: { enum: ["env", "file", "literal"], description: "Where the secret comes from." },
    var: { type: "string", minLength: 1, description: "env: the environment variable name." },
    path: { type: "string", minLength: 1, description: "file: path (relative to the config file's folder)." },
    value: { type: "string", description: "literal: the secret itself (discouraged; warns at load)." },
    scheme_hint: { enum: ["bearer", "basic", "raw"], description: "Which auth scheme may use this credential." },
  },
  required: ["source"],
  additionalProperties: false,
} as const;

/** Result of parsing the `credentials` section. */
export interface ParsedCredentials {
  specs: Map<string, CredentialSpec>;
  errors: ConfigError[];
  warnings: string[];
}

/**
 * Semantic parse of the top-level `credentials` object (already structurally checked against the schema, but
 * every rule is re-checked here so the function is safe on raw input).
 */
export function parseCredentials(raw: unknown, configDir: string, path = "credentials"): ParsedCredentials {
  const out: ParsedCredentials = { specs: new Map(), errors: [], warnings: [] };
  if (raw === undefined || raw === null) return out;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    out.errors.push({ path, message: "must be an object mapping credential names to bindings" });
    return out;
  }
  for (const [name, binding] of Object.entries(raw as Record<string, unknown>)) {
    const p = joinKey(path, name);
    if (!NAME_RE.test(name)) {
      out.errors.push({ path: p, message: "credential names must start with a letter and use only A-Z a-z 0-9 _ -" });
      continue;
    }
    if (binding === null || typeof binding !== "object" || Array.isArray(binding)) {
      out.errors.push({ path: p, message: 'must be an object like {"source": "env", "var": "MY_TOKEN"}' });
      continue;
    }
    const b = binding as Record<string, unknown>;
    const source = b.source;
    if (typeof source !== "string" || !(source in SOURCE_KEYS)) {
      out.errors.push({
        path: joinKey(p, "source"),
        message: `must be "env", "file" or "literal"${
          typeof source === "string" ? didYouMean(source, Object.keys(SOURCE_KEYS)) : ""
        }`,
      });
      continue;
    }
    let ok = true;
    for (const key of Object.keys(b)) {
      if (!SOURCE_KEYS[source].includes(key)) {
        out.errors.push({
          path: joinKey(p, key),
          message: `unknown key for a ${source} credential${unknownKeyHint(key, SOURCE_KEYS[source])}`,
        });
        ok = false;
      }
    }
    let schemeHint: SchemeHint | undefined;
    if (b.scheme_hint !== undefined) {
      if (b.scheme_hint === "bearer" || b.scheme_hint === "basic" || b.scheme_hint === "raw") {
        schemeHint = b.scheme_hint;
      } else {
        out.errors.push({ path: joinKey(p, "scheme_hint"), message: 'must be "bearer", "basic" or "raw"' });
        ok = false;
      }
    }
    if (source === "env") {
      if (typeof b.var !== "string" || !ENV_RE.test(b.var)) {
        out.errors.push({ path: joinKey(p, "var"), message: "must be an environment variable name like MY_TOKEN" });
        continue;
      }
      if (ok) out.specs.set(name, { name, source, var: b.var, schemeHint });
    } else if (source === "file") {
      if (typeof b.path !== "string" || b.path.trim() === "") {
        out.errors.push({ path: joinKey(p, "path"), message: "must be a non-empty file path" });
        continue;
      }
      const abs = isAbsolute(b.path) ? b.path : resolve(configDir, b.path);
      if (ok) out.specs.set(name, { name, source, path: abs, schemeHint });
    } else {
      if (typeof b.value !== "string") {
        out.errors.push({ path: joinKey(p, "value"), message: "must be a string" });
        continue;
      }
      if (ok) {
        out.specs.set(name, { name, source: "literal", value: b.value, schemeHint });
        out.warnings.push(
          `${p}: literal secret stored in the config file; prefer {"source": "env"} or {"source": "file"}`,
        );
      }
    }
  }
  return out;
}

/** Where the materializer reads env vars and files (tests substitute these). */
export interface CredentialIo {
  getEnv(name: string): string | undefined;
  readFile(path: string): Promise<string>;
}

const defaultIo: CredentialIo = {
  getEnv: (name) => Deno.env.get(name),
  readFile: (path) => Deno.readTextFile(path),
};

/** Split a basic credential into user and password: JSON `{"user","pass"}` or `user:pass`. */
export function splitBasic(name: string, secret: string): { user: string; pass: string } {
  const trimmed = secret.trim();
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new CredentialError(`credential "${name}": basic credential JSON does not parse`);
    }
    const o = parsed as Record<string, unknown>;
    if (typeof o?.user !== "string" || typeof o?.pass !== "string" || o.user === "") {
      throw new CredentialError(`credential "${name}": basic credential JSON must contain "user" and "pass" strings`);
    }
    return { user: o.user, pass: o.pass };
  }
  const i = secret.indexOf(":");
  if (i <= 0) throw new CredentialError(`credential "${name}": basic credential must be "user:pass" or JSON`);
  return { user: secret.slice(0, i), pass: secret.slice(i + 1) };
}

/** Materializes credentials from their specs; registers every value with the redactor. */
export class Materializer implements CredentialMaterializer {
  constructor(
    private readonly specs: ReadonlyMap<string, CredentialSpec>,
    private readonly redactor: Redactor,
    private readonly io: CredentialIo = defaultIo,
  ) {
    for (const spec of specs.values()) if (spec.source === "literal") redactor.register(spec.value);
  }

  /** The secret value of a declared credential, read fresh (env/file). */
  async resolve(credentialName: string): Promise<string> {
    const spec = this.specs.get(credentialName);
    if (!spec) throw new CredentialError(`unknown credential "${credentialName}"`);
    let value: string;
    if (spec.source === "literal") {
      value = spec.value;
    } else if (spec.source === "env") {
      let v: string | undefined;
      try {
        v = this.io.getEnv(spec.var);
      } catch {
        throw new CredentialError(
          `credential "${spec.name}": no permission to read env ${spec.var} (grant --allow-env=${spec.var})`,
        );
      }
      if (v === undefined || v === "") {
        throw new CredentialError(`credential "${spec.name}": environment variable ${spec.var} is not set or empty`);
      }
      value = v;
    } else {
      try {
        value = (await this.io.readFile(spec.path)).replace(/\s+$/, "");
      } catch (e) {
        const why = e instanceof Deno.errors.NotFound
          ? "file not found"
          : e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable")
          ? `no permission to read it (grant --allow-read=${spec.path})`
          : "file cannot be read";
        throw new CredentialError(`credential "${spec.name}": ${spec.path}: ${why}`);
      }
      if (value === "") throw new CredentialError(`credential "${spec.name}": ${spec.path} is empty`);
    }
    this.redactor.register(value);
    this.#registerBasicForms(credentialName, value);
    return value;
  }

  /** A value that could feed a basic emitter: register its password and encoded pair too (before any use). */
  #registerBasicForms(name: string, value: string): void {
    let parts: { user: string; pass: string };
    try {
      parts = splitBasic(name, value);
    } catch {
      return;
    }
    if (parts.pass.length >= 4) this.redactor.register(parts.pass);
    const token = base64Utf8(`${parts.user}:${parts.pass}`);
    this.redactor.register(`${parts.user}:${parts.pass}`);
    this.redactor.register(token);
  }

  /**
   * Headers for an `auth` list; each value is resolved fresh and registered (with its encodings) first. Every
   * `cookie` emitter adds `name=value` to one `cookie` header; `query` emitters are left to {@link authQuery}.
   */
  async authHeaders(auth: AuthEmitter[]): Promise<Record<string, string>> {
    const headers: Record<string, string> = {};
    const cookies: string[] = [];
    for (const emitter of auth) {
      if (emitter.scheme === "query") continue;
      const secret = await this.resolve(emitter.binding);
      if (emitter.scheme === "cookie") {
        // RFC 6265 cookie-octets only: a value cannot end the cookie or start another
        if (!/^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/.test(secret)) {
          throw new CredentialError(
            `credential "${emitter.binding}": a cookie value must be printable ASCII without spaces, quotes, ` +
              "commas, semicolons or backslashes",
          );
        }
        this.redactor.register(`${emitter.cookie}=${secret}`);
        cookies.push(`${emitter.cookie}=${secret}`);
      } else if (emitter.scheme === "bearer") {
        this.redactor.register(`Bearer ${secret}`);
        headers["authorization"] = `Bearer ${secret}`;
      } else if (emitter.scheme === "basic") {
        const { user, pass } = splitBasic(emitter.binding, secret);
        const pair = `${user}:${pass}`;
        const token = base64Utf8(pair);
        this.redactor.register(pass);
        this.redactor.register(pair);
        this.redactor.register(token);
        this.redactor.register(`Basic ${token}`);
        headers["authorization"] = `Basic ${token}`;
      } else {
        const h = emitter.header ?? "";
        if (!HEADER_TOKEN_RE.test(h) || isReservedHeader(h)) {
          throw new CredentialError(`credential "${emitter.binding}": custom auth header "${h}" is not allowed`);
        }
        if (/[\r\n\0]/.test(secret)) {
          throw new CredentialError(`credential "${emitter.binding}": value contains a line break or NUL`);
        }
        headers[h] = secret;
      }
    }
    if (cookies.length > 0) headers["cookie"] = cookies.join("; ");
    return headers;
  }

  /** `[param, value]` for each `query` emitter, resolved fresh and registered (with its encodings) first. */
  async authQuery(auth: AuthEmitter[]): Promise<[string, string][]> {
    const pairs: [string, string][] = [];
    for (const emitter of auth) {
      if (emitter.scheme !== "query") continue;
      const secret = await this.resolve(emitter.binding);
      const encoded = `${encodeURIComponent(emitter.param!)}=${encodeURIComponent(secret)}`;
      this.redactor.register(encoded);
      this.redactor.register(new URLSearchParams([[emitter.param!, secret]]).toString());
      pairs.push([emitter.param!, secret]);
    }
    return pairs;
  }

  /** Resolve every credential once (start-up check); returns one message per failure. */
  async check(names?: Iterable<string>): Promise<string[]> {
    const problems: string[] = [];
    for (const name of names ?? this.specs.keys()) {
      try {
        await this.resolve(name);
      } catch (e) {
        problems.push(e instanceof CredentialError ? e.message : `credential "${name}" cannot be resolved`);
      }
    }
    return problems;
  }
}

/** Create a materializer over parsed specs. */
export function createMaterializer(
  specs: ReadonlyMap<string, CredentialSpec>,
  redactor: Redactor,
  io?: CredentialIo,
): Materializer {
  return new Materializer(specs, redactor, io);
}

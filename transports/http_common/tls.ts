/**
 * `ca_file`: the extra CA certificates (PEM) an HTTP upstream's TLS connections trust, for a service behind a private
 * CA. The file is read once at start (bounded, checked to hold PEM certificates); every request of the upstream then
 * goes through one pooled `Deno.HttpClient` that trusts them, and `guardedFetch` gives a write's fresh connection the
 * same certificates (it reads them off the fetch function). `DENO_CERT` does the same for the whole process.
 * @module
 */
import { UpstreamStartError } from "../../src/upstream/types.ts";

/** Largest CA file read. */
export const MAX_CA_FILE_BYTES = 1024 * 1024;

/** A fetch that trusts extra CA certificates; `caCerts` lets a caller open a fresh connection that trusts them too. */
export type TrustingFetch = typeof fetch & { caCerts: string[] };

/** Read `path` as PEM CA certificates, or throw an UpstreamStartError naming `key` (the config key path). */
export async function readCaFile(path: string, key: string): Promise<string> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) throw new UpstreamStartError("ca_file_invalid", `${key}: ${path} is not a regular file`);
    if (info.size > MAX_CA_FILE_BYTES) {
      throw new UpstreamStartError("ca_file_invalid", `${key}: ${path} is larger than ${MAX_CA_FILE_BYTES} bytes`);
    }
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof UpstreamStartError) throw e;
    const why = e instanceof Deno.errors.NotFound
      ? "file not found"
      : e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied
      ? "cannot be read (run with the flags `ptc permissions` prints)"
      : "cannot be read";
    throw new UpstreamStartError("ca_file_invalid", `${key}: ${path}: ${why}`);
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) {
    throw new UpstreamStartError(
      "ca_file_invalid",
      `${key}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
      "ca_file names the CA's certificate in PEM form, not a key or a DER file",
    );
  }
  return text;
}

/** `base` sending every request that names no client of its own through one pooled client trusting `pem`. */
export function trustingFetch(base: typeof fetch, pem: string): TrustingFetch {
  const client = Deno.createHttpClient({ caCerts: [pem] });
  const wrapped = ((input: RequestInfo | URL, init?: RequestInit) => {
    const own = (init as { client?: Deno.HttpClient } | undefined)?.client;
    return base(input, { ...init, client: own ?? client } as RequestInit);
  }) as TrustingFetch;
  wrapped.caCerts = [pem];
  return wrapped;
}

/**
 * The transport deps an upstream with `caFile` uses: `fetch` trusting its CA certificates (read now, at start). The
 * deps are returned unchanged without a `caFile`.
 */
export async function withCaFile<D extends { fetch: typeof fetch }>(
  deps: D,
  caFile: string | undefined,
  key: string,
): Promise<D> {
  if (!caFile) return deps;
  return { ...deps, fetch: trustingFetch(deps.fetch, await readCaFile(caFile, key)) };
}

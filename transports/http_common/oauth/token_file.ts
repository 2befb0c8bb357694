/**
 * The token file of an `authorization_code` upstream: one JSON document, written whole (a temporary file beside it,
 * created 0600, then renamed over it) so a reader never sees half a file, and refused when anyone but its owner can
 * read it. It holds the registered client, the discovery state (authorization server metadata, resource) and the
 * tokens. It is re-read on every use, so a login in another terminal or a refresh by another face is picked up.
 * Nothing here ever prints a token: messages name the file, never its content.
 * @module
 */
import type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens } from "@modelcontextprotocol/client";

/** What the file holds. */
export interface TokenRecord {
  version: 1;
  /** The MCP endpoint the tokens are for. */
  server_url: string;
  /** The authorization server's issuer. */
  issuer?: string;
  /** The registered (or configured) client. */
  client?: OAuthClientInformationMixed;
  /** Authorization server metadata and the resource, as discovered at login. */
  discovery?: OAuthDiscoveryState;
  tokens?: OAuthTokens;
  /** When `tokens` were obtained (ms since the epoch): with `expires_in`, when the access token expires. */
  obtained_at?: number;
}

/** A token file problem; the message names the file, never its content. */
export class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenFileError";
  }
}

function denied(e: unknown): boolean {
  return e instanceof Deno.errors.PermissionDenied || (e instanceof Error && e.name === "NotCapable");
}

/** The path of the temporary file a write goes through (granted with the file itself). */
export function tempPathOf(path: string): string {
  return `${path}.tmp`;
}

/** Read the record; undefined when the file does not exist. */
export async function readTokenFile(path: string): Promise<TokenRecord | undefined> {
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (info.mode !== null && (info.mode & 0o077) !== 0) {
      throw new TokenFileError(
        `token file ${path} can be read by others (mode ${(info.mode & 0o777).toString(8)}); run chmod 600 on it`,
      );
    }
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof TokenFileError) throw e;
    if (e instanceof Deno.errors.NotFound) return undefined;
    if (denied(e)) {
      throw new TokenFileError(`token file ${path}: no permission to read it (grant --allow-read=${path})`);
    }
    throw new TokenFileError(`token file ${path} cannot be read`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TokenFileError(`token file ${path} is not JSON (remove it and log in again)`);
  }
  const r = parsed as Partial<TokenRecord>;
  if (r === null || typeof r !== "object" || r.version !== 1 || typeof r.server_url !== "string") {
    throw new TokenFileError(`token file ${path} is not a ptc token file (remove it and log in again)`);
  }
  return r as TokenRecord;
}

/** Write the record whole, 0600. */
export async function writeTokenFile(path: string, record: TokenRecord): Promise<void> {
  const tmp = tempPathOf(path);
  try {
    await Deno.writeTextFile(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    await Deno.chmod(tmp, 0o600);
    await Deno.rename(tmp, path);
  } catch (e) {
    if (denied(e)) {
      throw new TokenFileError(`token file ${path}: no permission to write it (grant --allow-write=${path},${tmp})`);
    }
    if (e instanceof Deno.errors.NotFound) throw new TokenFileError(`token file ${path}: its folder does not exist`);
    throw new TokenFileError(`token file ${path} cannot be written`);
  }
}

/** Remove the file; false when it did not exist. */
export async function removeTokenFile(path: string): Promise<boolean> {
  try {
    await Deno.remove(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    if (denied(e)) throw new TokenFileError(`token file ${path}: no permission to remove it`);
    throw new TokenFileError(`token file ${path} cannot be removed`);
  }
}

/** When the access token expires (ms since the epoch), if the server said. */
export function expiresAt(record: TokenRecord): number | undefined {
  const seconds = record.tokens?.expires_in;
  if (typeof seconds !== "number" || record.obtained_at === undefined) return undefined;
  return record.obtained_at + seconds * 1000;
}

/**
 * The hosts a record says ptc talks to besides the MCP server (the issuer and the token endpoint), read synchronously
 * for `ptc permissions`; empty when the file is absent or unreadable (the face then reports it).
 */
export function recordedHosts(path: string, hostPortOf: (url: URL) => string): string[] {
  try {
    const r = JSON.parse(Deno.readTextFileSync(path)) as Partial<TokenRecord>;
    const urls = [r.issuer, r.discovery?.authorizationServerMetadata?.token_endpoint];
    const out: string[] = [];
    for (const u of urls) {
      if (typeof u !== "string") continue;
      try {
        out.push(hostPortOf(new URL(u)));
      } catch {
        // not a URL: nothing to grant
      }
    }
    return out;
  } catch {
    return [];
  }
}

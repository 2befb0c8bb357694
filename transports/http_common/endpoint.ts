/**
 * The public endpoint of an HTTP upstream for diagnostics and tool provenance: its URLs with userinfo, query and
 * fragment removed (and no trailing slash), so nothing secret a URL might carry reaches a face.
 * @module
 */
import type { JsonObject } from "../../src/core/json.ts";

/** `{key: url}` for each entry that is a URL, cleaned of userinfo, query, fragment and trailing slashes. */
export function publicEndpoint(urls: Record<string, string | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(urls)) {
    if (typeof raw !== "string") continue;
    try {
      const u = new URL(raw);
      u.username = "";
      u.password = "";
      u.search = "";
      u.hash = "";
      out[key] = u.href.replace(/\/+$/, "");
    } catch { /* not a URL: leave it out */ }
  }
  return out;
}

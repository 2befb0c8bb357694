/**
 * The `overlays` key of an `openapi` upstream: a list of OpenAPI Overlay 1.0 files, relative to the config file
 * (like `schema_file`), applied in order to the document before it is compiled. Local files only: an overlay
 * changes what the operator's config exposes, so it is reviewed and kept with the config, never fetched.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { joinIndex } from "../../src/upstream/messages.ts";
import { OVERLAY_LIMITS } from "./overlay.ts";

/** JSON Schema of the `overlays` key. */
export const overlaysSchema: JsonSchema = {
  type: "array",
  maxItems: OVERLAY_LIMITS.maxOverlays,
  items: { type: "string", minLength: 1 },
  description: "OpenAPI Overlay 1.0 files (YAML or JSON, relative to the config), applied in order before compiling.",
};

/** Parse `overlays` into absolute paths (empty when absent); problems go to `errors`. */
export function parseOverlays(raw: unknown, path: string, configDir: string, errors: ConfigError[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    errors.push({ path, message: 'must be a list of overlay files, e.g. ["curation.overlay.yaml"]' });
    return [];
  }
  if (raw.length > OVERLAY_LIMITS.maxOverlays) {
    errors.push({ path, message: `${raw.length} overlays exceed the limit of ${OVERLAY_LIMITS.maxOverlays}` });
    return [];
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    const p = joinIndex(path, i);
    if (typeof v !== "string" || v.trim() === "") {
      errors.push({ path: p, message: "must be a non-empty file path" });
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
      errors.push({
        path: p,
        message: "overlays are local files (relative to the config file); download it and keep it with the config",
      });
    } else {
      const file = isAbsolute(v) ? v : resolve(configDir, v);
      if (out.includes(file)) errors.push({ path: p, message: `"${v}" is listed twice` });
      else out.push(file);
    }
  });
  return out;
}

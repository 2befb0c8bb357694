/**
 * Lisp-facing tool names for OpenAPI operations: kebab-case from the operationId (or an override), a deterministic
 * id for operations without one, and deterministic shortening of long names (the shared rules: `tool_names.ts`).
 * @module
 */

import { kebabCase, shortenName } from "../../src/upstream/tool_names.ts";

export { fnv1a, hasLetters, kebabCase, MAX_TOOL_NAME, shortenName } from "../../src/upstream/tool_names.ts";

/**
 * Deterministic id for an operation without an operationId: the method (`list` for a GET whose path does not end
 * in a parameter, `get` when it does, the lowercase method otherwise) followed by the kebab-cased path segments.
 * `GET /pets` → `list-pets`, `GET /pets/{petId}` → `get-pets-pet-id`, `GET /` → `list-root`.
 */
export function derivedOperationId(method: string, path: string): string {
  // A query string or #fragment in the template (`/current?city={city}`, `/files/{id}#shared`) adds its keys and
  // words after the path: `list-current-city`, not `list-current-city-city`.
  const [beforeHash, fragment = ""] = splitOnce(path, "#");
  const [pathPart, query = ""] = splitOnce(beforeHash, "?");
  const extra = [...query.split("&").map((item) => item.split("=")[0]), fragment].map(kebabCase).filter((w) => w);
  const segments = pathPart.split("/").filter((s) => s !== "");
  const last = segments.at(-1) ?? "";
  const verb = method.toUpperCase() === "GET" ? (/^\{.+\}$/.test(last) ? "get" : "list") : method.toLowerCase();
  const words = segments.map((s) => kebabCase(s.replace(/[{}]/g, ""))).filter((w) => w !== "");
  return [verb, ...(words.length ? words : ["root"]), ...extra].join("-");
}

function splitOnce(text: string, sep: string): [string, string?] {
  const i = text.indexOf(sep);
  return i < 0 ? [text] : [text.slice(0, i), text.slice(i + 1)];
}

/** The exposed name for a raw name (operationId, `x-ptc-name` or override): kebab-cased, then shortened. */
export function toolName(raw: string): string {
  return shortenName(kebabCase(raw));
}

/**
 * Lisp-facing tool names for OpenAPI operations: kebab-case from the operationId (or an override), a deterministic
 * id for operations without one, and deterministic shortening of long names.
 * @module
 */

/** Longest exposed tool name. */
export const MAX_TOOL_NAME = 64;

/**
 * Kebab-case a name: word boundaries at case changes (`getTraceSteps` → `get-trace-steps`,
 * `HTTPServerStatus` → `http-server-status`), `_`, `.`, `/`, spaces and any other non-alphanumeric character become
 * `-`, repeats collapse, the ends are trimmed. The result matches `^[a-z0-9]+(-[a-z0-9]+)*$` or is empty.
 */
export function kebabCase(name: string): string {
  const s = name.trim();
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const prev = i > 0 ? s[i - 1] : "";
    const next = i + 1 < s.length ? s[i + 1] : "";
    if (isUpper(c)) {
      const boundary = (prev !== "" && (isLower(prev) || isDigit(prev))) ||
        (prev !== "" && isUpper(prev) && next !== "" && isLower(next));
      if (boundary) out += "-";
      out += c.toLowerCase();
    } else if (isLower(c) || isDigit(c)) {
      out += c;
    } else {
      out += "-";
    }
  }
  return out.replace(/-+/g, "-").replace(/^-|-$/g, "");
}

/**
 * Deterministic id for an operation without an operationId: the method (`list` for a GET whose path does not end
 * in a parameter, `get` when it does, the lowercase method otherwise) followed by the kebab-cased path segments.
 * `GET /pets` → `list-pets`, `GET /pets/{petId}` → `get-pets-pet-id`, `GET /` → `list-root`.
 */
export function derivedOperationId(method: string, path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  const last = segments.at(-1) ?? "";
  const verb = method.toUpperCase() === "GET" ? (/^\{.+\}$/.test(last) ? "get" : "list") : method.toLowerCase();
  const words = segments.map((s) => kebabCase(s.replace(/[{}]/g, ""))).filter((w) => w !== "");
  return [verb, ...(words.length ? words : ["root"])].join("-");
}

/**
 * Shorten a name over {@link MAX_TOOL_NAME} characters: keep a prefix and append `-` and 8 hex digits of a hash of
 * the full name, so the result is stable across runs and distinct names stay distinct (with overwhelming odds).
 */
export function shortenName(name: string): string {
  if (name.length <= MAX_TOOL_NAME) return name;
  const suffix = fnv1a(name);
  const prefix = name.slice(0, MAX_TOOL_NAME - suffix.length - 1).replace(/-+$/, "");
  return `${prefix}-${suffix}`;
}

/** The exposed name for a raw name (operationId, `x-ptc-name` or override): kebab-cased, then shortened. */
export function toolName(raw: string): string {
  return shortenName(kebabCase(raw));
}

/** FNV-1a 32-bit hash as 8 lowercase hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function isUpper(c: string): boolean {
  return c >= "A" && c <= "Z";
}
function isLower(c: string): boolean {
  return c >= "a" && c <= "z";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

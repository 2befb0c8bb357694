/**
 * Path templates as real documents write them. A `#fragment` (how AWS and box.com tell apart several operations
 * on one path: `/?Action=Describe#Version=2016`) is never sent, so it is stripped. A query string inside the
 * template (`/alerts?lat={lat}&lon={lon}`, `/{Bucket}?uploads`) is split off: `key=value` and bare `key` items
 * become fixed query parameters sent on every call, `key={key}` items turn that parameter into a query argument.
 * Anything else in the query part (`key={other}`, `key=a{b}`, a template in a fragment-less key) is refused at
 * compile time with a message about the path.
 * @module
 */

/** A fixed query item of a template: `value` undefined for a bare key (`?uploads`). */
export type FixedQuery = readonly [key: string, value: string | undefined];

/** A split path template. */
export interface SplitTemplate {
  /** The path part sent to the server, `{name}` templates intact. */
  path: string;
  /** Query items sent on every call, in document order. */
  fixedQuery: FixedQuery[];
  /** Parameter names the query part templates as `name={name}` (they become query arguments). */
  queryParams: string[];
}

/** Split `raw` (a key of `paths`) into path, fixed query and templated query parameters, or say why not. */
export function splitPathTemplate(raw: string): SplitTemplate | { error: string } {
  const hash = raw.indexOf("#");
  const noFragment = hash >= 0 ? raw.slice(0, hash) : raw;
  const question = noFragment.indexOf("?");
  const path = question >= 0 ? noFragment.slice(0, question) : noFragment;
  const out: SplitTemplate = { path: path === "" ? "/" : path, fixedQuery: [], queryParams: [] };
  if (question < 0) return out;
  for (const item of noFragment.slice(question + 1).split("&")) {
    if (item === "") continue;
    const eq = item.indexOf("=");
    const key = decode(eq >= 0 ? item.slice(0, eq) : item);
    const value = eq >= 0 ? decode(item.slice(eq + 1)) : undefined;
    if (key === null || value === null) {
      return { error: `the query part of the path template has a malformed item "${item}"` };
    }
    if (key === "" || /[{}]/.test(key)) {
      return { error: `the query part of the path template has an unsupported item "${item}"` };
    }
    if (value !== undefined && /[{}]/.test(value)) {
      if (value !== `{${key}}`) {
        return {
          error: `the query part of the path template has "${item}"; only "name={name}" or fixed "name=value" ` +
            "items are supported",
        };
      }
      if (out.queryParams.includes(key)) return { error: `the query part of the path template repeats "${key}"` };
      out.queryParams.push(key);
      continue;
    }
    out.fixedQuery.push([key, value]);
  }
  return out;
}

/** Serialize fixed query items (keys and values percent-encoded). */
export function fixedQueryString(items: readonly FixedQuery[]): string {
  return items.map(([k, v]) =>
    v === undefined ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`
  ).join("&");
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

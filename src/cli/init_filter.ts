/**
 * `ptc init openapi --include GLOB --exclude GLOB --tag T`: which operations of a large document go into the generated
 * config. A pattern starting with `/` is matched against the operation's path (braces are literal there, as in
 * `/repos/{owner}/*`); any other pattern against its operationId. Globs are picomatch's (`*`, `**`, `?`, `[…]`).
 * @module
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/** The filters as given on the command line (each repeatable). */
export interface OperationFilter {
  include: string[];
  exclude: string[];
  tags: string[];
}

/** What a filter needs of an operation. */
export interface Filterable {
  id: string;
  path: string;
  tags: string[];
}

type Matcher = (op: Filterable) => boolean;

function matcher(pattern: string): Matcher {
  if (pattern.startsWith("/")) {
    const test = picomatch(pattern, { nobrace: true, dot: true });
    return (op) => test(op.path);
  }
  const test = picomatch(pattern, { dot: true });
  return (op) => test(op.id);
}

/** True when the filter selects nothing in particular (every operation stays). */
export function isEmptyFilter(f: OperationFilter): boolean {
  return f.include.length === 0 && f.exclude.length === 0 && f.tags.length === 0;
}

/** The filter as words for the config's comment: `--include "list_*" --tag repos`. */
export function describeFilter(f: OperationFilter): string {
  return [
    ...f.include.map((p) => `--include ${JSON.stringify(p)}`),
    ...f.exclude.map((p) => `--exclude ${JSON.stringify(p)}`),
    ...f.tags.map((t) => `--tag ${JSON.stringify(t)}`),
  ].join(" ");
}

/**
 * The operations the filter keeps, in order: with any `--include` or `--tag`, those matching one of them (either kind);
 * without, all; then minus those matching an `--exclude`. Tags compare case-insensitively.
 */
export function selectOperations<T extends Filterable>(ops: T[], f: OperationFilter): T[] {
  const includes = f.include.map(matcher);
  const excludes = f.exclude.map(matcher);
  const tags = new Set(f.tags.map((t) => t.toLowerCase()));
  const selecting = includes.length > 0 || tags.size > 0;
  return ops.filter((op) => {
    const wanted = !selecting || includes.some((m) => m(op)) || op.tags.some((t) => tags.has(t.toLowerCase()));
    return wanted && !excludes.some((m) => m(op));
  });
}

/**
 * Upstream names a program could not reach: the language's own namespaces. An upstream named `str` would be
 * shadowed by the built-in `str/…` functions in `doc`, `dir` and calls, so config refuses it. (src/upstream cannot
 * import the language; tests/upstream/reserved_names_test.ts keeps this list equal to the language's namespaces.)
 * @module
 */

/** The language's namespace spellings an upstream name could collide with, plus its host prefixes. */
export const RESERVED_UPSTREAM_NAMES: ReadonlySet<string> = new Set([
  // builtin namespaces and their aliases (registry NAMESPACES, the ones an upstream name can spell)
  "Boolean",
  "Double",
  "Duration",
  "Float",
  "Instant",
  "Integer",
  "LocalDate",
  "Long",
  "Math",
  "System",
  "core",
  "json",
  "regex",
  "set",
  "str",
  "string",
  "walk",
  // host prefixes: tool/<name>, data/<key>, budget/remaining
  "tool",
  "data",
  "budget",
]);

/** The config problem for an upstream named like a built-in namespace, or undefined. */
export function reservedNameProblem(name: string): string | undefined {
  if (!RESERVED_UPSTREAM_NAMES.has(name)) return undefined;
  return `"${name}" is a built-in namespace of the language (${name}/…), so its tools would be shadowed; ` +
    `rename the upstream (for example "${name}-api")`;
}

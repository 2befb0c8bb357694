/**
 * The language's screen for the regular expressions a program compiles (`re-pattern`, `re-find` …): the shape of the
 * classic catastrophic backtracking, a group that repeats (unboundedly) something that itself repeats unboundedly,
 * like `(a+)+` or `(x*)*`, is refused with a clear reason instead of running until the deadline kills the sandbox.
 *
 * Patterns written by upstreams (schema `pattern`, `patternProperties`) are not screened: the host matches them with
 * RE2 in linear time (`linear_pattern.ts`, `host_schema.ts`).
 * @module
 */

function unboundedAt(src: string, i: number): boolean {
  const c = src[i];
  if (c === "*" || c === "+") return true;
  if (c === "{") return /^\{\d*,\}/.test(src.slice(i, i + 12));
  return false;
}

/** True when the pattern repeats (unboundedly) a group that itself contains unbounded repetition. */
export function nestedRepetition(src: string): boolean {
  const stack: boolean[] = [false];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      i++;
    } else if (c === "[") {
      i++;
      if (src[i] === "^") i++;
      if (src[i] === "]") i++;
      while (i < src.length && src[i] !== "]") {
        if (src[i] === "\\") i++;
        i++;
      }
    } else if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.length > 1 ? stack.pop()! : false;
      if (inner && unboundedAt(src, i + 1)) return true;
      if (inner) stack[stack.length - 1] = true;
    } else if (unboundedAt(src, i)) stack[stack.length - 1] = true;
  }
  return false;
}

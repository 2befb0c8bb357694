/**
 * Hints under an error, only where they add something the message does not already say (the language suggests
 * close builtin names and arities itself).
 * @module
 */

/**
 * A hint for a failure, or undefined. `tools` are the qualified tool names of the catalog (`server/tool`): an
 * unbound symbol that is a tool's name points at `tool/call`.
 */
export function hintFor(reason: string, message: string, tools: string[] = []): string | undefined {
  switch (reason) {
    case "unbound_var": {
      const asTool = tools.find((q) =>
        new RegExp(`(^|[\\s:,])${escape(q.slice(q.indexOf("/") + 1))}([\\s,(]|$)`).test(message)
      );
      // the language already pointed at tool/call when its host could search the catalog: add only the :doc
      if (asTool && message.includes(`(tool/call '${asTool} `)) return `hint: :doc ${asTool}`;
      if (asTool) {
        return `hint: ${asTool.slice(asTool.indexOf("/") + 1)} is a tool: (tool/call '${asTool} {…}); :doc ${asTool}`;
      }
      return /did you mean/i.test(message)
        ? undefined
        : 'hint: :find TEXT (or (apropos "text")) searches builtins and tools';
    }
    case "timeout":
      return "hint: the evaluation ran out of time; narrow the data first (filter before map) or raise --timeout-ms";
    case "not_callable":
      return "hint: the first element of a list is called; use [ ] for data vectors";
    case "arity_error":
    case "arity_mismatch":
      return /usage:/i.test(message) ? undefined : "hint: :doc NAME shows the accepted argument lists";
    default:
      return undefined;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

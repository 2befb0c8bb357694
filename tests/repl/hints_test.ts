import assert from "node:assert/strict";
import { hintFor } from "../../src/repl/hints.ts";

Deno.test("an unbound name that is a tool points at tool/call; the language's own suggestion is not repeated", () => {
  const tools = ["observatory/list-traces", "observatory/get-trace"];
  assert.equal(
    hintFor("unbound_var", 'Undefined variable: list-traces (did you mean "list"?) (line 1, column 2)', tools),
    "hint: list-traces is a tool: (tool/call 'observatory/list-traces {…}); :doc observatory/list-traces",
  );
  assert.equal(
    hintFor(
      "unbound_var",
      "Undefined variable: list-traces (a tool: call it as (tool/call 'observatory/list-traces {…})) (line 1, column 2)",
      tools,
    ),
    "hint: :doc observatory/list-traces",
  );
  assert.equal(
    hintFor("unbound_var", 'Undefined variable: mapp (did you mean "map", "map?" or "mapv"?)', tools),
    undefined,
  );
  assert.match(hintFor("unbound_var", "Undefined variable: zzz", tools)!, /:find TEXT/);
  assert.match(hintFor("unbound_var", "Undefined variable: get-trace-x", tools)!, /:find TEXT/);
});

Deno.test("arity hints only when the message shows no usage", () => {
  assert.equal(hintFor("arity_error", "map expects 2 to 4 arguments, got 0. Usage: (map f coll)"), undefined);
  assert.match(hintFor("arity_error", "f expects 1 argument, got 2")!, /:doc NAME/);
  assert.equal(hintFor("division_by_zero", "x"), undefined);
});

/** The structural copies in src/upstream/host_types.ts stay assignable to and from src/lisp/api.ts. */
import assert from "node:assert/strict";
import type * as Lisp from "../../src/lisp/api.ts";
import type * as Host from "../../src/upstream/host_types.ts";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Same<Lisp.ToolOutcome, Host.ToolOutcome>,
  Same<Lisp.ToolRequest, Host.ToolRequest>,
  Same<Lisp.DiscoveryOp, Host.DiscoveryOp>,
  Same<Lisp.DiscoveryOutcome, Host.DiscoveryOutcome>,
] = [true, true, true, true];

Deno.test("host types match the language seam", () => {
  assert.deepEqual(checks, [true, true, true, true]);
});

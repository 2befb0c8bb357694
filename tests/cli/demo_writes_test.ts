import assert from "node:assert/strict";
import { parse as parseJsonc } from "jsonc-parser";
import { OPERATIONS } from "../../fixtures/observatory/mod.ts";
import { EXAMPLE_CONFIG } from "../../src/cli/demo_session.ts";
import { withObservatoryWrites, WRITE_OPERATIONS, WRITE_OVERRIDES } from "../../src/cli/demo_writes.ts";

const example = await Deno.readTextFile(EXAMPLE_CONFIG);

type Config = {
  read_only?: boolean;
  upstreams: Record<string, Record<string, unknown>>;
};

Deno.test("demo writes: the write section turns the example's read-only Observatory into a writable one", () => {
  const before = parseJsonc(example) as Config;
  const after = parseJsonc(withObservatoryWrites(example)) as Config;
  assert.equal(before.read_only, true, "the example stays read-only by default");
  assert.equal(before.upstreams.observatory.allow_writes, undefined);
  assert.equal(after.read_only, false);
  const obs = after.upstreams.observatory;
  assert.equal(obs.allow_writes, true);
  const reads = before.upstreams.observatory.include_operations as string[];
  assert.deepEqual(obs.include_operations, [
    ...reads.filter((r) => !WRITE_OPERATIONS.includes(r as never)),
    ...WRITE_OPERATIONS,
  ]);
  const overrides = obs.operation_overrides as Record<string, Record<string, unknown>>;
  for (const [id, o] of Object.entries(WRITE_OVERRIDES)) assert.deepEqual(overrides[id], o);
  // The operator's other overrides are kept; the runbooks upstream is untouched.
  assert.deepEqual(
    overrides.get_trace_steps,
    (before.upstreams.observatory.operation_overrides as never)["get_trace_steps"],
  );
  assert.deepEqual(after.upstreams.runbooks, before.upstreams.runbooks);
  // Applying it twice changes nothing more.
  assert.equal(withObservatoryWrites(withObservatoryWrites(example)), withObservatoryWrites(example));
  assert.throws(() => withObservatoryWrites("{}"), /no 'observatory' upstream/);
});

Deno.test("demo writes: the example's commented write section says what the demo applies", () => {
  for (const id of WRITE_OPERATIONS) assert.match(example, new RegExp(`//\\s+"${id}"`), id);
  for (const [id, o] of Object.entries(WRITE_OVERRIDES)) {
    assert.ok(example.includes(`//     "${id}": { "effect": "${o.effect}" }`), `${id} → ${o.effect}`);
  }
  assert.match(example, /\/\/\s+"allow_writes": true,/);
});

Deno.test("demo writes: the declared effects match the fixture's operations, in the default and the write section", () => {
  for (const text of [example, withObservatoryWrites(example)]) {
    const obs = (parseJsonc(text) as Config).upstreams.observatory;
    const overrides = obs.operation_overrides as Record<string, { effect?: string }>;
    for (const id of obs.include_operations as string[]) {
      const op = OPERATIONS.find((o) => o.operationId === id);
      assert.ok(op, `the fixture serves ${id}`);
      const method = op.method ?? "get";
      const declared = overrides[id]?.effect;
      if (method === "get") assert.equal(declared, undefined, `${id}: a GET needs no declaration`);
      else if (op.write) assert.equal(declared, "write", id);
      else {
        assert.equal(method, "post", `${id}: only a POST may be declared a read`);
        assert.equal(declared, "read", id);
      }
    }
  }
  // The default config reads only: its one POST is the query, declared a read.
  const defaults = (parseJsonc(example) as Config).upstreams.observatory;
  assert.ok((defaults.include_operations as string[]).includes("query-traces"));
  assert.ok(
    !(defaults.include_operations as string[]).some((id) => OPERATIONS.find((o) => o.operationId === id)?.write),
  );
});

// deno-lint-ignore-file no-explicit-any -- tests poke at nested JSON Schema objects
import assert from "node:assert/strict";
import { expandedSize, MAX_EXPANDED_NODES, RefError, RefResolver } from "../../../transports/openapi/refs.ts";
import { exponentialRefsDoc } from "./helpers.ts";
import { openapi30Transform } from "../../../transports/openapi/schema.ts";

const doc = {
  components: {
    schemas: {
      Node: { type: "object", properties: { child: { $ref: "#/components/schemas/Node" }, name: { type: "string" } } },
      A: { $ref: "#/components/schemas/B" },
      B: { type: "string", nullable: true, example: "x" },
      "We/ird~Name": { type: "integer" },
      Loop1: { $ref: "#/components/schemas/Loop2" },
      Loop2: { $ref: "#/components/schemas/Loop1" },
      WithProps: { type: "object", properties: { example: { type: "string" }, "x-custom": { type: "number" } } },
    },
    parameters: { P: { $ref: "#/components/parameters/Q" }, Q: { name: "q", in: "query" } },
  },
};

Deno.test("refs: deref follows chains of component refs", () => {
  const r = new RefResolver(doc);
  assert.deepEqual(r.deref({ $ref: "#/components/parameters/P" }, "here"), { name: "q", in: "query" });
});

Deno.test("refs: external, dangling and circular refs are clear errors", () => {
  const r = new RefResolver(doc);
  assert.throws(() => r.deref({ $ref: "other.yaml#/X" }, "paths./x"), (e: Error) => {
    assert.ok(e instanceof RefError);
    assert.match(e.message, /paths\.\/x: external \$ref "other\.yaml#\/X" is not supported/);
    return true;
  });
  assert.throws(() => r.deref({ $ref: "#/components/schemas/Nope" }, "w"), /points to nothing/);
  assert.throws(() => r.deref({ $ref: "#/components/schemas/Loop1" }, "w"), /circular/);
});

Deno.test("refs: recursive schemas stay finite; escapes decoded; acyclic results memoized", () => {
  const r = new RefResolver(doc);
  const node = r.inlineSchema({ $ref: "#/components/schemas/Node" }, "w") as Record<string, any>;
  assert.equal(node.properties.name.type, "string");
  assert.match(node.properties.child.description, /recursive: Node/);
  assert.equal(JSON.stringify(node).length < 500, true);
  assert.deepEqual(r.inlineSchema({ $ref: "#/components/schemas/We~1ird~0Name" }, "w"), { type: "integer" });
  const a1 = r.inlineSchema({ $ref: "#/components/schemas/B" }, "w");
  const a2 = r.inlineSchema({ $ref: "#/components/schemas/B" }, "w");
  assert.equal(a1, a2);
});

Deno.test("refs: examples and x- keys are dropped from schemas but kept as property names", () => {
  const r = new RefResolver(doc, { transform: openapi30Transform });
  assert.deepEqual(r.inlineSchema({ $ref: "#/components/schemas/A" }, "w"), { type: ["string", "null"] });
  const props = (r.inlineSchema({ $ref: "#/components/schemas/WithProps" }, "w") as any).properties;
  assert.deepEqual(Object.keys(props), ["example", "x-custom"]);
});

Deno.test("refs: 3.1 sibling keywords beside $ref are merged", () => {
  const r = new RefResolver(doc);
  assert.deepEqual(r.inlineSchema({ $ref: "#/components/schemas/We~1ird~0Name", description: "d" }, "w"), {
    type: "integer",
    description: "d",
  });
});

Deno.test("refs: a schema whose shared $refs multiply past the bound is refused as schema_too_complex", () => {
  const doc = exponentialRefsDoc();
  assert.ok(JSON.stringify(doc).length < 8_000, "the document itself is small");
  const r = new RefResolver(doc);
  assert.throws(
    () => r.inlineSchema({ $ref: "#/components/schemas/L0" }, "boom.responses.200"),
    (e: Error) => {
      assert.ok(e instanceof RefError);
      assert.match(e.message, /schema_too_complex/);
      assert.match(e.message, /boom\.responses\.200 \(\$ref "#\/components\/schemas\/L0"\)/);
      return true;
    },
  );
  // the same shape a few levels deep is fine, and its shared subtrees stay shared
  const small = new RefResolver(exponentialRefsDoc(4)).inlineSchema({ $ref: "#/components/schemas/L0" }, "w");
  assert.ok(expandedSize(small, 1e9) < MAX_EXPANDED_NODES);
});

Deno.test("refs: a schema nested thousands of levels deep is refused naming the operation, never a stack overflow", () => {
  // Written inline (no $ref), a 3,000-level schema overflowed the stack of the inliner: a RangeError with a stack
  // trace instead of a problem line naming the operation.
  const nest = (levels: number, leaf: unknown = { type: "string" }) => {
    let s: unknown = leaf;
    for (let i = 0; i < levels; i++) s = { type: "object", properties: { a: s } };
    return s;
  };
  const deep = new RefResolver({});
  assert.throws(
    () => deep.inlineSchema(nest(3_000), "GET /a (a).responses.200"),
    (e: Error) =>
      e instanceof RefError &&
      /^GET \/a \(a\)\.responses\.200: schema_too_complex: the schema nests objects and arrays more than 1000 levels/
        .test(e.message),
  );
  // data keywords copied as they are count too (a `default` nested 3,000 deep)
  assert.throws(() => deep.inlineSchema({ type: "array", default: nest(3_000) }, "w"), RefError);
  // a shared target reused deeper than where it was first inlined: the levels add up through the memo
  const shared = {
    components: { schemas: { Deep: nest(300) } },
  };
  const r = new RefResolver(shared);
  r.inlineSchema({ $ref: "#/components/schemas/Deep" }, "first"); // memoized at the top
  assert.throws(() => r.inlineSchema(nest(250, { $ref: "#/components/schemas/Deep" }), "second"), RefError);
  // real nesting is far from the bound
  assert.equal(typeof new RefResolver({}).inlineSchema(nest(200), "ok"), "object");
});

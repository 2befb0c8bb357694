/** `internalized` (values/types.ts) keeps every string's text, whatever it reads like as a property key. */
import assert from "node:assert/strict";
import { INTERNALIZE_MAX, internalized, kw } from "../../../src/lisp/values/types.ts";
import { fromJson } from "../../../src/lisp/values/json.ts";
import { ev } from "../builtins/helpers.ts";
import { evaluate } from "../../../src/lisp/mod.ts";

const TRICKY = [
  "",
  "status",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "0",
  "42",
  "-1",
  "1e3",
  "4294967295",
  "01",
  " ",
  "é",
  "\ud83d",
  "\ude00\ud83d",
  "😀",
  "a\u0000b",
  "x".repeat(INTERNALIZE_MAX),
  "x".repeat(INTERNALIZE_MAX + 1),
];

Deno.test("internalized returns the same text for keys that read as indices, prototype names or lone surrogates", () => {
  for (const s of TRICKY) {
    const copy = s.split("").join(""); // a separate string object with the same text
    assert.equal(internalized(copy), s, JSON.stringify(s));
    assert.equal(internalized(copy).length, s.length);
  }
});

Deno.test("keywords and converted JSON keep those texts (names, keys and values)", () => {
  for (const s of TRICKY) assert.equal(kw(s.split("").join("")).name, s, JSON.stringify(s));
  const record = Object.fromEntries(TRICKY.map((s, i) => [s, [s, i]]));
  // JSON text, so "__proto__" is an own key as it is in a tool answer.
  const parsed = JSON.parse(JSON.stringify(record));
  const r = evaluate("data", { globals: { data: parsed } });
  assert.ok(r.ok);
  assert.deepEqual(r.json, parsed);
  assert.deepEqual(JSON.parse(JSON.parse(ev("(json/generate-string data)", { globals: { data: parsed } }))), parsed);
  assert.equal(fromJson(parsed) !== null, true);
});

Deno.test("a program's string constants still compare equal to the data's strings, also past the internalized length", () => {
  const long = "y".repeat(INTERNALIZE_MAX + 5);
  const data = [{ status: "error" }, { status: "ok" }, { status: long }, { status: "__proto__" }];
  assert.equal(
    ev(`(mapv #(vector (= (:status %) "error") (= (:status %) "${long}") (= (:status %) "__proto__")) data)`, {
      globals: { data },
    }),
    "[[true false false] [false false false] [false true false] [false false true]]",
  );
});

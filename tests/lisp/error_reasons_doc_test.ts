/** docs/language.md §8 lists exactly the closed set of error reasons (src/lisp/errors.ts `LISP_ERROR_REASONS`). */
import assert from "node:assert/strict";
import { LISP_ERROR_REASONS } from "../../src/lisp/errors.ts";

const DOC = new URL("../../docs/language.md", import.meta.url);

/** The reasons §8 names: the first column of its table and every name in its "Other reasons" paragraph. */
function documentedReasons(text: string): string[] {
  const start = text.indexOf("## 8. Limits and error reasons");
  const end = text.indexOf("\n## 9.", start);
  assert.ok(start >= 0 && end > start, "docs/language.md has a §8 followed by a §9");
  const section = text.slice(start, end);
  const out: string[] = [];
  for (const m of section.matchAll(/^\| `([a-z_]+)`/gm)) out.push(m[1]);
  const at = section.indexOf("\nOther reasons:");
  assert.ok(at >= 0, "§8 has an 'Other reasons:' paragraph");
  const paragraph = section.slice(at, section.indexOf("\n\n", at + 1));
  for (const m of paragraph.matchAll(/`([a-z_]+)`/g)) out.push(m[1]);
  return out;
}

Deno.test("docs/language.md §8 lists every error reason once, and no other", async () => {
  const documented = documentedReasons(await Deno.readTextFile(DOC));
  const dup = documented.filter((r, i) => documented.indexOf(r) !== i);
  assert.deepEqual(dup, [], "reasons listed twice in §8");
  assert.deepEqual([...documented].sort(), [...LISP_ERROR_REASONS].sort());
});

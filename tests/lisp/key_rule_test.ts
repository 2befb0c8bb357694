/**
 * The key rule (docs/language.md §2): a key keeps the form it has in the map. A value decoded from a tool's JSON prints
 * with string keys whichever builtin last touched it, and JSON output has string keys either way.
 */
import assert from "node:assert/strict";
import { evaluate } from "./helpers.ts";
import { FakeTools } from "./fake_tools.ts";

const ROW = '(def row (tool/echo {:app "web" :cost-usd 2.5 :n 1 :meta {:region "eu"}}))';

/** Every way a program commonly reshapes a record, written with keyword keys as an agent writes them. */
const RESHAPES = [
  "row",
  "(select-keys row [:app :cost-usd :n :meta])",
  "(assoc row :n 1)",
  "(update row :n identity)",
  "(update-in row [:meta :region] identity)",
  '(assoc-in row [:meta :region] "eu")',
  '(merge row {:app "web"})',
  "(merge-with (fn [a b] b) row {:n 1})",
  "(dissoc (assoc row :extra 1) :extra)",
  "(into {} row)",
  "(into {} (map (fn [[k v]] [k v]) row))",
  "(reduce-kv assoc {} row)",
  "(zipmap (keys row) (vals row))",
  "(update-vals row identity)",
  "(let [{:keys [app]} row] (assoc row :app app))",
  "(first (filter :app [row]))",
  "(first (sort-by :cost-usd [row]))",
  "(apply hash-map (mapcat identity row))",
];

Deno.test("key rule: a decoded value prints the same keys whichever builtin produced it", () => {
  const printed = new Set<string>();
  for (const expr of RESHAPES) {
    const r = evaluate(`${ROW} ${expr}`, { tools: new FakeTools() });
    assert.ok(r.ok, `${expr}: ${r.ok ? "" : r.message}`);
    printed.add(r.printed);
  }
  assert.deepEqual([...printed], ['{"app" "web" "cost_usd" 2.5 "meta" {"region" "eu"} "n" 1}']);
});

Deno.test("key rule: a map never holds one name twice, so JSON output loses nothing", () => {
  const r = evaluate(`${ROW} (-> row (assoc :app "api") (update :cost-usd * 2) (assoc :new-key true))`, {
    tools: new FakeTools(),
  });
  assert.ok(r.ok, r.ok ? "" : r.message);
  assert.equal(r.printed, '{:new-key true "app" "api" "cost_usd" 5.0 "meta" {"region" "eu"} "n" 1}');
  assert.deepEqual(r.json, { "new-key": true, app: "api", cost_usd: 5, meta: { region: "eu" }, n: 1 });
});

Deno.test("key rule: maps a program writes keep the keys it wrote", () => {
  const r = evaluate('(-> {:a 1} (assoc "a" 2) (select-keys ["a"]) (merge {"a" 3}))');
  assert.ok(r.ok && r.printed === "{:a 3}", r.ok ? r.printed : r.message);
});

/** Builtins: JSON (builtins/json.ts). */
import { check } from "./helpers.ts";

Deno.test("json/parse-string", () => {
  check([
    ['(json/parse-string "{\\"a\\":[1,2]}")', '{"a" [1 2]}'],
    ['(json/parse-string "[1.5, true, null, \\"x\\"]")', '[1.5 true nil "x"]'],
    ['(json/parse-string "null")', "nil"],
    ['(json/parse-string "{bad")', "nil"],
    ["(json/parse-string 5)", "nil"],
    ['(:a (json/parse-string "{\\"a\\": {\\"b_c\\": 3}}"))', '{"b_c" 3}'],
    ['(json/parse-string "12345678901234567890")', "12345678901234567890"],
    ['(parse-string "1")', "ERR unbound_var"],
  ]);
});

Deno.test("json/parse-lines and json/generate-string", () => {
  check([
    ['(json/parse-lines "{\\"a\\":1}\\n\\n[2]")', '[{"a" 1} [2]]'],
    ['(json/parse-lines "1\\nbad")', "nil"],
    ['(json/generate-string {"a" [1 2.5 nil true]})', '"{\\"a\\":[1,2.5,null,true]}"'],
    ["(json/generate-string {:a 1})", "nil"],
    ['(json/generate-string ["a" :b])', "nil"],
    ["(json/generate-string {1 2})", '"{\\"1\\":2}"'],
    ["(json/generate-string ##NaN)", "nil"],
    ["(json/generate-string inc)", "nil"],
    ["(json/generate-string #{1})", '"[1]"'],
    ["(json/generate-string 5.0)", '"5"'],
  ]);
});

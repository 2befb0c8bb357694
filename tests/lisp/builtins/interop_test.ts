/** Builtins: Java-shaped interop (builtins/interop.ts). */
import { check } from "./helpers.ts";

Deno.test("string methods", () => {
  check([
    ['(.indexOf "abcb" "b")', "1"],
    ['(.indexOf "abc" "z")', "-1"],
    ['(.indexOf "abcb" "b" 2)', "3"],
    ['(.lastIndexOf "abcb" "b")', "3"],
    ['(.toLowerCase "AB")', '"ab"'],
    ['(.toUpperCase "ab")', '"AB"'],
    ['[(.startsWith "abc" "a") (.endsWith "abc" "c") (.contains "abc" "b")]', "[true true true]"],
    ['(.length "😀ab")', "3"],
    ['(.substring "hello" 1 3)', '"el"'],
    ['(.substring "hello" 2)', '"llo"'],
    ['(.substring "abc" 2 9)', "ERR type_error"],
    ["(.toLowerCase nil)", "ERR type_error"],
  ]);
});

Deno.test("parsers and constants", () => {
  check([
    ['(Integer/parseInt "42")', "42"],
    ['(Long/parseLong "x")', "ERR type_error"],
    ['(Integer/parseInt "99999999999")', "ERR type_error"],
    ['(Integer/parseInt "+12")', "12"],
    ['(Double/parseDouble " 1.5 ")', "1.5"],
    ['(Double/parseDouble "x")', "ERR type_error"],
    ['(parse-double "0x1.8p1")', "3.0"],
    ['(Double/parseDouble "1.5")', "1.5"],
    ['(Float/parseFloat "2")', "2.0"],
    ['[(Boolean/parseBoolean "TRUE") (Boolean/parseBoolean "no") (Boolean/parseBoolean nil)]', "[true false false]"],
    ["(Boolean/parseBoolean 1)", "ERR type_error"],
    ["[Double/POSITIVE_INFINITY Double/NEGATIVE_INFINITY Double/NaN]", "[##Inf ##-Inf ##NaN]"],
    ["[POSITIVE_INFINITY NEGATIVE_INFINITY NaN]", "[##Inf ##-Inf ##NaN]"],
    ["(pos? (System/currentTimeMillis))", "true"],
  ]);
});

Deno.test("dates and durations", () => {
  check([
    ['(LocalDate/parse "2024-01-02")', '"2024-01-02"'],
    ['(Instant/parse "2024-01-02T03:04:05Z")', '"2024-01-02T03:04:05Z"'],
    ['(java.time.LocalDate/parse "2024-01-02")', '"2024-01-02"'],
    ['(str (parse "2024-01-02T03:04:05"))', '"2024-01-02T03:04:05Z"'],
    ['(.getTime (Instant/parse "1970-01-01T00:00:01Z"))', "1000"],
    ['(.toEpochDay (LocalDate/parse "1970-01-11"))', "10"],
    ['(.plusDays (LocalDate/parse "2024-02-28") 2)', '"2024-03-01"'],
    ['(.minusDays (LocalDate/parse "2024-03-01") 1)', '"2024-02-29"'],
    ['(.isBefore (LocalDate/parse "2024-01-01") (LocalDate/parse "2024-01-02"))', "true"],
    ['(.isAfter (LocalDate/parse "2024-01-01") (LocalDate/parse "2024-01-02"))', "false"],
    ['(.isBefore (LocalDate/parse "2024-01-01") (Instant/parse "2024-01-02T00:00:00Z"))', "ERR type_error"],
    [
      '(Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-01T00:00:01.5Z"))',
      "#duration[1500ms]",
    ],
    [
      '(.toMillis (Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-03T00:00:00Z")))',
      "172800000",
    ],
    ['(.toDays (Duration/between (Instant/parse "2024-01-01T00:00:00Z") (Instant/parse "2024-01-03T12:00:00Z")))', "2"],
    ["(.getTime (java.util.Date. 1))", "1000"],
    ['(str (java.util.Date. "2024-01-02T03:04:05Z"))', '"2024-01-02T03:04:05Z"'],
    ['(LocalDate/parse "nope")', "ERR type_error"],
  ]);
});

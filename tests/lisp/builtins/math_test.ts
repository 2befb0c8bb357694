/** Builtins: arithmetic and math (builtins/math.ts). */
import { check } from "./helpers.ts";

Deno.test("+ - * / with exact integers and float contagion", () => {
  check([
    ["(+ 1 2 3)", "6"],
    ["(+ 1 2.0)", "3.0"],
    ["(+ 0.5 0.5)", "1.0"],
    ["(- 10 1 2)", "7"],
    ["(- 5)", "-5"],
    ["(* 2 3.5)", "7.0"],
    ["(* 99999999999 99999999999)", "9999999999800000000001"],
    ["(+ 9007199254740991 1)", "9007199254740992"],
    ["(- (+ 9007199254740991 10) 10)", "9007199254740991"],
    ["(/ 10 2)", "5.0"],
    ["(/ 1 3)", "0.3333333333"],
    ["(/ 2)", "0.5"],
    ["(/ 100 2 5)", "10.0"],
    ["(/ 1 0)", "ERR arithmetic_error"],
    ["(/ 1 0.0)", "##Inf"],
    ["(/ -1 0.0)", "##-Inf"],
    ["(/ 0.0 0.0)", "##NaN"],
    ['(+ "a" 1)', "ERR type_error"],
    ["(+ ##Inf 1)", "##Inf"],
  ]);
});

Deno.test("quot / rem / mod / inc / dec / abs", () => {
  check([
    ["(quot 7 2)", "3"],
    ["(quot -7 2)", "-3"],
    ["(rem -7 2)", "-1"],
    ["(mod -7 2)", "1"],
    ["(mod 7 -2)", "-1"],
    ["(mod 7.5 2)", "1.5"],
    ["(quot 7.0 2)", "3.0"],
    ["(mod 1 0)", "ERR arithmetic_error"],
    ["(quot ##Inf 2)", "ERR arithmetic_error"],
    ["(quot 2 ##Inf)", "0.0"],
    ["(rem 2 ##Inf)", "##NaN"],
    ["(mod -7.5 2)", "0.5"],
    ["(quot 7.5 -0.0)", "ERR arithmetic_error"],
    ["(inc 1)", "2"],
    ["(inc 1.5)", "2.5"],
    ["(dec 0)", "-1"],
    ["(inc nil)", "ERR type_error"],
    ["(abs -3)", "3"],
    ["(abs -3.5)", "3.5"],
    ["(abs -9223372036854775808)", "9223372036854775808"],
    ["(inc' 1)", "2"],
    ["(+' 1 2)", "3"],
    ["(-' 5 2)", "3"],
    ["(*' 2 3)", "6"],
    ["(dec' 1)", "0"],
  ]);
});

Deno.test("max / min / round / floor / ceil / trunc", () => {
  check([
    ["(max 1 5 3)", "5"],
    ["(min 1 5 3)", "1"],
    ["(max 1 2.5)", "2.5"],
    ["(max 1 ##NaN)", "##NaN"],
    ["(max nil 1)", "ERR type_error"],
    ['(max "a")', '"a"'],
    ["(max 1 1.0)", "1.0"],
    ["(min 1.0 1)", "1"],
    ["(Math/max 1 2 3)", "ERR arity_error"],
    ["(Math/max 1 2)", "2"],
    ["(Math/max 1 2.5)", "ERR type_error"],
    ["(Math/min 1.5 2.5)", "1.5"],
    ["(Math/ceil 1.2)", "2.0"],
    ["(Math/floor -1.5)", "-2.0"],
    ["(round 2.5)", "3"],
    ["(round -2.5)", "-3"],
    ["(round 2.4)", "2"],
    ["(round 7)", "7"],
    ["(round ##Inf)", "##Inf"],
    ["(Math/round -1.5)", "-1"],
    ["(Math/round -2.5)", "-2"],
    ["(Math/round 2.5)", "3"],
    ["(floor 2.7)", "2"],
    ["(floor -2.1)", "-3"],
    ["(ceil 2.1)", "3"],
    ["(trunc -2.7)", "-2"],
    ["(round 1.0e20)", "100000000000000000000"],
  ]);
});

Deno.test("double / float / int / sqrt / pow", () => {
  check([
    ["(double 1)", "1.0"],
    ["(float 3)", "3.0"],
    ["(int 3.9)", "3"],
    ["(int -3.9)", "-3"],
    ["(int ##NaN)", "0"],
    ["(int 3000000000)", "ERR arithmetic_error"],
    ["(int ##Inf)", "ERR arithmetic_error"],
    ["(int \\a)", "ERR type_error"],
    ['(int "5")', "ERR type_error"],
    ['(long "5")', "ERR type_error"],
    ["(sqrt 16)", "4.0"],
    ["(sqrt -1)", "##NaN"],
    ["(pow 2 10)", "1024.0"],
    ["(pow 2 0.5)", "1.4142135624"],
    ["(Math/pow 2 -1)", "0.5"],
    ["(Math/sqrt 9)", "3.0"],
    ["(Math/abs -2)", "2"],
  ]);
});

Deno.test("bit operations", () => {
  check([
    ["(bit-and 12 10)", "8"],
    ["(bit-or 12 10)", "14"],
    ["(bit-xor 12 10)", "6"],
    ["(bit-and-not 12 10)", "4"],
    ["(bit-not 0)", "-1"],
    ["(bit-shift-left 1 70)", "1180591620717411303424"],
    ["(bit-shift-right 1024 3)", "128"],
    ["(bit-set 0 3)", "8"],
    ["(bit-clear 15 0)", "14"],
    ["(bit-flip 5 1)", "7"],
    ["(bit-test 5 2)", "true"],
    ["(bit-and 1.5 1)", "ERR type_error"],
    ["(bit-shift-left 1 -1)", "ERR type_error"],
  ]);
});

Deno.test("long: truncates to a 64-bit integer like Clojure's long", () => {
  check([
    ["(long 2.7)", "2"],
    ["(long -2.7)", "-2"],
    ["(long 1e10)", "10000000000"],
    ["(long 12345678901234567)", "12345678901234567"],
    ["(long 5)", "5"],
    ['(long "a")', "ERR type_error"],
    ["(long ##NaN)", "0"],
    ["(long 1e300)", "ERR arithmetic_error"],
    ["(long 99999999999999999999)", "ERR arithmetic_error"],
    ["(long ##Inf)", "ERR arithmetic_error"],
    ['(long "ab")', "ERR type_error"],
  ]);
});

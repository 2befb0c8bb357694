/**
 * `format` follows java.util.Formatter, which Clojure's `format` calls. The JAVA table's answers were produced by
 * `String.format` on a JVM (OpenJDK 17) with Clojure's argument types (integers as Long, floats as Double), not by
 * PTC; every directive either matches Java or is refused by name.
 */
import assert from "node:assert/strict";
import { check } from "./helpers.ts";
import { evaluate } from "../../../src/lisp/mod.ts";

/** [program, what Java's String.format printed] */
const JAVA: [string, string][] = [
  ['(format "%03d|%5d|%-4s|%,d|%+d" 7 42 "ab" 1234567 5)', "007|   42|ab  |1,234,567|+5"],
  ['(format "%.2f" 1.005)', "1.01"],
  ['(format "%.2f" 0.125)', "0.13"],
  ['(format "%.1f" 0.05)', "0.1"],
  ['(format "%.0f" 0.5)', "1"],
  ['(format "%.0f" 2.5)', "3"],
  ['(format "%.0f" 1.5)', "2"],
  ['(format "%.3f" 3.14159)', "3.142"],
  ['(format "%f" 1.5)', "1.500000"],
  ['(format "%e" 1.5)', "1.500000e+00"],
  ['(format "%.2e" 12345.678)', "1.23e+04"],
  ['(format "%e" 0.0)', "0.000000e+00"],
  ['(format "%E" 0.000123)', "1.230000E-04"],
  ['(format "%g" 1.5)', "1.50000"],
  ['(format "%g" 1.234e-05)', "1.23400e-05"],
  ['(format "%g" 123456789.0)', "1.23457e+08"],
  ['(format "%g" 0.0001)', "0.000100000"],
  ['(format "%.3g" 99.95)', "100"],
  ['(format "%g" 0.0)', "0.00000"],
  ['(format "%x" 255)', "ff"],
  ['(format "%X" 255)', "FF"],
  ['(format "%#x" 255)', "0xff"],
  ['(format "%o" 8)', "10"],
  ['(format "%#o" 8)', "010"],
  ['(format "%x" -1)', "ffffffffffffffff"],
  ['(format "%o" -8)', "1777777777777777777770"],
  ['(format "%08x" 255)', "000000ff"],
  ['(format "%08.2f" -3.14159)', "-0003.14"],
  ['(format "%,.2f" 1234567.891)', "1,234,567.89"],
  ['(format "%(d" -42)', "(42)"],
  ['(format "% d" 42)', " 42"],
  ['(format "%(.2f" -1.5)', "(1.50)"],
  ['(format "%10.3s|" "abcdef")', "       abc|"],
  ['(format "%-10s|" "ab")', "ab        |"],
  ['(format "%b %b %b" nil false 0)', "false false true"],
  ['(format "%B" true)', "TRUE"],
  ['(format "%c" 65)', "ERR"],
  ['(format "%2$s %1$s" "a" "b")', "b a"],
  ['(format "%s %<s" "x")', "x x"],
  ['(format "%%|%n|")', "%|\\n|"],
  ['(format "%5.1f%%" 12.345)', " 12.3%"],
  ['(format "%.1f" -0.04)', "-0.0"],
  ['(format "%,d" -1234567)', "-1,234,567"],
  ['(format "%010d" -42)', "-000000042"],
  ['(format "%S" "abc")', "ABC"],
  ['(format "%.3e" 9.9996)', "1.000e+01"],
  ['(format "%+.1f" 2.25)', "+2.3"],
  ['(format "%.2f" 1e+21)', "1000000000000000000000.00"],
  ['(format "%.10f" 0.1)', "0.1000000000"],
  ['(format "%.15f" 0.1)', "0.100000000000000"],
  ['(format "%.20f" 0.1)', "0.10000000000000000000"],
  ['(format "%.3f" 1e-10)', "0.000"],
  ['(format "%+,010.1f" 1234.56)', "+001,234.6"],
  ['(format "%-8.3e|" 123.0)', "1.230e+02|"],
  ['(format "%d%%" 50)', "50%"],
  ['(format "%s" 1.5)', "1.5"],
  ['(format "%s" 100)', "100"],
  ['(format "%12.4e" -0.000123456)', " -1.2346e-04"],
  ['(format "%.0e" 5.5)', "6e+00"],
  ['(format "%#.0f" 3.0)', "3."],
  ['(format "%.2f" -0.005)', "-0.01"],
  ['(format "%.2f" 2.675)', "2.68"],
  ['(format "%,d" 999)', "999"],
  ['(format "%,d" 1000)', "1,000"],
  ['(format "%+d" 0)', "+0"],
  ['(format "%5%")', "    %"],
  ['(format "%-5%|")', "%    |"],
  ['(format "%.1f" 9.95)', "10.0"],
  ['(format "%.1f" 0.95)', "1.0"],
  ['(format "%g" 100000.0)', "100000"],
  ['(format "%g" 1000000.0)', "1.00000e+06"],
  ['(format "%.2g" 0.000123)', "0.00012"],
  ['(format "%f" 1e-07)', "0.000000"],
  ['(format "%.4f" 123456789.12345679)', "123456789.1235"],
  ['(format "%x" 9007199254740993)', "20000000000001"],
  ['(format "%e" 1e+300)', "1.000000e+300"],
  ['(format "%.3f" -1e-05)', "-0.000"],
  ['(format "%(,.2f" -1234.5)', "(1,234.50)"],
  ['(format "%3c|" 97)', "ERR"],
];

Deno.test("format matches java.util.Formatter on width, flags, precision and rounding", () => {
  const bad: string[] = [];
  for (const [src, want] of JAVA) {
    const r = evaluate(src);
    const got = r.ok ? JSON.parse(r.printed) : `ERR ${r.reason}`;
    if (want === "ERR" ? r.ok : got !== want.replaceAll("\\n", "\n")) bad.push(`${src}: java ${want}, ptc ${got}`);
  }
  assert.deepEqual(bad, []);
});

Deno.test("format refuses what it does not implement, naming the directive; never ignores it", () => {
  const cases: [string, RegExp][] = [
    ['(format "%t" 1)', /%t: date\/time conversions are not supported/],
    ['(format "%a" 1.0)', /%a: the conversion 'a' is not supported/],
    ['(format "%h" 1)', /%h: the conversion 'h' is not supported/],
    ['(format "%#d" 1)', /%#d: the flag '#' does not apply to %d/],
    ['(format "%,x" 1)', /%,x: the flag ',' does not apply to %x/],
    ['(format "%-d" 1)', /%-d: the flag - needs a width/],
    ['(format "%-05d" 1)', /exclude each other/],
    ['(format "%+ d" 1)', /exclude each other/],
    ['(format "%.2d" 1)', /%.2d: %d takes no precision/],
    ['(format "%d" 1.5)', /%d needs an integer, got 1.5/],
    ['(format "%f" "x")', /%f needs a number/],
    ['(format "%c" 65)', /%c needs a one-character string/],
    ['(format "%s")', /not enough arguments for %s/],
    ['(format "%3$s" 1)', /not enough arguments for %3\$s/],
    ['(format "50%")', /incomplete directive \(write %% for a literal %\)/],
    ['(format "%.1000000f" 1.5)', /%.1000000f: width and precision are at most 1000/],
    ['(format "%1000000d" 1)', /width and precision are at most 1000/],
  ];
  for (const [src, re] of cases) {
    const r = evaluate(src);
    assert.ok(!r.ok, `${src} should fail`);
    assert.equal(r.reason, "type_error", `${src}: ${r.message}`);
    assert.match(r.message, /^format: /, src);
    assert.match(r.message, re, src);
  }
});

Deno.test("format: PTC's deliberate leniencies (Clojure raises) and the large-but-bounded fields", () => {
  check([
    ['(format "%s|%s" nil "a")', '"|a"'], // Java prints "null" (a deliberate difference)
    ['(format "%.2f" 2)', '"2.00"'], // Java: IllegalFormatConversionException for a Long
    ['(format "%e" 5)', '"5.000000e+00"'],
    ['(format "%c" "é")', '"é"'],
    ['(format "%s" 1 2)', '"1"'], // extra arguments are ignored, as in Java
  ]);
  const r = evaluate('(count (format "%1000s" "x"))');
  assert.ok(r.ok && r.printed === "1000");
  const small = evaluate('(format "%1000s%1000s%1000s" 1 2 3)', { limits: { maxAllocBytes: 2_000 } });
  assert.ok(!small.ok && small.reason === "memory_limit", "format charges its output before building it");
});

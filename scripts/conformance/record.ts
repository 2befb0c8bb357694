/**
 * Records JVM Clojure's answers for the conformance table (`tests/lisp/conformance/programs/*.clj` →
 * `data/expected.json`) and for the generated corpus (`scripts/conformance/corpus.ts` → `data/corpus.json`), in ONE
 * long-lived JVM (`jvm_recorder.clj`: one program per stdin line, one JSON answer per stdout line).
 *
 * Run: `deno run --allow-read --allow-write --allow-run scripts/conformance/record.ts` (needs Debian's `clojure`
 * package: /usr/share/java/clojure.jar; ~1 minute). The test suite never runs the JVM: it reads the recorded files.
 * @module
 */
import { loadPrograms } from "../../tests/lisp/conformance/programs.ts";
import type { RecordedAnswer } from "../../tests/lisp/conformance/programs.ts";
import { corpusForms } from "./corpus.ts";

const ROOT = new URL("../../", import.meta.url);
const JARS = ["clojure.jar", "spec.alpha.jar", "core.specs.alpha.jar"].map((j) => `/usr/share/java/${j}`);
const RECORDER = new URL("scripts/conformance/jvm_recorder.clj", ROOT).pathname;

type JvmLine = { ok: true; printed: string; prints: string[] } | { ok: false; error: string; prints: string[] };

/** Runs every source (one line each) through one JVM; answers come back in order. */
export async function recordAll(sources: string[]): Promise<JvmLine[]> {
  for (const s of sources) if (s.includes("\n")) throw new Error(`a program must be one line: ${s}`);
  const child = new Deno.Command("java", {
    args: ["-cp", JARS.join(":"), "clojure.main", RECORDER],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const writing = (async () => {
    await writer.write(new TextEncoder().encode(sources.join("\n") + "\n"));
    await writer.close();
  })();
  const out = await child.output();
  await writing;
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.startsWith("{"));
  if (lines.length !== sources.length) throw new Error(`JVM gave ${lines.length} answers for ${sources.length}`);
  return lines.map((l) => JSON.parse(l) as JvmLine);
}

function toAnswer(src: string, a: JvmLine): RecordedAnswer {
  const prints = a.prints.length > 0 ? { prints: a.prints } : {};
  return a.ok ? { src, ok: true, printed: a.printed, ...prints } : { src, ok: false, error: a.error, ...prints };
}

async function main(): Promise<void> {
  const started = performance.now();
  const programs = loadPrograms();
  const forms = corpusForms();
  const answers = await recordAll([...programs.map((p) => p.src), ...forms]);
  const table: Record<string, RecordedAnswer> = {};
  programs.forEach((p, i) => table[p.id] = toAnswer(p.src, answers[i]));
  const corpus = forms.map((src, i) => toAnswer(src, answers[programs.length + i]));
  await Deno.writeTextFile(
    new URL("tests/lisp/conformance/data/expected.json", ROOT),
    JSON.stringify(table, null, 1) + "\n",
  );
  await Deno.writeTextFile(
    new URL("tests/lisp/conformance/data/corpus.json", ROOT),
    "[\n" + corpus.map((a) => JSON.stringify(a)).join(",\n") + "\n]\n",
  );
  console.log(
    `recorded ${programs.length} table programs and ${forms.length} corpus forms in ${
      Math.round(performance.now() - started)
    } ms`,
  );
}

if (import.meta.main) await main();

/**
 * The shell blocks of README.md and docs/*.md, and what the doc-block test does with each. Every block a user would
 * paste carries a marker on the line before its fence:
 *
 * - `<!-- doc-test: run -->`: executed by tests/docs/doc_blocks_test.ts from a temporary folder, with `ptc` the
 *   launcher (bin/ptc, confined) and the Observatory fixture running; `8765` in the block is that fixture's port.
 * - `<!-- doc-test: run own-fixture -->`: executed the same way but the block starts its own fixture (no fixture is
 *   started for it; `8765` is a free port). `run in-checkout`: run in the checkout's root (e.g. a `ln -s "$PWD/bin/ptc"`),
 *   with HOME a temporary folder.
 * - `<!-- doc-test: illustrative — why -->`: shown, not executed (a placeholder path, a remote service, an interactive
 *   or endless command); the reason is required.
 * - `<!-- doc-test: ci — why -->`: run by .ci/run itself (installing, the whole suite).
 *
 * A block whose lines start with `$ ` is a transcript: each command's output (stdout and stderr) must match the lines
 * that follow it, where `…` stands for any text.
 * @module
 */

/** One fenced block that looks like shell. */
export interface ShellBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  marker?: { kind: "run" | "illustrative" | "ci"; ownFixture: boolean; inCheckout: boolean; reason: string };
}

const FENCE = /^(\s*)```(\w*)\s*$/;
const CLOSE = /^\s*```\s*$/;
const SHELL_LANGS = new Set(["sh", "bash", "shell", "console"]);
const SHELLISH_START = /^(\$ |ptc |npx |deno |bin\/ptc|cd |npm |export |mkdir |curl |git |claude |head |mv )/;
const MARKER = /^<!-- doc-test: (run|illustrative|ci)((?: own-fixture| in-checkout)*)(?: — (.+?))? -->$/;

/** Every shell-looking fenced block of a Markdown text, with its marker when it has one. */
export function shellBlocks(file: string, markdown: string): ShellBlock[] {
  const lines = markdown.split("\n");
  const out: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    let j = i + 1;
    while (j < lines.length && !CLOSE.test(lines[j])) j++;
    const body = lines.slice(i + 1, j).map((l) => l.slice(open[1].length));
    const lang = open[2];
    const first = body.map((l) => l.trim()).find((l) => l !== "" && !l.startsWith("#")) ?? "";
    if (SHELL_LANGS.has(lang) || (lang === "" && SHELLISH_START.test(first))) {
      // the marker is the last non-blank line before the fence (deno fmt puts a blank line between them), above any
      // other marker comment a test of its own reads (`<!-- client-config: NAME -->`)
      let k = i - 1;
      while (k >= 0 && (lines[k].trim() === "" || /^<!-- (?!doc-test:).* -->$/.test(lines[k].trim()))) k--;
      const m = MARKER.exec((lines[k] ?? "").trim());
      out.push({
        file,
        line: i + 1,
        lang,
        text: body.join("\n"),
        ...(m
          ? {
            marker: {
              kind: m[1] as "run",
              ownFixture: m[2].includes("own-fixture"),
              inCheckout: m[2].includes("in-checkout"),
              reason: m[3] ?? "",
            },
          }
          : {}),
      });
    }
    i = j;
  }
  return out;
}

/** One command of a transcript block and the output it shows. */
export interface TranscriptStep {
  command: string;
  expected: string;
}

/** True when the block is a transcript (`$ command` lines followed by their output). */
export function isTranscript(block: ShellBlock): boolean {
  return block.text.trimStart().startsWith("$ ");
}

/**
 * The steps of a transcript: a `$ ` line starts a command, indented lines after it continue it (a quoted program over
 * several lines, a `\` continuation), and the lines up to the next `$ ` are its output.
 */
export function transcriptSteps(text: string): TranscriptStep[] {
  const steps: TranscriptStep[] = [];
  let current: { command: string[]; output: string[] } | undefined;
  let inCommand = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("$ ")) {
      if (current) steps.push({ command: current.command.join("\n"), expected: current.output.join("\n").trim() });
      current = { command: [line.slice(2)], output: [] };
      inCommand = true;
    } else if (current && inCommand && /^\s+\S/.test(line)) {
      current.command.push(line);
    } else if (current) {
      inCommand = false;
      current.output.push(line);
    }
  }
  if (current) steps.push({ command: current.command.join("\n"), expected: current.output.join("\n").trim() });
  return steps;
}

/** A regular expression for a transcript's expected output: literal text, `…` matching anything (lines included). */
export function expectedPattern(expected: string): RegExp {
  const parts = expected.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[\\s\\S]*?")}$`);
}

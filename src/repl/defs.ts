/**
 * The REPL's memory of its definitions: every top-level `def`/`defn`/`defn-`/`defonce` that a successful input
 * made, in the order they ran (superseded ones included, since a later definition may have used the earlier value),
 * with the tool answers that input received. A session whose sandbox process had to be replaced gets its namespace back by
 * re-running them in the same order against the recorded answers — no tool call is repeated behind the user's back.
 * @module
 */
import type { RecordedCall } from "../engine/types.ts";
import { splitTopLevel } from "./balance.ts";

/**
 * Recorded tool answers kept in all, in JSON characters. Past it, superseded definitions are forgotten (oldest
 * first); a single input whose answers exceed it is kept without them (its tool calls then fail on replay).
 */
export const MAX_RECORDING_CHARS = 64 * 1024 * 1024;

const DEF_FORM = /^\(\s*(def|defn|defn-|defonce)\s+(?:\^\S+\s+)*([^\s()[\]{}"';]+)/;

/** The name a top-level form defines, or undefined when it is not a plain definition. */
export function definedName(form: string): string | undefined {
  return DEF_FORM.exec(form)?.[2];
}

/** The names an input defines at top level (in order). */
export function definedNames(input: string): string[] {
  return splitTopLevel(input).forms.map((f) => definedName(f.text)).filter((n): n is string => n !== undefined);
}

/** One remembered definition. */
interface Entry {
  name: string;
  source: string;
  /** The tool answers of the input that made it (shared by the definitions of one input). */
  calls: RecordedCall[];
  /** JSON characters of `calls`, counted once per input (0 on the other definitions of the same input). */
  chars: number;
}

/** Outcome of a replay. */
export interface ReplayReport {
  /** Names defined again, in first-definition order. */
  restored: string[];
  /** Names whose latest definition could not be re-created, with the reason. */
  failed: { name: string; reason: string; message: string }[];
}

/** The definitions of a session, in the order they ran. */
export class DefinitionLog {
  #entries: Entry[] = [];
  #chars = 0;

  /** Record the definitions of an input that evaluated successfully, with the tool answers it received. */
  record(input: string, calls: RecordedCall[] = []): void {
    const names = definedNames(input);
    if (names.length === 0) return;
    let chars = calls.length > 0 ? JSON.stringify(calls).length : 0;
    const kept = chars > MAX_RECORDING_CHARS ? [] : calls;
    if (kept.length === 0) chars = 0;
    const forms = splitTopLevel(input).forms.filter((f) => definedName(f.text) !== undefined);
    forms.forEach((f, i) => {
      this.#entries.push({ name: definedName(f.text)!, source: f.text, calls: kept, chars: i === 0 ? chars : 0 });
    });
    this.#chars += chars;
    this.#trim();
  }

  /** Forget superseded definitions, oldest first, while the recordings are over budget. */
  #trim(): void {
    for (let i = 0; this.#chars > MAX_RECORDING_CHARS && i < this.#entries.length;) {
      const e = this.#entries[i];
      const superseded = this.#entries.findLastIndex((x) => x.name === e.name) > i;
      if (superseded && e.chars > 0) {
        this.#entries.splice(i, 1);
        this.#chars -= e.chars;
      } else {
        i++;
      }
    }
  }

  /** Forget everything (`:reset`). */
  clear(): void {
    this.#entries = [];
    this.#chars = 0;
  }

  /** The source of the latest definition of `name`. */
  source(name: string): string | undefined {
    return this.#entries.findLast((e) => e.name === name)?.source;
  }

  /** Defined names, in first-definition order. */
  names(): string[] {
    return [...new Set(this.#entries.map((e) => e.name))];
  }

  /**
   * Re-run every recorded definition through `evaluate`, in the order they first ran, each with its input's recorded
   * tool answers. A name whose latest definition fails is reported and forgotten; the others are restored.
   */
  async replay(
    evaluate: (
      source: string,
      calls: RecordedCall[],
    ) => Promise<{ ok: true } | { ok: false; reason: string; message: string }>,
  ): Promise<ReplayReport> {
    const outcome = new Map<string, { ok: true } | { ok: false; reason: string; message: string }>();
    for (const e of this.#entries) outcome.set(e.name, await evaluate(e.source, e.calls));
    const report: ReplayReport = { restored: [], failed: [] };
    for (const name of this.names()) {
      const r = outcome.get(name)!;
      if (r.ok) report.restored.push(name);
      else report.failed.push({ name, reason: r.reason, message: r.message });
    }
    if (report.failed.length > 0) {
      const gone = new Set(report.failed.map((f) => f.name));
      this.#entries = this.#entries.filter((e) => !gone.has(e.name));
      this.#chars = this.#entries.reduce((n, e) => n + e.chars, 0);
    }
    return report;
  }
}

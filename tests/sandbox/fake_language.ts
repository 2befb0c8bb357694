/**
 * A stand-in language for sandbox tests: one command per program, enough to drive the bridge, the limits and the
 * failure paths a correct interpreter never produces (ignoring the deadline, throwing, breaking its result).
 *
 * Commands: `echo TEXT` · `call NAME JSON` · `batch N` · `size NAME` · `calls N` · `bigargs N` · `print A|B` · `spin` (cooperative loop) ·
 * `hang MS` (blocks, ignoring the deadline) · `throw` · `overflow` · `hugestring` · `corrupt` · `def NAME` · `def-fail NAME` · `data`.
 * @module
 */
import type { JsonValue } from "../../src/core/json.ts";
import type { EvalOptions, EvalResult, LispSession } from "../../src/lisp/api.ts";
import type { LanguageModule } from "../../src/sandbox/child_core.ts";

function ok(json: JsonValue, prints: string[] = []): EvalResult {
  return { ok: true, status: "ok", value: json, printed: JSON.stringify(json), json, prints, steps: 1 };
}

function err(reason: string, message: string, prints: string[] = []): EvalResult {
  return { ok: false, reason, message, prints };
}

function run(source: string, options: EvalOptions, names: Set<string>): EvalResult {
  const [cmd, ...rest] = source.split(" ");
  const arg = rest.join(" ");
  const deadline = options.limits?.deadline ?? Infinity;
  switch (cmd) {
    case "echo":
      return ok(arg);
    case "call": {
      const [name, ...json] = rest;
      return ok(options.tools!.call({ name, args: JSON.parse(json.join(" ") || "{}") }) as unknown as JsonValue);
    }
    case "batch": {
      const reqs = Array.from({ length: Number(arg) }, (_, i) => ({ name: "sleep", args: { i } }));
      return ok(options.tools!.callBatch(reqs) as unknown as JsonValue);
    }
    case "size": {
      const out = options.tools!.call({ name: arg, args: {} });
      return ok(out.kind === "value" ? JSON.stringify(out.value).length : out as unknown as JsonValue);
    }
    case "bigargs": {
      const out = options.tools!.call({ name: "echo", args: { blob: "a".repeat(Number(arg)) } });
      return ok(out.kind === "value" ? (out.value as { blob: string }).blob.length : out as unknown as JsonValue);
    }
    case "calls": {
      for (let i = 0; i < Number(arg); i++) options.tools!.call({ name: "echo", args: { i } });
      return ok(Number(arg));
    }
    case "discover": {
      const out = options.discovery!.exec("apropos", { pattern: arg });
      return ok(out as unknown as JsonValue);
    }
    case "print": {
      const lines = arg.split("|");
      for (const l of lines) options.onPrint?.(l);
      return ok(null, lines);
    }
    case "spin":
      while (Date.now() < deadline) { /* cooperative busy loop */ }
      return err("timeout", "deadline passed (cooperative)");
    case "hang":
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(arg));
      return ok("woke");
    case "throw":
      throw new TypeError("interpreter bug");
    case "overflow": {
      const dive = (n: number): number => dive(n + 1) + 1;
      return ok(dive(0));
    }
    case "hugestring":
      return ok("x".repeat(2 ** 30));
    case "corrupt":
      return Object.defineProperty({}, "ok", {
        get() {
          throw new Error("broken result");
        },
      }) as EvalResult;
    case "def":
      names.add(arg);
      return ok(arg);
    case "def-fail":
      return err("type_error", `failed after defining ${arg}`);
    case "data":
      return ok({ globals: options.globals ?? null, context: options.context ?? null } as JsonValue);
    case "big":
      return ok("x".repeat(Number(arg)));
    default:
      return err("parse_error", `unknown fake command '${cmd}'`);
  }
}

/** Create a fake session; `def` names persist, a failing evaluation defines nothing. */
function createSession(): LispSession {
  const names = new Set<string>();
  return {
    eval: (source, options = {}) => run(source, options, names),
    reset: () => names.clear(),
    definedNames: () => [...names].sort(),
  };
}

/** The fake language. */
export const fakeLanguage: LanguageModule = { createSession };

/**
 * Redaction at the edge: what an evaluation hands to a face — the value (printed and JSON), every print, the error
 * text and the call records — passes through the runtime's redactor once more before any face shows it. Tool
 * results are redacted as they arrive, but a program can reassemble a secret from pieces (an upstream that reflects
 * the token split, reversed or in a field the scrubber saw only in part), so the last look is at the output itself.
 * @module
 */
import type { SecretRedactor } from "../upstream/redact.ts";
import type { EngineEvalResult } from "./types.ts";
import type { JsonValue } from "../core/json.ts";

/** The parts of an evaluation outcome a face prints: the value (printed and JSON), the prints, the error text. */
export type EvalOutput =
  & { prints: string[] }
  & ({ ok: true; printed: string; json: JsonValue } | { ok: false; message: string });

/** `result` with its value, prints and error text redacted (the same object when no secret is registered). */
export function redactOutput<T extends EvalOutput>(result: T, redactor: SecretRedactor | undefined): T {
  if (redactor === undefined || redactor.size === 0) return result;
  const out = { ...result, prints: result.prints.map((p) => redactor.redact(p)) };
  if (out.ok) {
    out.printed = redactor.redact(out.printed);
    out.json = redactor.redactJson(out.json);
  } else out.message = redactor.redact(out.message);
  return out;
}

/** An engine result with every string a face may emit redacted, call records and recordings included. */
export function redactEvalResult(result: EngineEvalResult, redactor: SecretRedactor | undefined): EngineEvalResult {
  if (redactor === undefined || redactor.size === 0) return result;
  const out = redactOutput(result, redactor);
  out.calls = result.calls.map((c) => redactor.redactJson(c));
  if (result.recorded) out.recorded = result.recorded.map((r) => redactor.redactJson(r));
  return out;
}

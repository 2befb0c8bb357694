/**
 * The JSON Schema validator ptc hands the MCP SDK client (`jsonSchemaValidator`): it checks a tool result's
 * `structuredContent` against the tool's `outputSchema`, on ptc's own thread. The SDK's own providers would run the
 * server's `pattern`s on V8's backtracking engine (a hostile `^(a+)+$` froze the host); this one goes through
 * `src/core/host_schema.ts` like every other upstream schema ptc checks, so patterns are matched by RE2 in linear
 * time and one RE2 cannot express is left out (the upstream's listing logs a start warning for it).
 *
 * The dialect is taken from `$schema` as the SDK's providers do (2020-12 by default; 2019-09; draft-07 and -06),
 * and an unknown one is read as 2020-12 rather than making the tool uncallable.
 * @module
 */
import { type SchemaDraft, Validator } from "@cfworker/json-schema";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import { hostSchema, plainValidatorError } from "../../src/upstream/host_schema.ts";

function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === "string" ? schema.$schema.replace(/#$/, "") : "";
  if (/\/draft\/2019-09\/schema$/.test(declared)) return "2019-09";
  if (/\/draft-0[67]\/schema$/.test(declared)) return "7";
  return "2020-12";
}

/** ptc's `jsonSchemaValidator` for the SDK client: upstream patterns matched in linear time. */
export class HostJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const raw = schema as Record<string, unknown>;
    const validator = new Validator(hostSchema(raw).schema as never, draftOf(raw), true);
    return (input: unknown) => {
      const result = validator.validate(input);
      if (result.valid) return { valid: true, data: input as T, errorMessage: undefined };
      const errorMessage = result.errors.map((e) => `${e.instanceLocation}: ${plainValidatorError(e.error)}`)
        .join("; ");
      return { valid: false, data: undefined, errorMessage };
    };
  }
}

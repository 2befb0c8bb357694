/**
 * Argument checks of the MCP tools beyond their JSON Schemas: program size, context shape and size, and the
 * `output_schema` the returned value must satisfy. Failures are `args_error` envelopes naming the argument.
 * @module
 */
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from "../core/json_depth.ts";
import { Validator } from "@cfworker/json-schema";
import type { JsonObject } from "../core/json.ts";
import { utf8Bytes } from "./metrics.ts";
import { schemaProblem } from "./schema_shape.ts";

/** A bad tool argument (reported as `args_error`). */
export class ArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArgsError";
  }
}

/** Limits the checks enforce. */
export interface ArgLimits {
  maxProgramBytes: number;
  maxContextBytes: number;
}

/** Check `program`. */
export function checkProgram(program: unknown, limits: ArgLimits): string {
  if (typeof program !== "string") throw new ArgsError("argument `program` must be a string of PTC-Lisp source");
  if (program.trim() === "") throw new ArgsError("argument `program` is empty");
  const size = utf8Bytes(program);
  if (size > limits.maxProgramBytes) {
    throw new ArgsError(`argument \`program\` exceeds max_program_bytes (${size} > ${limits.maxProgramBytes})`);
  }
  return program;
}

/** Check `context`: an object whose keys become `data/<key>`. */
export function checkContext(context: unknown, limits: ArgLimits): JsonObject | undefined {
  if (context === undefined || context === null) return undefined;
  if (typeof context !== "object" || Array.isArray(context)) {
    throw new ArgsError("argument `context` must be a JSON object (its keys become data/<key>)");
  }
  for (const key of Object.keys(context)) {
    if (key === "" || key.includes("/")) {
      throw new ArgsError(`argument \`context\` key ${JSON.stringify(key)} must be non-empty and contain no '/'`);
    }
  }
  if (nestsDeeperThan(context as JsonObject, MAX_RESPONSE_DEPTH)) {
    throw new ArgsError(
      `argument \`context\` nests arrays and objects deeper than ${MAX_RESPONSE_DEPTH} levels; flatten it`,
    );
  }
  const size = utf8Bytes(JSON.stringify(context));
  if (size > limits.maxContextBytes) {
    throw new ArgsError(`argument \`context\` exceeds max_context_bytes (${size} > ${limits.maxContextBytes})`);
  }
  return context as JsonObject;
}

/**
 * Check `output_schema` (a JSON Schema object) or throw ArgsError; returns it. Only the schema's shape is checked
 * here: the returned value is validated inside the sandbox process, so a catastrophic `pattern` never runs on the
 * host.
 */
export function checkOutputSchema(schema: unknown): JsonObject | undefined {
  if (schema === undefined || schema === null) return undefined;
  if (typeof schema !== "object" || Array.isArray(schema)) {
    throw new ArgsError("argument `output_schema` is invalid: expected a JSON Schema object");
  }
  const problem = schemaProblem(schema);
  if (problem) throw new ArgsError(`argument \`output_schema\` is invalid: ${problem}`);
  try {
    // Compiling (no instance is matched against a pattern: null is not a string) surfaces malformed schemas early.
    new Validator(schema as Record<string, unknown>, "2020-12", false).validate(null);
  } catch (e) {
    throw new ArgsError(`argument \`output_schema\` is invalid: ${(e as Error).message}`);
  }
  return schema as JsonObject;
}

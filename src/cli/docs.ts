/**
 * `ptc docs <topic>`: reference material. `schema-config` prints the JSON Schema of the upstreams config (merged from
 * the top-level schema and every registered transport's schema), usable as `$schema` in editors.
 * @module
 */
import { registerBuiltins } from "../../transports/mod.ts";
import { buildConfigSchema } from "../upstream/config_schema.ts";
import { usageError } from "./usage.ts";

const USAGE = `Usage: ptc docs <topic>

Topics:
  schema-config   the JSON Schema of the upstreams config file (save it and point "$schema" at it)`;

/** Entry point of `ptc docs`. */
export function run(args: string[]): Promise<number> {
  const [topic, ...rest] = args;
  if (topic === "-h" || topic === "--help") {
    console.log(USAGE);
    return Promise.resolve(0);
  }
  if (topic !== "schema-config" || rest.length > 0) {
    const problem = topic === undefined ? "missing topic" : `unknown topic '${[topic, ...rest].join(" ")}'`;
    return Promise.resolve(usageError(problem, USAGE, "docs"));
  }
  const registry = registerBuiltins();
  console.log(JSON.stringify(buildConfigSchema(registry.list()), null, 2));
  return Promise.resolve(0);
}

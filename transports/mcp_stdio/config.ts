/**
 * `mcp_stdio` upstream config: `command`, `args`, `cwd` (relative to the config file), `env` (literals or
 * `{"binding": "<credential>"}`), `inherit_environment`, stderr capture, plus the shared MCP keys.
 * @module
 */
import type { JsonObject } from "../../src/core/json.ts";
import type { ConfigContext, ConfigError, JsonSchema } from "../../src/upstream/types.ts";
import { didYouMean } from "../../src/core/suggest.ts";
import { joinIndex, joinKey } from "../../src/upstream/messages.ts";
import {
  COMMON_KEYS,
  type McpCommonConfig,
  mcpCommonSchemaProperties,
  parseMcpCommon,
  posInt,
} from "../mcp_common/config.ts";
import { optionalBool, unknownKeys } from "../../src/upstream/config_keys.ts";
import { selfReference } from "./command.ts";

/** One child environment value: a literal or a credential reference (resolved at spawn, never logged). */
export type EnvValue = { literal: string } | { binding: string };

/** Parsed `mcp_stdio` config. */
export interface McpStdioConfig extends McpCommonConfig {
  upstreamName: string;
  command: string;
  args: string[];
  /** Absolute working directory. */
  cwd: string;
  env: Record<string, EnvValue>;
  inheritEnvironment: boolean;
  /** Pass the parent's PATH when `env` does not set one (default true). */
  passPath: boolean;
  stderrBytes: number;
}

const KEYS = [
  ...COMMON_KEYS,
  "command",
  "args",
  "cwd",
  "env",
  "inherit_environment",
  "pass_path",
  "stderr_bytes",
];

const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** JSON Schema of an `mcp_stdio` upstream entry. */
export const mcpStdioSchema: JsonSchema = {
  type: "object",
  properties: {
    transport: { const: "mcp_stdio" },
    ...mcpCommonSchemaProperties,
    command: { type: "string", minLength: 1, description: "Executable: absolute path or a name looked up on PATH." },
    args: { type: "array", items: { type: "string" }, description: "Arguments (never put secrets here)." },
    cwd: { type: "string", description: "Working directory, relative to the config file (default: its directory)." },
    env: {
      type: "object",
      additionalProperties: {
        anyOf: [
          { type: ["string", "number", "boolean"] },
          {
            type: "object",
            properties: { binding: { type: "string", minLength: 1 } },
            required: ["binding"],
            additionalProperties: false,
          },
        ],
      },
      description: 'Child environment: literals, or {"binding": "<credential>"} resolved at spawn.',
    },
    inherit_environment: { type: "boolean", description: "Pass ptc's whole environment to the child (default off)." },
    pass_path: { type: "boolean", description: "Pass ptc's PATH when env sets none (default true)." },
    stderr_bytes: { type: "integer", minimum: 1, description: "Tail of stderr kept for diagnostics (8192)." },
  },
  required: ["transport", "command"],
};

function resolveDir(configDir: string, dir: string): string {
  if (dir.startsWith("/")) return dir;
  const base = configDir.endsWith("/") ? configDir : `${configDir}/`;
  return new URL(dir, `file://${base}`).pathname;
}

/** Parse and check an `mcp_stdio` entry; every problem names its key path. */
export function parseStdioConfig(raw: JsonObject, ctx: ConfigContext): McpStdioConfig | ConfigError[] {
  const errors: ConfigError[] = [];
  const path = ctx.path;
  unknownKeys(raw, KEYS, path, errors);
  const common = parseMcpCommon(raw, path, errors);
  const command = raw.command;
  if (typeof command !== "string" || command.trim() === "") {
    errors.push({ path: joinKey(path, "command"), message: "must be a non-empty string (executable name or path)" });
  }
  const args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args)) errors.push({ path: joinKey(path, "args"), message: "must be a list of strings" });
    else {
      raw.args.forEach((a, i) => {
        if (typeof a === "string") args.push(a);
        else errors.push({ path: joinIndex(joinKey(path, "args"), i), message: "must be a string" });
      });
    }
  }
  let cwd = ctx.configDir;
  if (raw.cwd !== undefined && raw.cwd !== null) {
    if (typeof raw.cwd !== "string" || raw.cwd === "") {
      errors.push({ path: joinKey(path, "cwd"), message: "must be a directory path (relative to the config file)" });
    } else cwd = resolveDir(ctx.configDir, raw.cwd);
  }
  const env: Record<string, EnvValue> = {};
  if (raw.env !== undefined && raw.env !== null) {
    if (typeof raw.env !== "object" || Array.isArray(raw.env)) {
      errors.push({ path: joinKey(path, "env"), message: 'must be an object like {"LOG_LEVEL": "info"}' });
    } else {
      for (const [name, value] of Object.entries(raw.env)) {
        const p = joinKey(joinKey(path, "env"), name);
        if (!ENV_NAME_RE.test(name)) {
          errors.push({ path: p, message: "is not a valid environment variable name" });
        } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
          env[name] = { literal: String(value) };
        } else if (value && typeof value === "object" && !Array.isArray(value)) {
          const b = (value as Record<string, unknown>).binding;
          const extra = Object.keys(value).filter((k) => k !== "binding");
          if (typeof b !== "string" || b === "" || extra.length > 0) {
            errors.push({ path: p, message: 'must be a literal or {"binding": "<credential name>"}' });
          } else if (!ctx.credentialNames.has(b)) {
            errors.push({
              path: joinKey(p, "binding"),
              message: `references unknown credential "${b}"${didYouMean(b, ctx.credentialNames)}`,
            });
          } else env[name] = { binding: b };
        } else {
          errors.push({ path: p, message: 'must be a string, number, boolean or {"binding": "<credential>"}' });
        }
      }
    }
  }
  const inheritEnvironment = optionalBool(raw, "inherit_environment", path, false, errors);
  const passPath = optionalBool(raw, "pass_path", path, true, errors);
  const stderrBytes = posInt(raw, "stderr_bytes", path, 8192, errors, 1024 * 1024);
  if (typeof command === "string" && command.trim() !== "") {
    const self = selfReference(command, args, cwd);
    if (self) errors.push({ path: joinKey(path, "command"), message: self });
  }
  if (errors.length > 0) return errors;
  return {
    ...common,
    upstreamName: ctx.upstreamName,
    command: command as string,
    args,
    cwd,
    env,
    inheritEnvironment,
    passPath,
    stderrBytes,
  };
}

/**
 * Running PTC-Lisp programs safely: a pool of permission-less sandbox processes with a capped heap, the pipe
 * protocol and tool bridge, sessions and limits. Faces (`ptc eval`, the REPL, the MCP server) use this module only
 * (through the engine).
 * @module
 */
export {
  type EvaluateOptions,
  type PoolOptions,
  type PoolStats,
  SandboxPool,
  SandboxSession,
  type SessionResult,
} from "./pool.ts";
export type { SandboxHost } from "./bridge.ts";
export type { OutputCheck, SandboxResult } from "./protocol.ts";
export {
  DEFAULT_SANDBOX_LIMITS,
  LIMIT_FLAG_OPTIONS,
  LimitFlagError,
  limitsFromFlags,
  limitsUsage,
  resolveLimits,
  type SandboxLimits,
} from "./limits.ts";
export { DEFAULT_HEAP_MB } from "./spawn.ts";
export { sandboxPermissions, sandboxReadPaths, type SandboxSpawnNeeds } from "./permissions.ts";

/**
 * Running PTC-Lisp programs safely: a pool of permission-less Web Workers, the SharedArrayBuffer tool bridge,
 * sessions and limits. Faces (`ptc eval`, the REPL, the MCP server) use this module only.
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
export type { SandboxResult } from "./protocol.ts";
export {
  DEFAULT_LIMITS,
  LIMIT_FLAG_OPTIONS,
  LimitFlagError,
  limitsFromFlags,
  limitsUsage,
  resolveLimits,
  type SandboxLimits,
} from "./limits.ts";
export { sandboxReadPaths } from "./permissions.ts";

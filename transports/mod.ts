/**
 * The built-in transports (openapi, mcp_stdio, mcp_http), registered into the default transport registry on first
 * use. Tests may register their own transports with `registerTransport` or build a separate `TransportRegistry`.
 * @module
 */
import { defaultRegistry, type TransportRegistry } from "../src/upstream/registry.ts";
import type { Transport } from "../src/upstream/types.ts";
import openapi from "./openapi/mod.ts";
import mcpStdio from "./mcp_stdio/mod.ts";
import mcpHttp from "./mcp_http/mod.ts";

/** The built-in transports, in registration order. */
export const BUILTIN_TRANSPORTS: readonly Transport<unknown>[] = [
  openapi as Transport<unknown>,
  mcpStdio as Transport<unknown>,
  mcpHttp as Transport<unknown>,
];

/** Register a transport in the default registry. */
export function registerTransport<C>(transport: Transport<C>): void {
  defaultRegistry.register(transport);
}

/** Every transport in the default registry (built-ins included), sorted by name. */
export function listTransports(): Transport<unknown>[] {
  registerBuiltins();
  return defaultRegistry.list();
}

/** Register the built-ins into the default registry (idempotent; a transport registered earlier keeps its slot). */
export function registerBuiltins(): TransportRegistry {
  for (const t of BUILTIN_TRANSPORTS) if (!defaultRegistry.get(t.name)) defaultRegistry.register(t);
  return defaultRegistry;
}

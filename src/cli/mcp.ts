/**
 * `ptc mcp` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc mcp`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc mcp: not implemented yet");
  return Promise.resolve(2);
}

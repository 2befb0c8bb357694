/**
 * `ptc docs` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc docs`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc docs: not implemented yet");
  return Promise.resolve(2);
}

/**
 * `ptc demo` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc demo`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc demo: not implemented yet");
  return Promise.resolve(2);
}

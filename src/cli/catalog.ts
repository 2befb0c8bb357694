/**
 * `ptc catalog` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc catalog`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc catalog: not implemented yet");
  return Promise.resolve(2);
}

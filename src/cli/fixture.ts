/**
 * `ptc fixture` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc fixture`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc fixture: not implemented yet");
  return Promise.resolve(2);
}

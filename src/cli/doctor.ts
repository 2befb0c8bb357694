/**
 * `ptc doctor` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc doctor`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc doctor: not implemented yet");
  return Promise.resolve(2);
}

/**
 * `ptc eval` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc eval`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc eval: not implemented yet");
  return Promise.resolve(2);
}

/**
 * `ptc permissions` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc permissions`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc permissions: not implemented yet");
  return Promise.resolve(2);
}

/**
 * `ptc repl` (not implemented yet: the owning issue replaces this module).
 * @module
 */

/** Entry point of `ptc repl`. */
export function run(_args: string[]): Promise<number> {
  console.error("ptc repl: not implemented yet");
  return Promise.resolve(2);
}

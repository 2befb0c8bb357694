/**
 * The transport plug-in registry. `src/upstream` finds transports only through a registry; `transports/mod.ts`
 * registers the built-ins into `defaultRegistry`, and a test can build its own registry or register its own
 * transport.
 * @module
 */
import type { Transport } from "./types.ts";

/** Transports by name. */
export class TransportRegistry {
  #byName = new Map<string, Transport<unknown>>();

  /** Register (or replace) a transport under its `name`. */
  register<C>(transport: Transport<C>): void {
    if (!/^[a-z][a-z0-9_]*$/.test(transport.name)) {
      throw new Error(`transport name "${transport.name}" must be lowercase letters, digits and _`);
    }
    this.#byName.set(transport.name, transport as Transport<unknown>);
  }

  /** Remove a transport (tests). */
  unregister(name: string): void {
    this.#byName.delete(name);
  }

  /** The transport registered under `name`. */
  get(name: string): Transport<unknown> | undefined {
    return this.#byName.get(name);
  }

  /** Every registered transport, sorted by name. */
  list(): Transport<unknown>[] {
    return [...this.#byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Registered names, sorted. */
  names(): string[] {
    return this.list().map((t) => t.name);
  }
}

/** The process-wide registry that `transports/mod.ts` fills with the built-ins. */
export const defaultRegistry: TransportRegistry = new TransportRegistry();

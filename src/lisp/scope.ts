/**
 * Lexical scopes of the analyzer. Every function (and the program itself) owns one frame: an array whose slot 0
 * holds the closure's captured values and whose other slots hold parameters and `let`/`loop` locals. Closures are
 * flat: at creation they copy the values of the outer locals they use, so a local is read as `f[i]` (own slot) or
 * `f[0][j]` (captured) — never looked up by name at run time.
 * @module
 */

/** Where a local lives relative to the current frame. */
export type LocalRef = { kind: "slot"; index: number } | { kind: "cap"; index: number };

/** Analysis-time description of one function (or the top-level program). */
export class FnScope {
  /** Next free slot; slot 0 is the captured-values array. */
  nslots = 1;
  /** Captured names → index in the captured array. */
  readonly captures = new Map<string, number>();
  /** How to load each captured value from the creating frame. */
  readonly captureFrom: LocalRef[] = [];

  constructor(readonly parent: LexScope | null) {}

  /** Allocate a new frame slot. */
  alloc(): number {
    return this.nslots++;
  }
}

/** A block of local names inside one function (a `let`, `loop`, fn parameter list, `for` binding …). */
export class LexScope {
  readonly vars = new Map<string, number>();
  constructor(readonly fn: FnScope, readonly parent: LexScope | null) {}

  /** Bind `name` to a fresh slot in this block; returns the slot. */
  bind(name: string): number {
    const slot = this.fn.alloc();
    this.vars.set(name, slot);
    return slot;
  }

  /** A child block in the same function. */
  child(): LexScope {
    return new LexScope(this.fn, this);
  }

  /** Slot of `name` in this block or its parents within the same function, or -1. */
  lookupOwn(name: string): number {
    const slot = this.vars.get(name);
    if (slot !== undefined) return slot;
    return this.parent === null ? -1 : this.parent.lookupOwn(name);
  }

  /** Resolve a local name, registering captures through enclosing functions; null when not a local. */
  resolve(name: string): LocalRef | null {
    const own = this.lookupOwn(name);
    if (own >= 0) return { kind: "slot", index: own };
    const fn = this.fn;
    const cap = fn.captures.get(name);
    if (cap !== undefined) return { kind: "cap", index: cap };
    if (fn.parent === null) return null;
    const outer = fn.parent.resolve(name);
    if (outer === null) return null;
    const index = fn.captureFrom.length;
    fn.captures.set(name, index);
    fn.captureFrom.push(outer);
    return { kind: "cap", index };
  }

  /** True when `name` is a local here (without registering a capture). */
  has(name: string): boolean {
    if (this.lookupOwn(name) >= 0) return true;
    const fn = this.fn;
    if (fn.captures.has(name)) return true;
    return fn.parent !== null && fn.parent.has(name);
  }

  /** Every local name visible here (for did-you-mean suggestions). */
  names(): string[] {
    const out: string[] = [];
    out.push(...this.vars.keys());
    if (this.parent !== null) out.push(...this.parent.names());
    else if (this.fn.parent !== null) out.push(...this.fn.parent.names());
    return out;
  }
}

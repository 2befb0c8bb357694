/**
 * Hash array mapped trie nodes for `PMap` (32-way bitmap nodes + collision nodes), with transient edits: a node
 * whose `edit` token matches the caller's is mutated in place, any other node is copied (path copying).
 * @module
 */

import type { Value } from "./types.ts";
import { hash, keyEquals } from "./equality.ts";
import { Keyword } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Slot = any;
/** Marks a slot pair whose second element is a sub-node. */
const SUB: Slot = Object.freeze({ sub: true });
/** Owner token of a transient edit (null = persistent). */
export type Edit = object | null;

/** Bitmap-indexed trie node. */
export class BNode {
  bitmap: number;
  arr: Slot[];
  edit: Edit;
  constructor(bitmap: number, arr: Slot[], edit: Edit) {
    this.bitmap = bitmap;
    this.arr = arr;
    this.edit = edit;
  }
}

/** Hash-collision node. */
export class CNode {
  hash: number;
  arr: Slot[];
  edit: Edit;
  constructor(hash: number, arr: Slot[], edit: Edit) {
    this.hash = hash;
    this.arr = arr;
    this.edit = edit;
  }
}

/** A trie node. */
export type HNode = BNode | CNode;

function popcnt(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** True when the key can only equal another key by identity (`===`). */
export function identityKey(k: Value): boolean {
  return typeof k !== "object" || k === null || k instanceof Keyword;
}

/** Look up `key` (with hash `h`) under `node`; `nf` when absent. */
export function nodeGet(node: HNode, h: number, key: Value, nf: Value | undefined): Value | undefined {
  let shift = 0;
  for (;;) {
    if (node instanceof BNode) {
      const bit = 1 << ((h >>> shift) & 31);
      if ((node.bitmap & bit) === 0) return nf;
      const i = 2 * popcnt(node.bitmap & (bit - 1));
      const k = node.arr[i];
      if (k === SUB) {
        node = node.arr[i + 1];
        shift += 5;
        continue;
      }
      return k === key || keyEquals(k, key) ? node.arr[i + 1] : nf;
    }
    if (node.hash !== h) return nf;
    const a = node.arr;
    for (let i = 0; i < a.length; i += 2) if (keyEquals(a[i], key)) return a[i + 1];
    return nf;
  }
}

function editable(node: HNode, edit: Edit): boolean {
  return edit !== null && node.edit === edit;
}

function createNode(edit: Edit, shift: number, k1: Value, v1: Value, h2: number, k2: Value, v2: Value): HNode {
  const h1 = hash(k1);
  if (h1 === h2) return new CNode(h1, [k1, v1, k2, v2], edit);
  const added = { v: false };
  const n = nodeAssoc(new BNode(0, [], edit), edit, shift, h1, k1, v1, added);
  return nodeAssoc(n, edit, shift, h2, k2, v2, added);
}

/** `node` with `key` set to `val` (mutating nodes owned by `edit`); sets `added.v` when the key was new. */
export function nodeAssoc(
  node: HNode,
  edit: Edit,
  shift: number,
  h: number,
  key: Value,
  val: Value,
  added: { v: boolean },
): HNode {
  if (node instanceof BNode) {
    const bit = 1 << ((h >>> shift) & 31);
    const i = 2 * popcnt(node.bitmap & (bit - 1));
    if ((node.bitmap & bit) !== 0) {
      const k = node.arr[i];
      const v = node.arr[i + 1];
      if (k === SUB) {
        const n2 = nodeAssoc(v, edit, shift + 5, h, key, val, added);
        if (n2 === v) return node;
        return setSlot(node, edit, i + 1, n2);
      }
      if (k === key || keyEquals(k, key)) {
        if (v === val) return node;
        return setSlot(node, edit, i + 1, val);
      }
      added.v = true;
      const sub = createNode(edit, shift + 5, k, v, h, key, val);
      if (editable(node, edit)) {
        node.arr[i] = SUB;
        node.arr[i + 1] = sub;
        return node;
      }
      const a = node.arr.slice();
      a[i] = SUB;
      a[i + 1] = sub;
      return new BNode(node.bitmap, a, edit);
    }
    added.v = true;
    if (editable(node, edit)) {
      node.arr.splice(i, 0, key, val);
      node.bitmap |= bit;
      return node;
    }
    const src = node.arr;
    const a = new Array(src.length + 2);
    for (let j = 0; j < i; j++) a[j] = src[j];
    a[i] = key;
    a[i + 1] = val;
    for (let j = i; j < src.length; j++) a[j + 2] = src[j];
    return new BNode(node.bitmap | bit, a, edit);
  }
  if (node.hash === h) {
    const a = node.arr;
    for (let j = 0; j < a.length; j += 2) {
      if (keyEquals(a[j], key)) {
        if (a[j + 1] === val) return node;
        if (editable(node, edit)) {
          a[j + 1] = val;
          return node;
        }
        const c = a.slice();
        c[j + 1] = val;
        return new CNode(h, c, edit);
      }
    }
    added.v = true;
    if (editable(node, edit)) {
      a.push(key, val);
      return node;
    }
    return new CNode(h, [...a, key, val], edit);
  }
  const wrap = new BNode(1 << ((node.hash >>> shift) & 31), [SUB, node], edit);
  return nodeAssoc(wrap, edit, shift, h, key, val, added);
}

function setSlot(node: BNode, edit: Edit, i: number, x: Slot): BNode {
  if (editable(node, edit)) {
    node.arr[i] = x;
    return node;
  }
  const a = node.arr.slice();
  a[i] = x;
  return new BNode(node.bitmap, a, edit);
}

/** `node` without `key` (persistent); null when the node becomes empty. */
export function nodeDissoc(node: HNode, shift: number, h: number, key: Value): HNode | null {
  if (node instanceof BNode) {
    const bit = 1 << ((h >>> shift) & 31);
    if ((node.bitmap & bit) === 0) return node;
    const i = 2 * popcnt(node.bitmap & (bit - 1));
    const k = node.arr[i];
    if (k === SUB) {
      const sub = node.arr[i + 1];
      const n2 = nodeDissoc(sub, shift + 5, h, key);
      if (n2 === sub) return node;
      if (n2 !== null) return setSlot(node, null, i + 1, n2);
    } else if (!keyEquals(k, key)) {
      return node;
    }
    if (node.bitmap === bit) return null;
    const a = node.arr.slice();
    a.splice(i, 2);
    return new BNode(node.bitmap ^ bit, a, null);
  }
  if (node.hash !== h) return node;
  const a = node.arr;
  for (let j = 0; j < a.length; j += 2) {
    if (keyEquals(a[j], key)) {
      if (a.length === 2) return null;
      const c = a.slice();
      c.splice(j, 2);
      return new CNode(h, c, null);
    }
  }
  return node;
}

/** Visit every entry under `node`. */
export function nodeEach(node: HNode, f: (k: Value, v: Value) => void): void {
  const a = node.arr;
  if (node instanceof BNode) {
    for (let i = 0; i < a.length; i += 2) {
      if (a[i] === SUB) nodeEach(a[i + 1], f);
      else f(a[i], a[i + 1]);
    }
  } else {
    for (let i = 0; i < a.length; i += 2) f(a[i], a[i + 1]);
  }
}

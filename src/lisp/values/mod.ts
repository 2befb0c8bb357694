/**
 * The PTC-Lisp value model: re-exports of every values module (see types.ts for the representation table).
 * @module
 */

export * from "./types.ts";
export * from "./vector.ts";
export * from "./hashmap.ts";
export * from "./equality.ts";
export * from "./compare.ts";
export * from "./numbers.ts";
export * from "./strings.ts";
export * from "./kinds.ts";
export * from "./flex.ts";
export * from "./seq.ts";
export * from "./fn.ts";
export * from "./json.ts";

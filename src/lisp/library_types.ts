/**
 * What the language knows of the operator libraries loaded into this process, as the analyzer, the discovery forms
 * and hosts see it (the loader is library.ts; this module only names the shapes, so the evaluation context can hold
 * a reference without importing the loader).
 * @module
 */
import type { Signature } from "./library_sig.ts";

/** One library file as the host hands it in: a display name (the path as the config wrote it) and its text. */
export interface LibrarySource {
  file: string;
  source: string;
}

/** A public function of a library, as discovery and prompts describe it. */
export interface LibraryFunction {
  /** Qualified name, `oncall/failing-traces`. */
  ref: string;
  name: string;
  doc: string;
  /** The declared signature text, if any. */
  signature?: string;
  /** Parameter vectors as written, e.g. `[org since]`. */
  arglists: string[];
  /** Smallest and largest argument count (Infinity with `& rest`). */
  arity: [number, number];
  /** Line of the defn in its file. */
  line: number;
}

/** One loaded namespace. */
export interface LibraryNamespace {
  name: string;
  doc: string;
  /** `prompt`: listed in the agent's tool description; `hidden`: callable and discoverable, not advertised. */
  visibility: "prompt" | "hidden";
  /** Upstream tools (`server/tool`) the library stands in for: the prompt shows the library instead of them. */
  replaces: string[];
  file: string;
  functions: LibraryFunction[];
}

/** A namespace as the analyzer resolves `ns/name`. */
export interface NamespaceRuntime {
  info: LibraryNamespace;
  /** Every definition of the namespace (private ones included): the analyzer's namespace cells. */
  cells: Map<string, { name: string; value: unknown; doc?: string }>;
  publics: Map<string, LibraryFunction>;
  privates: Set<string>;
  signatures: Map<string, Signature>;
}

/** The libraries of one process, by namespace name. */
export interface LibraryIndex {
  namespaces: ReadonlyMap<string, NamespaceRuntime>;
}

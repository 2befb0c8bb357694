/**
 * The text of the `lisp_eval` tool description: a compact language card, the tool-calling and discovery forms, the
 * tagged-result contract, and the catalog rendered per exposure mode. Kept small: it is paid for on every turn.
 * @module
 */
import type { RunLimits } from "../engine/types.ts";

/** The PTC-Lisp card (language essentials an LLM needs to write correct programs). */
export const LANGUAGE_CARD =
  `Run a PTC-Lisp program (a Clojure subset) and get back its value. Filter, join and aggregate data here instead of returning raw payloads.
Data: nil true false 42 1.5 "s" :kw [vec] {:map 1} #{set}. No lists or laziness; map/filter/for return vectors.
Keys: (:k m), (get m :k), (get-in m [:a 0 :b]); keyword access finds string JSON keys and - finds _ (:user-id ↔ "user_id").
Forms: def defn fn #(…%…) let if when cond case and or -> ->> some-> loop/recur for doseq (return v) (fail v) (println …).
Core: map filter remove keep reduce sort-by group-by frequencies distinct take drop first last count sum-by avg-by max-by min-by select-keys update-vals into assoc merge str join split re-find format.
The last form's value is the answer; keep it small (counts, top-N, selected keys).`;

/** The tool-calling card (only when upstream tools are configured). */
export const TOOLS_CARD = `Tools: (tool/call 'server/tool {:arg 1}) or (tool/call {:server "s" :tool "t" :args {…}}).
Every call returns {:ok true :value v :value_kind :json|:text|:none} (:text: v is a string, :none: no body) or {:ok false :reason :not_found :message "…"}; check (:ok r) before using (:value r).
Idiom: (let [r (tool/call 'srv/op {:id 1})] (if (:ok r) (:value r) (fail (:message r)))). Parallel: (pmap #(tool/call 'srv/op {:id %}) ids).
Pages: (tool/pages 'srv/op {:arg 1} {:max-pages 20}) follows a paging tool's cursor (the catalog and doc say which tools page) and returns {:items [...] :complete true|false :stopped nil|:max_pages|… :message "…" :next cursor}; check :complete.
MCP: a multi-block result is a vector of {:type …} maps; (tool/resources 'srv) lists and (tool/read-resource 'srv "uri") reads documents (tagged like tool/call).
Discover: (tool/servers) (dir 'server) (apropos "words"); (doc 'server/tool) returns a string (args, the full Result<…> shape, notes, paging), shown only if printed or returned; (doc 'server) the full description.
A server that is down or restarting answers {:ok false :reason :upstream_unavailable :message "why; when ptc tries again"}; one whose tools are not known yet still takes calls by tool name. Calls beyond a server's concurrency limit wait their turn; a read refused with 429/503 Retry-After is retried once if it fits the call's time.`;

/**
 * The writes card (only when a write tool is installed): what a write's result says and that ptc never repeats one,
 * so the model checks before repeating a write whose outcome is unknown.
 */
export const WRITES_CARD =
  `Writes: a [write] tool changes the service. Its result carries :mutation_state :applied, :not_applied or :indeterminate (it may have happened); writes are never retried, so after :indeterminate read the service before repeating one.`;

/**
 * Added to the writes card under `--approve-writes`: each write waits for a person, and what a refusal looks like, so
 * the model explains its writes and does not retry a declined one.
 */
export const APPROVAL_CARD =
  `Approval: each write waits for a person's approval before it is sent (asked one at a time, never reused). Say why: (tool/call 'srv/op {…} {:reason "…"}). Declined → {:ok false :reason :declined :mutation_state :not_applied}; no one could be asked or no answer in time → :approval_unavailable, :not_applied. Do not retry a declined write.`;

/** What a face shows of an answer before cutting it (the MCP envelope's profile limits). */
export interface OutputCaps {
  /** Bytes of the answer's text. */
  textBytes: number;
  /** Lines and bytes of `println` output. */
  prints: number;
  printBytes: number;
}

/** The budgets one evaluation runs under (as configured). */
export interface LimitsInView {
  programTimeoutMs: number;
  maxToolCalls?: number;
  /** Shown only when a write tool is installed. */
  maxWriteCalls?: number;
  maxCatalogOps?: number;
  callTimeoutMs?: number;
  maxResponseBytes?: number;
}

/**
 * The limits in view for a face: its program timeout plus, with tools, the runtime's per-run budgets (the write budget
 * when `writes`: a write tool is installed).
 */
export function limitsInView(programTimeoutMs: number, run: RunLimits | undefined, writes = false): LimitsInView {
  if (!run) return { programTimeoutMs };
  return {
    programTimeoutMs,
    maxToolCalls: run.maxToolCalls,
    ...(writes ? { maxWriteCalls: run.maxWriteCalls } : {}),
    maxCatalogOps: run.maxCatalogOps,
    callTimeoutMs: run.callTimeoutMs,
    maxResponseBytes: run.maxResponseBytes,
  };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The limits line: what binds one program, from the configured values. */
export function limitsCard(l: LimitsInView): string {
  const parts = [`${seconds(l.programTimeoutMs)} per program`];
  if (l.maxToolCalls !== undefined) parts.push(`${l.maxToolCalls} tool calls (each page of tool/pages is one)`);
  if (l.maxWriteCalls !== undefined) parts.push(`${l.maxWriteCalls} of them writes`);
  if (l.maxCatalogOps !== undefined) parts.push(`${l.maxCatalogOps} discovery operations`);
  if (l.callTimeoutMs !== undefined) parts.push(`${seconds(l.callTimeoutMs)} per call`);
  if (l.maxResponseBytes !== undefined) parts.push(`${bytes(l.maxResponseBytes)} per response`);
  const tools = l.maxToolCalls !== undefined
    ? " A call over budget returns {:ok false :reason :cap_exhausted} and the answer is flagged as partial. " +
      `(budget/remaining) is what is LEFT, not used: :tool_calls${
        l.maxWriteCalls !== undefined ? " :write_calls" : ""
      } :discovery_ops, :time_ms to the deadline; :call_timeout_ms :max_response_bytes are fixed per call.`
    : "";
  return `Limits per run: ${parts.join(", ")}.${tools}`;
}

/** The output line: how much of an answer and of its printed output the client gets, and how a cut is marked. */
export function outputCard(c: OutputCaps): string {
  return `Output: an answer past ${bytes(c.textBytes)} and println past ${c.prints} lines or ${bytes(c.printBytes)} ` +
    `are cut, marked "[truncated: …]".`;
}

/** Sentence appended for the slim profile (the default). */
export const SLIM_NOTE =
  "Success returns plain text (prints first, then the value); failures are errors `reason: message`.";

/** Assemble the description from the cards, the limits, the operator libraries and the rendered catalog. */
export function lispEvalDescription(
  options: {
    hasTools: boolean;
    catalogText: string;
    slim: boolean;
    limits?: LimitsInView;
    librariesText?: string;
    /** A write tool is installed: the writes card is added. */
    writes?: boolean;
    /** Writes wait for approval (`--approve-writes`): the approval card follows the writes card. */
    approval?: boolean;
    /** The face's output caps (stated with the limits). */
    output?: OutputCaps;
  },
): string {
  const parts = [LANGUAGE_CARD];
  if (options.hasTools) parts.push(TOOLS_CARD);
  if (options.hasTools && options.writes) {
    parts.push(options.approval ? `${WRITES_CARD}\n${APPROVAL_CARD}` : WRITES_CARD);
  }
  const limits = [
    ...(options.limits ? [limitsCard(options.limits)] : []),
    ...(options.output ? [outputCard(options.output)] : []),
  ];
  if (limits.length) parts.push(limits.join("\n"));
  if (options.librariesText?.trim()) parts.push(options.librariesText.trim());
  if (options.catalogText.trim()) parts.push(options.catalogText.trim());
  if (options.slim) parts.push(SLIM_NOTE);
  return parts.join("\n\n");
}

/** What the libraries card needs of a namespace (the engine's `libraries()` entries). */
export interface PromptNamespace {
  name: string;
  doc: string;
  visibility: "prompt" | "hidden";
  functions: { ref: string; doc: string; signature?: string; arglists: string[] }[];
}

const LIBRARY_DOC_CHARS = 140;

function firstSentence(s: string): string {
  const line = s.replace(/\s+/g, " ").trim();
  if (line.length <= LIBRARY_DOC_CHARS) return line;
  return `${line.slice(0, LIBRARY_DOC_CHARS).replace(/\s+\S*$/, "").replace(/[\s,;:(-]+$/, "")}…`;
}

/**
 * The operator libraries an agent should call: each prompt-visible namespace with its public functions, their
 * signatures (or parameter vectors) and docstrings. Hidden namespaces stay out (they are still discoverable).
 */
export function librariesCard(namespaces: PromptNamespace[]): string {
  const shown = namespaces.filter((n) => n.visibility === "prompt");
  if (shown.length === 0) return "";
  const lines = ["Libraries: call these functions directly, e.g. (ns/fn arg); (doc 'ns/fn) for details."];
  for (const ns of shown) {
    lines.push(`${ns.name} - ${firstSentence(ns.doc)}`);
    for (const f of ns.functions) {
      lines.push(`  ${f.ref} ${f.signature ?? f.arglists.join(" ")} - ${firstSentence(f.doc)}`);
    }
  }
  return lines.join("\n");
}

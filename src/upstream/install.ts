/**
 * Which tools of an upstream are installed — listed in the catalog and callable by programs. This is the one place
 * where the operator's policy meets what a transport reports about each tool: transports list every tool they serve,
 * with its annotations and the operator's declared effect, and never filter by policy; the runtime installs them
 * through `installTools` and refuses a call to a withheld tool with the reason `installable` gave.
 *
 * The policy is the write gate. A tool's effect is the operator's declaration (`ToolEntry.effect`) when there is one,
 * otherwise its annotations: `readOnlyHint: true` → read, anything else → write. A write tool is installed only when
 * read-only mode is off, the config allows writes (`allow_writes`, per upstream or global) and the process was
 * started with `--allow-writes`. A refused tool is withheld, never a start failure.
 * @module
 */
import { inferPagination } from "./pagination.ts";
import type { ToolEffect, ToolEntry, Upstream } from "./types.ts";
import type { PtcConfig, UpstreamSpec } from "./config.ts";

/**
 * The config half of the write gate for one upstream: its own `allow_writes` when set (an explicit `false` closes it
 * whatever the top level says), else the top-level `allow_writes`.
 */
export function configAllowsWrites(config: Pick<PtcConfig, "allowWrites">, spec: UpstreamSpec): boolean {
  return spec.allowWrites ?? config.allowWrites === true;
}

/** The operator's switches that decide what is installed for one upstream. */
export interface InstallPolicy {
  /** `read_only` / `--read-only`: every write tool is withheld. */
  readOnly: boolean;
  /** The config half of the gate: the upstream's `allow_writes` when set, else the top level's. */
  configAllowsWrites?: boolean;
  /** The upstream sets `allow_writes: false` itself (so the top level cannot open it). */
  upstreamRefusesWrites?: boolean;
  /** The process was started with `--allow-writes` (or `PTC_ALLOW_WRITES`). */
  processAllowsWrites?: boolean;
  /** The upstream's name in the config, so a refusal names the key to set (`upstreams.<name>.allow_writes`). */
  upstream?: string;
}

/** The verdict on one tool. `why` completes the sentence "tool 'server/name' …". */
export type InstallVerdict = { install: true } | { install: false; why: string };

/** What a tool does: the operator's declared effect, else its annotations (only `readOnlyHint: true` reads). */
export function effectOf(entry: ToolEntry): ToolEffect {
  return entry.effect ?? (entry.annotations?.readOnlyHint === true ? "read" : "write");
}

/** The policy applied to one tool, as the transport reports it. */
export function installable(entry: ToolEntry, policy: InstallPolicy): InstallVerdict {
  if (effectOf(entry) === "read") return { install: true };
  const declared = entry.effect === "write" ? "is a write tool" : "is a write tool (it is not annotated read-only)";
  if (policy.readOnly) {
    return { install: false, why: `${declared} and ptc runs in read-only mode (--read-only or read_only: true)` };
  }
  const key = policy.upstream === undefined ? "allow_writes" : `upstreams.${policy.upstream}.allow_writes`;
  const closed = policy.upstreamRefusesWrites
    ? `the config does not allow writes (${key} is false)`
    : `the config does not allow writes (set ${key}: true, or allow_writes: true at the top level)`;
  const missing = [
    ...(policy.configAllowsWrites ? [] : [closed]),
    ...(policy.processAllowsWrites ? [] : ["ptc was started without --allow-writes (or PTC_ALLOW_WRITES=1)"]),
  ];
  if (missing.length > 0) return { install: false, why: `${declared} and ${missing.join(" and ")}` };
  return { install: true };
}

/** One upstream's tools split by the policy. */
export interface Installation {
  installed: ToolEntry[];
  /** Exposed name → why it is not installed (completes "tool 'server/name' …"). */
  withheld: Map<string, string>;
}

/**
 * Apply the policy to every tool an upstream lists (in the upstream's order). A refused tool is withheld. An installed
 * entry carries its effect, and — when nobody declared how it pages (`pagination` absent; `false` is a declaration) —
 * the cursor paging its schemas show, if unambiguous (`inferPagination`).
 */
export function installTools(entries: readonly ToolEntry[], policy: InstallPolicy): Installation {
  const installed: ToolEntry[] = [];
  const withheld = new Map<string, string>();
  for (const entry of entries) {
    const verdict = installable(entry, policy);
    if (!verdict.install) {
      withheld.set(entry.name, verdict.why);
      continue;
    }
    const tool: ToolEntry = { ...entry, effect: effectOf(entry) };
    if (tool.pagination === undefined) {
      const inferred = inferPagination(tool);
      if (inferred) tool.pagination = inferred;
    }
    installed.push(tool);
  }
  return { installed, withheld };
}

/**
 * A tool that is listed but not installed, as `ptc catalog --format json` and `ptc doctor --connect --format json`
 * list it. `effect` is known for a tool the write gate refused (always a write); it is absent for a tool the config's
 * `tools` mapping leaves out (it was never compiled).
 */
export interface WithheldTool {
  name: string;
  effect?: ToolEffect;
  /** Completes the sentence "tool 'server/name' …". */
  reason: string;
}

/** The write gate's refusals as {@link WithheldTool}s (only writes are ever refused), in the upstream's order. */
export function withheldTools(withheld: ReadonlyMap<string, string>): WithheldTool[] {
  return [...withheld].map(([name, reason]) => ({ name, effect: "write" as const, reason }));
}

/** Install a started upstream's tools (`installTools` over its list). */
export function installUpstream(upstream: Upstream, policy: InstallPolicy): Installation {
  return installTools(upstream.listTools(), policy);
}

/**
 * Tools whose operator-declared effect contradicts what the server's annotations claim (`readOnlyHint: true` claims
 * read; `readOnlyHint: false` or `destructiveHint: true` claims write), one line each for `ptc doctor`. The
 * operator's declaration is the one in force; a tool without hints claims nothing.
 */
export function effectDisagreements(entries: readonly ToolEntry[]): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    if (entry.effect === undefined) continue;
    const a = entry.annotations ?? {};
    const claims: ToolEffect | undefined = a.readOnlyHint === true
      ? "read"
      : a.readOnlyHint === false || a.destructiveHint === true
      ? "write"
      : undefined;
    if (claims === undefined || claims === entry.effect) continue;
    const spelled = entry._ptc?.upstreamName ?? entry.name;
    lines.push(
      `tool '${entry.name}' (${spelled}): the config declares effect "${entry.effect}" but the server's annotations ` +
        `claim "${claims}" (${claims === "read" ? "readOnlyHint: true" : "readOnlyHint: false / destructiveHint"}); ` +
        `the config's "${entry.effect}" is in force`,
    );
  }
  return lines;
}

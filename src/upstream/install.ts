/**
 * Which tools of an upstream are installed — listed in the catalog and callable by programs. This is the one place
 * where the operator's policy meets what a transport reports about each tool: transports list every tool they serve,
 * with its annotations, and never filter by policy; the runtime installs them through `installTools` and refuses a
 * call to a withheld tool with the reason `installable` gave.
 *
 * Today the policy is read-only mode. Declared effects and a write gate extend `InstallPolicy` and `installable`.
 * @module
 */
import { type ToolChooser, type ToolEntry, type Upstream, UpstreamStartError } from "./types.ts";

/** The operator's switches that decide what is installed. */
export interface InstallPolicy {
  /** `read_only` / `--read-only`: only tools annotated read-only are installed. */
  readOnly: boolean;
}

/** The verdict on one tool. `why` completes the sentence "tool 'server/name' …". */
export type InstallVerdict = { install: true } | { install: false; why: string };

/** The policy applied to one tool, as the transport reports it. */
export function installable(entry: ToolEntry, policy: InstallPolicy): InstallVerdict {
  if (policy.readOnly && entry.annotations?.readOnlyHint !== true) {
    return { install: false, why: "is not annotated read-only and ptc runs in read-only mode" };
  }
  return { install: true };
}

/** One upstream's tools split by the policy. */
export interface Installation {
  installed: ToolEntry[];
  /** Exposed name → why it is not installed (completes "tool 'server/name' …"). */
  withheld: Map<string, string>;
  /**
   * One line per tool the operator chose but the policy refuses (only when the operator chose the tools): the
   * upstream must not start.
   */
  conflicts: string[];
}

/**
 * Apply the policy to every tool an upstream lists (in the upstream's order). A refused tool is withheld; when the
 * operator chose the tools (`chooser` `"operator"`) it is also a conflict, and the upstream must not start.
 */
export function installTools(
  entries: readonly ToolEntry[],
  policy: InstallPolicy,
  chooser: ToolChooser = "server",
): Installation {
  const installed: ToolEntry[] = [];
  const withheld = new Map<string, string>();
  const conflicts: string[] = [];
  for (const entry of entries) {
    const verdict = installable(entry, policy);
    if (verdict.install) {
      installed.push(entry);
      continue;
    }
    withheld.set(entry.name, verdict.why);
    if (chooser === "operator") {
      const spelled = entry._ptc?.upstreamName;
      const native = spelled && spelled !== entry.name ? ` (${spelled})` : "";
      conflicts.push(`tool '${entry.name}'${native} ${verdict.why}`);
    }
  }
  return { installed, withheld, conflicts };
}

/**
 * Install a started upstream's tools (`installTools` over its list, with its `toolsChosenBy`). Throws
 * UpstreamStartError `tool_not_installable`, one line per tool, when the operator chose a tool the policy refuses;
 * the caller stops the upstream.
 */
export function installUpstream(name: string, upstream: Upstream, policy: InstallPolicy): Installation {
  const installation = installTools(upstream.listTools(), policy, upstream.toolsChosenBy);
  if (installation.conflicts.length > 0) {
    throw new UpstreamStartError(
      "tool_not_installable",
      installation.conflicts.map((c) => `upstream ${name}: ${c}`).join("\n"),
      "the config lists it: remove it there, or drop the switch that refuses it",
    );
  }
  return installation;
}

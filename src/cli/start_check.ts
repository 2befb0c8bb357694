/**
 * The start-up permission check every face passes before it runs: compute what this invocation needs
 * (`faceNeeds`), ask Deno what is granted (never prompting) and, when something is missing, name it in one line with
 * the flags to add instead of failing later with an uncaught `NotCapable`.
 * @module
 */
import { CONFINED_COMMANDS, faceNeeds } from "./face_needs.ts";
import { faceFlags, type FaceNeeds, missingNeeds, recordingEnv } from "./needs.ts";

/**
 * The one-line message for `ptc COMMAND ARGS…` when this process lacks a permission it needs, else undefined.
 * `ptc doctor` is checked only for the reads and environment it needs to run; the rest of what the config needs is
 * what its report is about.
 */
export async function missingAtStart(command: string, args: string[]): Promise<string | undefined> {
  if (!(CONFINED_COMMANDS as readonly string[]).includes(command)) return undefined;
  const asked = new Set<string>();
  const denied = new Set<string>();
  const { needs } = await faceNeeds(command, args, { env: recordingEnv(asked, denied) });
  const required: FaceNeeds = command === "doctor" ? { ...needs, net: [], run: [], write: [] } : needs;
  const missing = missingNeeds(required);
  for (const name of denied) if (!missing.env.includes(name) && !missing.anyEnv) missing.env.push(name);
  missing.env.sort();
  const flags = faceFlags(missing);
  if (flags.length === 0) return undefined;
  return `missing Deno permissions: ${flags.join(" ")} (\`ptc permissions ${command} …\` with the same arguments ` +
    `prints every flag this command needs; bin/ptc runs ptc with them)`;
}

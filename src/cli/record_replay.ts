/**
 * `--record DIR` / `--replay DIR` of `ptc eval` and `ptc mcp` (docs/record-replay.md): the two flags exclude each
 * other; opening the directory (before the engine starts) turns it into the engine's journal, and
 * `recordReplayNeeds` says what the face then needs from Deno.
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import type { RunJournal } from "../engine/journal.ts";
import { type FaceNeeds, mergeNeeds } from "./needs.ts";
import { VERSION } from "../version.ts";

export { RecordingError } from "../engine/recording_error.ts";

/** What the flags asked for. */
export type RecordReplay = { record: string } | { replay: string } | Record<never, never>;

/** Usage lines of the two flags. */
export const RECORD_REPLAY_USAGE = [
  "  --record DIR              write every evaluation's upstream calls (redacted) to DIR, new or empty",
  "  --replay DIR              answer upstream calls from the recording in DIR; no upstream is started",
];

/** The record/replay choice of a command line; a message (usage error) when both or an empty value are given. */
export function recordReplayChoice(record: unknown, replay: unknown): RecordReplay | string {
  if (record !== undefined && replay !== undefined) {
    return "--record and --replay exclude each other (a replay never records)";
  }
  for (const [flag, value] of [["record", record], ["replay", replay]] as const) {
    if (value !== undefined && (typeof value !== "string" || value.trim() === "")) return `--${flag} needs a DIR`;
  }
  if (typeof record === "string") return { record };
  if (typeof replay === "string") return { replay };
  return {};
}

/** True when the choice is a replay (the config's upstreams are not started). */
export function isReplay(choice: RecordReplay): choice is { replay: string } {
  return "replay" in choice;
}

/**
 * Open the recording or the replay the flags named (undefined for neither). Throws RecordingError naming the
 * directory or file; `onNote` hears a recording's write failures and a replay's notes; `face` (`eval`, `mcp`) is
 * written into each recorded evaluation.
 */
export async function openJournal(
  choice: RecordReplay,
  onNote: (message: string) => void,
  face?: string,
): Promise<RunJournal | undefined> {
  if ("record" in choice) {
    // The recorder and replayer (schema checks, hashing) load only for a run that records or replays.
    const { Recorder } = await import("../engine/recorder.ts");
    const recorder = await Recorder.open(choice.record, onNote, VERSION);
    recorder.face = face;
    return recorder;
  }
  if ("replay" in choice) return await (await import("../engine/replayer.ts")).Replayer.load(choice.replay, onNote);
  return undefined;
}

const abs = (p: string) => (isAbsolute(p) ? p : resolve(p));

/** Recording: read and write DIR; replay: read DIR. */
export function recordReplayNeeds(choice: RecordReplay): FaceNeeds {
  if ("record" in choice) return mergeNeeds({ read: [abs(choice.record)], write: [abs(choice.record)] });
  if ("replay" in choice) return mergeNeeds({ read: [abs(choice.replay)] });
  return mergeNeeds();
}

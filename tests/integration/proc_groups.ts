/**
 * Reading processes from /proc for the lifecycle tests: a process's group and parent, the live members of a group,
 * the processes whose command line carries a marker, and a bounded wait.
 * @module
 */
import { pidAlive } from "../transports/mcp_common/helpers.ts";

function statFields(pid: number): string[] {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The process group of a live process. */
export function processGroup(pid: number): number {
  return Number(statFields(pid)[2]);
}

/** The parent of a live process. */
export function parentOf(pid: number): number {
  return Number(statFields(pid)[1]);
}

function livePids(): number[] {
  return [...Deno.readDirSync("/proc")].filter((e) => /^\d+$/.test(e.name)).map((e) => Number(e.name));
}

/** Live (non-zombie) processes in group `pgid`. */
export function groupMembers(pgid: number): number[] {
  return livePids().filter((pid) => {
    try {
      return pidAlive(pid) && processGroup(pid) === pgid;
    } catch {
      return false; // exited meanwhile
    }
  });
}

/** Live processes one of whose arguments contains `marker`. */
export function pidsWithArg(marker: string): number[] {
  return livePids().filter((pid) => {
    try {
      return pidAlive(pid) && Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").some((a) => a.includes(marker));
    } catch {
      return false;
    }
  });
}

/** Poll until `cond` holds (bounded); returns whether it did. */
export async function waitUntil(cond: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

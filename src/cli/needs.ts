/**
 * The Deno permissions of one ptc process as data: what a face needs (`FaceNeeds`), merging, the flags that grant it
 * and the part of it this process lacks. Queries use `Deno.permissions.querySync`, which never prompts.
 * @module
 */
import type { PermissionNeeds } from "../upstream/types.ts";
import { missingPermissions, permissionFlags } from "../upstream/permissions.ts";

/** A face's needs: the config's `PermissionNeeds` plus the files it writes. */
export interface FaceNeeds extends PermissionNeeds {
  /** Absolute paths (files or directories) the face writes. */
  write: string[];
  anyEnv: boolean;
  /** Unrestricted `--allow-read` (only `ptc permissions` itself, which reads whatever config it is given). */
  anyRead?: boolean;
}

/** Nothing at all. */
export function noNeeds(): FaceNeeds {
  return { net: [], read: [], write: [], env: [], run: [], anyEnv: false };
}

const sortUnique = (xs: Iterable<string>) => [...new Set(xs)].sort();

/** The union of `parts`, each list sorted and without repeats. */
export function mergeNeeds(...parts: Partial<FaceNeeds>[]): FaceNeeds {
  const out = noNeeds();
  for (const p of parts) {
    out.net.push(...p.net ?? []);
    out.read.push(...p.read ?? []);
    out.write.push(...p.write ?? []);
    out.env.push(...p.env ?? []);
    out.run.push(...p.run ?? []);
    out.anyEnv ||= p.anyEnv === true;
    out.anyRead ||= p.anyRead === true;
  }
  return {
    net: sortUnique(out.net),
    read: sortUnique(out.read),
    write: sortUnique(out.write),
    env: sortUnique(out.env),
    run: sortUnique(out.run),
    anyEnv: out.anyEnv,
    ...(out.anyRead ? { anyRead: true } : {}),
  };
}

/** The `deno run` / `deno compile` flags that grant exactly `needs` (net, read, write, env, run). */
export function faceFlags(needs: FaceNeeds): string[] {
  const flags = permissionFlags(needs.anyRead ? { ...needs, read: [] } : needs);
  if (needs.anyRead) flags.splice(needs.net.length ? 1 : 0, 0, "--allow-read");
  if (needs.write.length === 0) return flags;
  const at = flags.findIndex((f) => f.startsWith("--allow-env") || f.startsWith("--allow-run"));
  const write = `--allow-write=${needs.write.join(",")}`;
  return at === -1 ? [...flags, write] : [...flags.slice(0, at), write, ...flags.slice(at)];
}

function writeGranted(path: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "write", path }).state === "granted";
  } catch {
    return false;
  }
}

/** The part of `needs` this process is not granted (all lists empty when everything is). */
export function missingNeeds(needs: FaceNeeds): FaceNeeds {
  const missing = missingPermissions(needs);
  const anyRead = needs.anyRead === true && !readGranted(undefined);
  return {
    ...missing,
    ...(anyRead ? { anyRead } : {}),
    anyEnv: missing.anyEnv === true,
    write: needs.write.filter((path) => !writeGranted(path)),
  };
}

/** True when `needs` asks for nothing. */
export function isEmpty(needs: FaceNeeds): boolean {
  return faceFlags(needs).length === 0;
}

/** Whether this process may read environment variable `name` (never prompts). */
export function envGranted(name: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "env", variable: name }).state === "granted";
  } catch {
    return false;
  }
}

/** Whether this process may read `path` (anything, when undefined; never prompts). */
export function readGranted(path: string | undefined): boolean {
  try {
    return Deno.permissions.querySync(path === undefined ? { name: "read" } : { name: "read", path }).state ===
      "granted";
  } catch {
    return false;
  }
}

/**
 * An environment reader that records every name asked for (`asked`) and answers undefined, recording the name in
 * `denied`, where this process may not read it, instead of throwing.
 */
export function recordingEnv(asked: Set<string>, denied: Set<string>): (name: string) => string | undefined {
  return (name) => {
    asked.add(name);
    if (!envGranted(name)) {
      denied.add(name);
      return undefined;
    }
    return Deno.env.get(name);
  };
}

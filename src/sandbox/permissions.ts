/**
 * What the HOST needs from Deno's permissions to run sandbox processes (the processes themselves hold none):
 * - `run` for exactly one executable, `Deno.execPath()`: from source that is the `deno` binary, started as
 *   `deno run <child entry>` with no `--allow-*` flag; compiled, it is ptc itself, started as `ptc __sandbox`;
 * - no `read`: the child's modules are loaded by the child's own Deno (module loading needs no permission), and a
 *   compiled binary embeds them;
 * - no `env`: the child inherits the environment without the host reading it (and cannot read it itself).
 * @module
 */

/** The host's permission needs for spawning sandbox processes. */
export interface SandboxSpawnNeeds {
  /** Executables for `--allow-run` (absolute paths). */
  run: string[];
  /** Paths for `--allow-read` (none: kept for callers that merge needs). */
  read: string[];
}

/** What the host needs to spawn sandbox processes, for `ptc permissions` and start-up checks. */
export function sandboxPermissions(): SandboxSpawnNeeds {
  return { run: [Deno.execPath()], read: [] };
}

/**
 * Directories the host must be able to read for the sandbox: none since the sandbox moved to child processes.
 * @deprecated use {@link sandboxPermissions}; kept so callers that merged it keep compiling.
 */
export function sandboxReadPaths(): string[] {
  return [];
}

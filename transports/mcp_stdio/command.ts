/**
 * Command checks for `mcp_stdio`: PATH lookup (for `ptc doctor` and start-up diagnostics) and refusing a config
 * whose command is ptc itself (ptc as its own upstream would spawn itself recursively).
 * @module
 */

const PTC_MAIN = (() => {
  try {
    const url = new URL("../../main.ts", import.meta.url);
    return url.protocol === "file:" ? decodeURIComponent(url.pathname) : undefined;
  } catch {
    return undefined;
  }
})();

function basename(p: string): string {
  return p.replace(/\/+$/, "").split("/").at(-1) ?? p;
}

function normalize(p: string, cwd: string): string {
  const abs = p.startsWith("/") ? p : `${cwd.replace(/\/+$/, "")}/${p}`;
  const out: string[] = [];
  for (const part of abs.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

function realOrSelf(p: string): string {
  try {
    return Deno.realPathSync(p);
  } catch {
    return p;
  }
}

function execPath(): string | undefined {
  try {
    return Deno.execPath();
  } catch {
    return undefined;
  }
}

/**
 * Why `command args` is ptc itself, or undefined. Recognised: a command named `ptc`, the running compiled ptc
 * binary, an argument that is ptc's own `main.ts`, and `deno task ptc`.
 */
export function selfReference(command: string, args: string[], cwd: string): string | undefined {
  const refusal = "points at ptc itself; ptc cannot be its own upstream (it would start itself recursively)";
  const name = basename(command).toLowerCase();
  if (name === "ptc" || name === "ptc.exe") return refusal;
  const exe = execPath();
  // (a replaced binary reads as "deno (deleted)" on Linux)
  if (exe && !/^deno(\.exe)?( \(deleted\))?$/i.test(basename(exe)) && command.includes("/")) {
    if (realOrSelf(normalize(command, cwd)) === realOrSelf(exe)) return refusal;
  }
  if (PTC_MAIN) {
    const main = realOrSelf(PTC_MAIN);
    for (const a of args) {
      if (!a.endsWith("main.ts")) continue;
      if (
        a.startsWith("file://") ? decodeURIComponent(new URL(a).pathname) === PTC_MAIN : (
          realOrSelf(normalize(a, cwd)) === main
        )
      ) return refusal;
    }
  }
  const task = args.indexOf("task");
  if (task !== -1 && args[task + 1] === "ptc" && /^deno(\.exe)?$/i.test(name)) return refusal;
  return undefined;
}

/**
 * Resolve a command the way spawning will: a path containing `/` is taken relative to `cwd`; a bare name is looked
 * up on `pathEnv`. Returns the absolute path of an existing executable file, or undefined. Needs read access to the
 * candidates (used by `ptc doctor`; spawning itself resolves without it).
 */
export function resolveCommand(command: string, cwd: string, pathEnv: string | undefined): string | undefined {
  const candidates = command.includes("/")
    ? [normalize(command, cwd)]
    : (pathEnv ?? "").split(":").filter((d) => d !== "").map((d) => `${d.replace(/\/+$/, "")}/${command}`);
  for (const c of candidates) {
    try {
      const info = Deno.statSync(c);
      if (info.isFile && (info.mode === null || (info.mode & 0o111) !== 0)) return c;
    } catch {
      // not here
    }
  }
  return undefined;
}

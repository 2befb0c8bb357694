/**
 * Running ptc (or another entry) as a real subprocess with every permission, optionally feeding stdin: the helper
 * of the `ptc eval` end-to-end tests.
 * @module
 */

/** What a finished subprocess left. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `deno run -A ARGS…`, with `stdin` written and closed when given. */
export async function runDeno(args: string[], stdin?: string): Promise<Run> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  if (stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

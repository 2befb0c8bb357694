/**
 * ptc entry point: hands the command line to src/cli and exits with its code. Started as `ptc __sandbox` (by ptc
 * itself, compiled) it is a sandbox process instead: no command line face is loaded at all.
 * @module
 */
if (import.meta.main) {
  if (Deno.args[0] === "__sandbox") {
    await import("./src/sandbox/child.ts");
  } else {
    const { main } = await import("./src/cli/mod.ts");
    Deno.exit(await main(Deno.args));
  }
}

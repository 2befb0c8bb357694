/**
 * ptc entry point: hands the command line to src/cli and exits with its code. Started as `ptc __sandbox` (by ptc
 * itself, compiled) it is a sandbox process instead: no command line face is loaded at all.
 *
 * `bin/ptc` runs it with `--unstable-lazy-dynamic-imports`: each module is loaded when a command first needs it, and
 * Deno checks such a load like a read. Without a read of ptc's own module folders the first load fails; that is
 * said in one line, never as an engine message.
 * @module
 */
if (import.meta.main) {
  if (Deno.args[0] === "__sandbox") {
    await import("./src/sandbox/child.ts");
  } else {
    // `ptc eval` evaluates at once: its sandbox process starts loading the language while ptc loads its own code.
    if (Deno.args[0] === "eval" && !Deno.args.includes("--help") && !Deno.args.includes("-h")) {
      (await import("./src/sandbox/prestart.ts")).prestartSandbox();
    }
    let cli: typeof import("./src/cli/mod.ts");
    try {
      cli = await import("./src/cli/mod.ts");
    } catch (e) {
      if (!/Requires read access/.test(e instanceof Error ? e.message : "")) throw e;
      const root = new URL(".", import.meta.url).pathname.replace(/\/$/, "");
      console.error(
        `ptc: cannot load its own modules: Deno may not read ${root}/src (run ptc through bin/ptc, or add ` +
          `--allow-read=${root}/fixtures,${root}/src,${root}/transports as \`ptc permissions\` prints)`,
      );
      Deno.exit(2);
    }
    Deno.exit(await cli.main(Deno.args));
  }
}

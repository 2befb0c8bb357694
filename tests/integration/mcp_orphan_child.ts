/**
 * Helper process for the no-orphan test: starts the stdio fixture through mcp_stdio, prints the child's pid, then
 * `exit` (Deno.exit while the upstream is running), `wait` (until a signal arrives) or `graceful` (a SIGTERM
 * listener of its own, like `ptc mcp`, that shuts down in its own time and exits 0).
 * @module
 */
import stdio from "../../transports/mcp_stdio/mod.ts";
import { makeDeps, parseOk, stdioFixture } from "../transports/mcp_common/helpers.ts";

const upstream = await stdio.start(parseOk(stdio, stdioFixture(["--linger"])), makeDeps());
console.log(String(upstream.diagnostics().pid));
if (Deno.args[0] === "exit") Deno.exit(0);
if (Deno.args[0] === "graceful") {
  let once = false;
  Deno.addSignalListener("SIGTERM", () => {
    if (once) return;
    once = true;
    setTimeout(async () => {
      await upstream.stop();
      console.log("graceful");
      Deno.exit(0);
    }, 200);
  });
}
await new Promise(() => {});

/**
 * ptc entry point: hands the command line to src/cli and exits with its code. Nothing else lives here.
 * @module
 */
import { main } from "./src/cli/mod.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}

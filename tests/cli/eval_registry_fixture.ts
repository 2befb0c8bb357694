/**
 * `ptc eval` with a registry holding only the in-process test transport ("fake"), as `ptc eval` gets the built-ins:
 * a config naming `transport: "fake"` reaches its tools through the engine.
 */
import { runEval } from "../../src/cli/eval.ts";
import { fakeRegistry } from "../upstream/fake_transport.ts";

Deno.exit(await runEval(Deno.args, fakeRegistry()));

/** Sandbox process entry that serves the fake language (tests only). */
import "../../src/sandbox/drop_permissions.ts";
import { serveChild } from "../../src/sandbox/child_core.ts";
import { childOptionsFromArgs } from "../../src/sandbox/spawn.ts";
import { fakeLanguage } from "./fake_language.ts";

await serveChild(fakeLanguage, childOptionsFromArgs(Deno.args));

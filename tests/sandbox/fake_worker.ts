/** Worker entry that serves the fake language (tests only). */
import { serveWorker } from "../../src/sandbox/worker_core.ts";
import { fakeLanguage } from "./fake_language.ts";

serveWorker(fakeLanguage);

/**
 * Helpers of the viewer's browser tests: headless Debian Chromium driven over the DevTools protocol by
 * puppeteer-core (no browser download), a fresh profile per launch, and servers started as real subprocesses whose
 * URL is read from their stderr.
 */
import puppeteer, { type Browser } from "puppeteer-core";

/** The system Chromium (Debian's `chromium`; `.ci/run` installs it). */
export const CHROMIUM = Deno.env.get("PTC_CHROMIUM") ?? "/usr/bin/chromium";

/** A headless browser with a fresh profile; `close` removes the profile. */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = await Deno.makeTempDir({ prefix: "ptc-view-chromium-" });
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
    defaultViewport: { width: 1200, height: 800 },
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/** A running subprocess whose stderr announced the URLs matched by the patterns. */
export interface Served {
  urls: string[];
  stderr: () => string;
  stop(): Promise<void>;
}

/** Spawn `command args…` and wait until every pattern's first group appears on its stderr. */
export async function spawnServing(
  command: string,
  args: string[],
  patterns: RegExp[],
  options: { cwd?: string; env?: Record<string, string>; clearEnv?: boolean } = {},
): Promise<Served> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let err = "";
  const decoder = new TextDecoder();
  const found = Promise.withResolvers<string[] | undefined>();
  const reading = (async () => {
    for await (const chunk of child.stderr) {
      err += decoder.decode(chunk, { stream: true });
      const m = patterns.map((p) => p.exec(err)?.[1]);
      if (m.every((u) => u !== undefined)) found.resolve(m as string[]);
    }
    found.resolve(undefined);
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await reading;
  };
  const urls = await found.promise;
  if (!urls) {
    await stop();
    throw new Error(`${command} ${args.join(" ")} did not start:\n${err}`);
  }
  return { urls, stderr: () => err, stop };
}

/**
 * Debian's Chromium for the browser tests, driven by playwright-core (test tools cannot download
 * browsers here). `haveBrowser` is false when it is missing, which skips the browser tests unless
 * CHORUS_REQUIRE_BROWSER=1 (set by scripts/test.sh) turns that into a failure.
 */
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

export const CHROMIUM = process.env.CHORUS_CHROMIUM ?? "/usr/bin/chromium";
export const haveBrowser = existsSync(CHROMIUM);
if (!haveBrowser && process.env.CHORUS_REQUIRE_BROWSER === "1") {
  throw new Error(`CHORUS_REQUIRE_BROWSER=1 but no Chromium at ${CHROMIUM}`);
}

/** Headless Chromium without background networking (the machine has no network but loopback). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

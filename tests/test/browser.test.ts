/**
 * The browser bundle in headless Chromium: party 2 runs in a page that loads
 * `chorus-sdk.browser.js` (esbuild bundle with the wasm-bindgen glue inlined) and fetches
 * `chorus_wasm_bg.wasm` beside it, both served by the relay's static file option; it uses the
 * browser's own WebSocket. Parties 0 and 1 run in this Node process. Loopback only.
 *
 * Needs Chromium at /usr/bin/chromium (or CHORUS_CHROMIUM); without it the test is skipped, unless
 * CHORUS_REQUIRE_BROWSER=1 makes that a failure.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { haveBrowser, launchChromium } from "./chromium.js";
import { connect, createRoom } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  REPO,
  startRelayProcess,
  within,
  xor,
  type RelayProcess,
} from "./relay-process.js";


let relay: RelayProcess | undefined;
let site: string | undefined;
beforeAll(async () => {
  if (!haveBrowser) return;
  site = mkdtempSync(join(tmpdir(), "chorus-site-"));
  for (const file of ["chorus-sdk.browser.js", "chorus_wasm_bg.wasm"]) {
    copyFileSync(join(REPO, "ts-sdk", "dist", file), join(site, file));
  }
  writeFileSync(join(site, "index.html"), "<!doctype html><title>chorus test</title>");
  relay = await startRelayProcess(["--static", site]);
});
afterAll(async () => {
  await relay?.stop();
  if (site) rmSync(site, { recursive: true, force: true });
});

it.skipIf(!haveBrowser)("a Chromium party and two Node parties compute FIPS-197 AES", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${relay!.url}/index.html`);
    const room = await createRoom({ relay: relay!.url, parties: 3 });
    const secret = freshSecret();
    const share0 = new Uint8Array(randomBytes(16));
    // The page script is a string: Vitest rewrites `import()` in functions of this file.
    const args = JSON.stringify({ invite: room.invite(2), secret, plaintext: FIPS_PLAINTEXT });
    const browserParty = page.evaluate(`(async ({ invite, secret, plaintext }) => {
      const sdk = await import(location.origin + '/chorus-sdk.browser.js');
      const session = await sdk.connect({ ...invite, secret });
      const result = await session.aes({ plaintext });
      await session.close();
      return { ciphertextHex: result.ciphertextHex, rounds: result.roundsStats.bytesSent };
    })(${args})`) as Promise<{ ciphertextHex: string; rounds: number }>;
    const nodeParties = [0, 1].map(async (slot) => {
      const session = await connect({ ...room.invite(slot), secret });
      try {
        const key = slot === 0 ? share0 : xor(fromHex(FIPS_KEY), share0);
        return await session.aes({ key });
      } finally {
        await session.close();
      }
    });
    const [fromBrowser, ...fromNode] = await within(
      Promise.all([browserParty, ...nodeParties]),
      "the mixed browser/Node AES",
      30_000,
    );
    expect(pageErrors).toEqual([]);
    expect(fromBrowser).toEqual({ ciphertextHex: FIPS_CIPHERTEXT, rounds: 640 });
    for (const result of fromNode) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
  } finally {
    await browser.close();
  }
});

/**
 * A Chromium party whose WebSocket is dropped mid-job (through the cutting TCP proxy, so the
 * browser sees close code 1006) reconnects by itself with the browser bundle and the job finishes
 * with the right result for all three parties. Parties 0 and 1 run in this Node process.
 *
 * Needs Chromium at /usr/bin/chromium (or CHORUS_CHROMIUM); without it the test is skipped, unless
 * CHORUS_REQUIRE_BROWSER=1 makes that a failure.
 */
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, createRoom } from "@chorus/sdk";
import { haveBrowser, launchChromium } from "./chromium.js";
import { startCutProxy, type CutProxy } from "./cut-proxy.js";
import { freshSecret, hex, referenceAes, REPO, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";

let relay: RelayProcess | undefined;
let cutProxy: CutProxy | undefined;
let site: string | undefined;
beforeAll(async () => {
  if (!haveBrowser) return;
  site = mkdtempSync(join(tmpdir(), "chorus-site-"));
  for (const file of ["chorus-sdk.browser.js", "chorus_wasm_bg.wasm"]) {
    copyFileSync(join(REPO, "ts-sdk", "dist", file), join(site, file));
  }
  writeFileSync(join(site, "index.html"), "<!doctype html><title>chorus resume test</title>");
  relay = await startRelayProcess(["--static", site]);
  cutProxy = await startCutProxy(relay.port);
});
afterAll(async () => {
  await cutProxy?.close();
  await relay?.stop();
  if (site) rmSync(site, { recursive: true, force: true });
});

it.skipIf(!haveBrowser)("a Chromium party reconnects after its socket is cut mid-job", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${relay!.url}/index.html`);
    const room = await createRoom({ relay: relay!.url, parties: 3 });
    const secret = freshSecret();
    const blocks = 20;
    const key = new Uint8Array(randomBytes(16));
    const share0 = new Uint8Array(randomBytes(16));
    const plaintext = new Uint8Array(randomBytes(16 * blocks));
    const expected = Array.from({ length: blocks }, (_, b) => hex(referenceAes(key, plaintext.subarray(16 * b, 16 * b + 16)))).join("");
    // The browser party reaches the relay through the proxy; it reports its connection states.
    const invite = { ...room.invite(2), relay: cutProxy!.url };
    const args = JSON.stringify({ invite, secret, plaintext: hex(plaintext), blocks });
    const browserParty = page.evaluate(`(async ({ invite, secret, plaintext, blocks }) => {
      const sdk = await import(location.origin + '/chorus-sdk.browser.js');
      const session = await sdk.connect({ ...invite, secret });
      const result = await session.aes({ plaintext, blocks });
      await session.close();
      return { ciphertextHex: result.ciphertextHex };
    })(${args})`) as Promise<{ ciphertextHex: string }>;
    let cuts = 0;
    const nodeParties = [0, 1].map(async (slot) => {
      const session = await connect({ ...room.invite(slot), secret });
      try {
        if (slot === 0) {
          let progress = 0;
          session.on("progress", () => {
            progress += 1;
            if (progress === 4) cuts += cutProxy!.cut();
          });
        }
        return await session.aes({ key: slot === 0 ? share0 : xor(key, share0), blocks });
      } finally {
        await session.close();
      }
    });
    const [fromBrowser, ...fromNode] = await within(
      Promise.all([browserParty, ...nodeParties]),
      "the mixed browser/Node AES across a cut",
      45_000,
    );
    expect(cuts).toBe(1);
    expect(cutProxy!.accepted()).toBeGreaterThanOrEqual(2);
    expect(pageErrors).toEqual([]);
    expect(fromBrowser.ciphertextHex).toBe(expected);
    for (const result of fromNode) expect(result.ciphertextHex).toBe(expected);
  } finally {
    await browser.close();
  }
}, 60_000);

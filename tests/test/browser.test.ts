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
      return { ciphertextHex: result.ciphertextHex, roundBytes: result.roundsStats.bytesSent, runtime: result.runtime };
    })(${args})`) as Promise<{ ciphertextHex: string; roundBytes: number; runtime: string }>;
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
    // The default job, malicious LUT-16: MAESTRO Table 1's 2560 online bits per block.
    // The browser runs the WASM core, the Node parties the native addon: one session, one wire format.
    expect(fromBrowser).toEqual({ ciphertextHex: FIPS_CIPHERTEXT, roundBytes: 320, runtime: "wasm" });
    for (const result of fromNode) expect(result).toMatchObject({ ciphertextHex: FIPS_CIPHERTEXT, runtime: "native" });
  } finally {
    await browser.close();
  }
});

it.skipIf(!haveBrowser)("a Chromium party runs TinyTable AES and session.evaluate with a Node party and a Node dealer", async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${relay!.url}/index.html`);
    const room = await createRoom({ relay: relay!.url, parties: 3 });
    const secret = freshSecret();
    // a (8 bits, party 0) AND b (8 bits, party 1), bitwise, revealed to both.
    const gates = Array.from({ length: 8 }, (_, i) => `2 1 ${i} ${8 + i} ${16 + i} AND`).join("\n");
    const circuit = `8 24\n2 8 8\n1 8\n\n${gates}\n`;
    const roles = { protocol: "tinytable", preprocessing: "dealer", keyHolders: [0], plaintextOwner: 1 } as const;
    const args = JSON.stringify({ invite: room.invite(1), secret, plaintext: FIPS_PLAINTEXT, roles, circuit });
    const browserParty = page.evaluate(`(async ({ invite, secret, plaintext, roles, circuit }) => {
      const sdk = await import(location.origin + '/chorus-sdk.browser.js');
      const session = await sdk.connect({ ...invite, secret });
      const aes = await session.aes({ ...roles, plaintext });
      const evaluated = await session.evaluate(circuit, { preprocessing: 'dealer', inputs: { 1: '3c' } });
      await session.close();
      return { ciphertextHex: aes.ciphertextHex, protocol: aes.protocol, andHex: evaluated.outputs[0].hex };
    })(${args})`) as Promise<{ ciphertextHex: string; protocol: string; andHex: string }>;
    const nodeMembers = [0, 2].map(async (slot) => {
      const session = await connect({ ...room.invite(slot), secret });
      try {
        const aes = await session.aes(slot === 0 ? { ...roles, key: FIPS_KEY } : roles);
        const dealer = { preprocessing: "dealer" } as const;
        const evaluated = await session.evaluate(circuit, slot === 0 ? { ...dealer, inputs: { 0: 0xf5n } } : dealer);
        return { aes, evaluated };
      } finally {
        await session.close();
      }
    });
    const [fromBrowser, party0, dealer] = await within(
      Promise.all([browserParty, ...nodeMembers]),
      "the mixed browser/Node TinyTable jobs",
      30_000,
    );
    expect(pageErrors).toEqual([]);
    expect(fromBrowser).toEqual({ ciphertextHex: FIPS_CIPHERTEXT, protocol: "tinytable", andHex: "34" });
    expect(party0!.aes.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    expect(party0!.evaluated.outputs[0]!.value).toBe(0x34n);
    expect(dealer!.aes.ciphertext).toBeUndefined();
    expect(dealer!.evaluated.outputs).toEqual([undefined]);
  } finally {
    await browser.close();
  }
});

/**
 * The browser demo (`demo/dist`, served by a relay process with `--static`) in headless Chromium:
 * three party pages in separate browser contexts compute FIPS-197 AES from invite links; "Run all
 * parties here" computes it in three Web Workers of one page and matches WebCrypto; a party page
 * closing before it runs makes the other pages show a party-left alert. Loopback only; every wait
 * is bounded. Screenshots go to `tests/artifacts/`.
 *
 * Needs Chromium at /usr/bin/chromium (or CHORUS_CHROMIUM); without it the tests are skipped, unless
 * CHORUS_REQUIRE_BROWSER=1 makes that a failure.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { haveBrowser, launchChromium } from "./chromium.js";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  fromHex,
  hex,
  REPO,
  startRelayProcess,
  xor,
  type RelayProcess,
} from "./relay-process.js";

const DEMO_DIST = join(REPO, "demo", "dist");
const ARTIFACTS = join(REPO, "tests", "artifacts");
const WAIT_MS = 20_000;

let relay: RelayProcess | undefined;
let browser: Browser | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!haveBrowser) return;
  if (!existsSync(join(DEMO_DIST, "index.html"))) {
    execFileSync("npm", ["run", "build", "-w", "@chorus/demo"], { cwd: REPO, stdio: "inherit" });
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  relay = await startRelayProcess(["--static", DEMO_DIST]);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await relay?.stop();
});

/** A page in its own browser context (its own storage, like another person's browser). */
async function isolatedPage(width = 900): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  // Console errors (a failed resource load, such as a missing favicon, logs one) and HTTP errors
  // count as page errors too: the demo loads without either.
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return page;
}

/** Creates a session on the demo's start page; returns the invite links (three, or two for TinyTable over OT). */
async function createSession(protocol: "maestro" | "tinytable" | "tinytable-dealer" = "maestro"): Promise<string[]> {
  const page = await isolatedPage();
  await page.goto(`${relay!.url}/`);
  await page.check(`input[name="protocol"][value="${protocol}"]`);
  await page.getByRole("button", { name: "Create a session" }).click();
  const links = page.locator("a.invite");
  await links.nth(protocol === "tinytable" ? 1 : 2).waitFor({ timeout: WAIT_MS });
  const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  await page.screenshot({ path: join(ARTIFACTS, "demo-create.png"), fullPage: true });
  await page.context().close();
  return hrefs;
}

/** Opens each invite link in its own context and waits until every page has all parties connected. */
async function openParties(invites: string[]): Promise<Page[]> {
  const pages = await Promise.all(invites.map(() => isolatedPage()));
  // The first page alone: its live roster shows itself connected and the others not yet.
  await pages[0]!.goto(invites[0]!);
  await expect.poll(() => pages[0]!.locator("#roster li.on").allTextContents(), { timeout: WAIT_MS }).toEqual([
    "Party 0 (you): connected",
  ]);
  expect(await pages[0]!.locator("#run").isDisabled()).toBe(true);
  await Promise.all(pages.slice(1).map((page, i) => page.goto(invites[i + 1]!)));
  for (const page of pages) {
    await expect.poll(() => page.locator("#run").isEnabled(), { timeout: WAIT_MS }).toBe(true);
  }
  return pages;
}

function keyShares(): [string, string] {
  const share0 = new Uint8Array(randomBytes(16));
  return [hex(share0), hex(xor(fromHex(FIPS_KEY), share0))];
}

it.skipIf(!haveBrowser)("three party pages from invite links compute FIPS-197 AES", async () => {
  const invites = await createSession();
  expect(invites).toHaveLength(3);
  for (const [slot, link] of invites.entries()) {
    const url = new URL(link);
    expect(url.searchParams.get("slot")).toBe(String(slot));
    expect(url.searchParams.get("token")).toMatch(/.+/);
    expect(url.hash).toMatch(/^#secret=[0-9a-f]{64}$/);
    // The default choice: the SDK's malicious LUT-16.
    expect([url.searchParams.get("variant"), url.searchParams.get("security")]).toEqual(["lut16", "malicious"]);
  }
  const pages = await openParties(invites);
  for (const page of pages) {
    await expect(page.locator("#roster li.on").count()).resolves.toBe(3);
  }
  const [share0, share1] = keyShares();
  await pages[0]!.fill("#party-input", share0);
  await pages[1]!.fill("#party-input", share1);
  await pages[2]!.fill("#party-input", FIPS_PLAINTEXT);
  for (const page of pages) await page.getByRole("button", { name: "Run" }).click();
  for (const [slot, page] of pages.entries()) {
    await expect.poll(() => page.locator("#ciphertext").textContent(), { timeout: WAIT_MS }).toBe(FIPS_CIPHERTEXT);
    // The default, malicious LUT-16: 74 rounds for one block (preprocessing, inputs, key schedule,
    // AES rounds, verification, reveal); the plaintext owner's count is one lower (it sends nothing first).
    const rounds = Number(await page.locator("#stat-rounds").textContent());
    expect(rounds).toBeGreaterThanOrEqual(73);
    expect(rounds).toBeLessThanOrEqual(74);
    expect(Number(await page.locator("#stat-sent").textContent())).toBeGreaterThan(0);
    expect(await page.locator("#progress").evaluate((p) => (p as HTMLProgressElement).value)).toBe(74);
    expect(await page.locator("#party-alert").isHidden()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `demo-party-${slot}.png`), fullPage: true });
  }
  // A party page at phone width: nothing overflows horizontally.
  const phone = pages[2]!;
  await phone.setViewportSize({ width: 375, height: 800 });
  expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await phone.screenshot({ path: join(ARTIFACTS, "demo-party-2-phone.png"), fullPage: true });
  for (const page of pages) await page.context().close();
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("'Run all parties here' runs three workers and matches WebCrypto", async () => {
  const page = await isolatedPage();
  await page.goto(`${relay!.url}/`);
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-check").textContent(), { timeout: WAIT_MS }).toBe("match");
  expect(await page.locator("#local-ciphertext").textContent()).toBe(FIPS_CIPHERTEXT);
  expect(await page.locator("#local-reference").textContent()).toBe(FIPS_CIPHERTEXT);
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all.png"), fullPage: true });
  // The same page at phone width: nothing overflows horizontally.
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all-phone.png"), fullPage: true });
  await page.context().close();
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("a party page closing before it runs makes the others show a party-left alert", async () => {
  const pages = await openParties(await createSession());
  const [share0, share1] = keyShares();
  // Bad input is refused with a message, before anything runs.
  await pages[0]!.fill("#party-input", "abc");
  await pages[0]!.getByRole("button", { name: "Run" }).click();
  await expect.poll(() => pages[0]!.locator("#party-alert").textContent()).toContain("exactly 32 hex digits");
  // Text plaintext: at most 16 bytes.
  await pages[2]!.selectOption("#plaintext-format", "text");
  await pages[2]!.fill("#party-input", "seventeen bytes!!");
  await pages[2]!.getByRole("button", { name: "Run" }).click();
  await expect.poll(() => pages[2]!.locator("#party-alert").textContent()).toContain("at most 16");
  await pages[0]!.fill("#party-input", share0);
  await pages[1]!.fill("#party-input", share1);
  for (const page of pages.slice(0, 2)) {
    await page.getByRole("button", { name: "Run" }).click();
    await expect.poll(() => page.locator("#status").textContent()).toContain("Running");
  }
  await pages[2]!.context().close();
  for (const [slot, page] of pages.slice(0, 2).entries()) {
    const alert = page.locator("#party-alert");
    await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toContain("Party 2 left the session");
    expect(await alert.getAttribute("role")).toBe("alert");
    expect(await alert.isVisible()).toBe(true);
    expect(await page.locator("#ciphertext").textContent()).toBe("—");
    await page.screenshot({ path: join(ARTIFACTS, `demo-party-left-${slot}.png`), fullPage: true });
    await page.context().close();
  }
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("a party with another session secret is reported as an authentication failure", async () => {
  const invites = await createSession();
  // Party 2's link carries a different secret: its handshakes cannot authenticate.
  invites[2] = invites[2]!.replace(/#secret=.*$/, `#secret=${randomBytes(32).toString("hex")}`);
  const pages = await openParties(invites);
  const [share0, share1] = keyShares();
  const inputs = [share0, share1, FIPS_PLAINTEXT];
  for (const [slot, page] of pages.entries()) {
    await page.fill("#party-input", inputs[slot]!);
    await page.getByRole("button", { name: "Run" }).click();
  }
  const alerts: string[] = [];
  for (const page of pages) {
    const alert = page.locator("#party-alert");
    await expect.poll(() => alert.isVisible(), { timeout: 10_000 }).toBe(true);
    alerts.push((await alert.textContent()) ?? "");
    expect(await page.locator("#ciphertext").textContent()).toBe("—");
  }
  expect(alerts.some((text) => text.includes("failed authentication"))).toBe(true);
  await pages[0]!.screenshot({ path: join(ARTIFACTS, "demo-integrity-0.png"), fullPage: true });
  for (const page of pages) await page.context().close();
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("TinyTable with OT preprocessing from invite links: two party pages, no dealer", async () => {
  const invites = await createSession("tinytable");
  expect(invites).toHaveLength(2);
  for (const link of invites) {
    expect(new URL(link).searchParams.get("protocol")).toBe("tinytable");
    expect(new URL(link).searchParams.get("parties")).toBe("2");
  }
  const pages = await openParties(invites);
  expect(await pages[0]!.locator("#party-role").textContent()).toContain("preprocessing over OT");
  await pages[0]!.fill("#party-input", FIPS_KEY);
  await pages[1]!.fill("#party-input", FIPS_PLAINTEXT);
  for (const page of pages) await page.getByRole("button", { name: "Run" }).click();
  for (const page of pages) {
    await expect.poll(() => page.locator("#ciphertext").textContent(), { timeout: WAIT_MS }).toBe(FIPS_CIPHERTEXT);
    expect(await page.locator("#party-alert").isHidden()).toBe(true);
  }
  await pages[1]!.screenshot({ path: join(ARTIFACTS, "demo-tinytable-ot-party-1.png"), fullPage: true });
  for (const page of pages) await page.context().close();
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("TinyTable with a trusted dealer from invite links: two party pages and the dealer's page", async () => {
  const invites = await createSession("tinytable-dealer");
  for (const link of invites) expect(new URL(link).searchParams.get("protocol")).toBe("tinytable-dealer");
  const pages = await openParties(invites);
  expect(await pages[2]!.locator("#party-role").textContent()).toContain("trusted dealer");
  expect(await pages[2]!.locator("#input-field").isHidden()).toBe(true);
  await pages[0]!.fill("#party-input", FIPS_KEY);
  await pages[1]!.fill("#party-input", FIPS_PLAINTEXT);
  for (const page of pages) await page.getByRole("button", { name: "Run" }).click();
  for (const page of pages.slice(0, 2)) {
    await expect.poll(() => page.locator("#ciphertext").textContent(), { timeout: WAIT_MS }).toBe(FIPS_CIPHERTEXT);
    expect(await page.locator("#party-alert").isHidden()).toBe(true);
  }
  await expect.poll(() => pages[2]!.locator("#ciphertext").textContent(), { timeout: WAIT_MS }).toBe("not revealed to this party");
  await pages[0]!.screenshot({ path: join(ARTIFACTS, "demo-tinytable-party-0.png"), fullPage: true });
  await pages[2]!.screenshot({ path: join(ARTIFACTS, "demo-tinytable-dealer.png"), fullPage: true });
  for (const page of pages) await page.context().close();
  expect(pageErrors).toEqual([]);
});

it.skipIf(!haveBrowser)("'Run all parties here' with both TinyTable variants, MiniMac with its dealer, Coral with two parties, TinyOT with three and semi-honest MAESTRO GF(2^8) matches WebCrypto", async () => {
  const page = await isolatedPage();
  await page.goto(`${relay!.url}/`);
  // The protocol selector labels the dealer variant as the weaker trust model.
  expect(await page.locator('label:has(input[value="tinytable-dealer"])').textContent()).toContain("weaker trust model");
  await page.check('input[name="protocol"][value="tinytable"]');
  expect(await page.locator("#variant").isDisabled()).toBe(true);
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-check").textContent(), { timeout: WAIT_MS }).toBe("match");
  expect(await page.locator("#local-ciphertext").textContent()).toBe(FIPS_CIPHERTEXT);
  expect(await page.locator("#local-parties .party-card").count()).toBe(2);
  expect(await page.locator("#local-parties").textContent()).not.toContain("Dealer");
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all-tinytable-ot.png"), fullPage: true });
  await page.check('input[name="protocol"][value="tinytable-dealer"]');
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-parties").textContent(), { timeout: WAIT_MS }).toContain("Dealer 2 (trusted)");
  // The result stays hidden until this run ends (the check still shows the previous run's).
  await expect.poll(() => page.locator("#local-result").isVisible(), { timeout: WAIT_MS }).toBe(true);
  expect(await page.locator("#local-check").textContent()).toBe("match");
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all-tinytable.png"), fullPage: true });
  // MiniMac with its trusted dealer: the same roles, the same two-method job layer underneath.
  expect(await page.locator('label:has(input[value="minimac-dealer"])').textContent()).toContain("weaker trust model");
  await page.check('input[name="protocol"][value="minimac-dealer"]');
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-parties").textContent(), { timeout: WAIT_MS }).toContain("Dealer 2 (trusted)");
  await expect.poll(() => page.locator("#local-result").isVisible(), { timeout: WAIT_MS }).toBe(true);
  expect(await page.locator("#local-check").textContent()).toBe("match");
  expect(await page.locator("#local-ciphertext").textContent()).toBe(FIPS_CIPHERTEXT);
  // Coral: two parties over OT and nobody else; malicious with abort.
  expect(await page.locator('label:has(input[value="coral"])').textContent()).toContain("nobody else is trusted");
  await page.check('input[name="protocol"][value="coral"]');
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-parties .party-card").count(), { timeout: WAIT_MS }).toBe(2);
  expect(await page.locator("#local-parties").textContent()).not.toContain("Dealer");
  await expect.poll(() => page.locator("#local-result").isVisible(), { timeout: WAIT_MS }).toBe(true);
  expect(await page.locator("#local-check").textContent()).toBe("match");
  expect(await page.locator("#local-ciphertext").textContent()).toBe(FIPS_CIPHERTEXT);
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all-coral.png"), fullPage: true });
  // Among three with no honest majority and no dealer: Coral and TinyOT are offered; the run
  // takes TinyOT (the three make its authenticated bits and triples over OT in their workers,
  // WASM). Coral among three runs the same page code with another config (its SDK job is tested
  // among three Node parties in the SDK's tests).
  expect(await page.locator('label:has(input[value="coral-3"])').textContent()).toContain("no dealer");
  expect(await page.locator('label:has(input[value="tinyot-3"])').textContent()).toContain("no dealer");
  await page.check('input[name="protocol"][value="tinyot-3"]');
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-parties .party-card").count(), { timeout: WAIT_MS }).toBe(3);
  expect(await page.locator("#local-parties").textContent()).not.toContain("Dealer");
  await expect.poll(() => page.locator("#local-result").isVisible(), { timeout: 120_000 }).toBe(true);
  expect(await page.locator("#local-check").textContent()).toBe("match");
  expect(await page.locator("#local-ciphertext").textContent()).toBe(FIPS_CIPHERTEXT);
  await page.screenshot({ path: join(ARTIFACTS, "demo-run-all-tinyot-3.png"), fullPage: true });
  await page.check('input[name="protocol"][value="maestro"]');
  await page.selectOption("#variant", "gf256-circuit:semi-honest");
  await page.getByRole("button", { name: "Run all parties here" }).click();
  await expect.poll(() => page.locator("#local-parties").textContent(), { timeout: WAIT_MS }).not.toContain("Dealer");
  await expect.poll(() => page.locator("#local-check").textContent(), { timeout: WAIT_MS }).toBe("match");
  await page.context().close();
  expect(pageErrors).toEqual([]);
}, 240_000);

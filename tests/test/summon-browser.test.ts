/**
 * The demo's Summon page (`demo/dist/summon.html`) in headless Chromium: a Summon program compiled
 * in the browser with summon-ts and run on the Chorus mpc-framework engine — both parties in one
 * page; two pages as the two parties over a `BroadcastChannel` (a transport that is not the Chorus
 * relay, no server involved); and two pages in separate browser contexts from invite links, over
 * the relay used as a plain message transport. No page logs an error or gets an HTTP error.
 *
 * Needs Chromium at /usr/bin/chromium (or CHORUS_CHROMIUM); without it the tests are skipped, unless
 * CHORUS_REQUIRE_BROWSER=1 makes that a failure.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { haveBrowser, launchChromium } from "./chromium.js";
import { REPO, startRelayProcess, type RelayProcess } from "./relay-process.js";

const DEMO_DIST = join(REPO, "demo", "dist");
const ARTIFACTS = join(REPO, "tests", "artifacts");
const WAIT_MS = 30_000;

let relay: RelayProcess | undefined;
let browser: Browser | undefined;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!haveBrowser) return;
  if (!existsSync(join(DEMO_DIST, "summon.html"))) throw new Error("demo/dist is not built: npm run build -w @chorus/demo");
  mkdirSync(ARTIFACTS, { recursive: true });
  relay = await startRelayProcess(["--static", DEMO_DIST]);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await relay?.stop();
});

async function watched(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) pageErrors.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return page;
}

/** The outputs a page shows: `name (party learns)` → value. */
async function outputsOf(page: Page): Promise<Record<string, string>> {
  await page.locator("#result-section").waitFor({ state: "visible", timeout: WAIT_MS });
  const terms = await page.locator("#outputs dt").allTextContents();
  const values = await page.locator("#outputs dd").allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, values[i]!]));
}

it.skipIf(!haveBrowser)("compiles the millionaires' problem in the browser and runs both parties in the page", async () => {
  const page = await watched(await browser!.newContext());
  await page.goto(`${relay!.url}/summon.html`);
  await expect.poll(() => page.locator("#compiled").textContent(), { timeout: WAIT_MS }).toMatch(/Compiled: 2 inputs, 1 outputs/);
  await page.fill("#input-alice-aliceWealth", "5000");
  await page.fill("#input-bob-bobWealth", "7000");
  await page.getByRole("button", { name: "Run both parties here" }).click();
  expect(await outputsOf(page)).toEqual({ "aliceIsRicher (alice learns)": "false", "aliceIsRicher (bob learns)": "false" });
  expect(await page.locator("#costs").textContent()).toMatch(/tinytable \(wasm\).*rounds/);
  await page.screenshot({ path: join(ARTIFACTS, "summon-here.png"), fullPage: true });
  // A program that does not compile is an alert, not a crash.
  await page.fill("#source", "export default function main(io: Summon.IO) { io.outputPublic('x', y); }");
  await page.getByRole("button", { name: "Run both parties here" }).click();
  await expect.poll(() => page.locator("#compile-alert").textContent(), { timeout: WAIT_MS }).toMatch(/could not compile/);
  await page.context().close();
  expect(pageErrors).toEqual([]);
}, 90_000);

it.skipIf(!haveBrowser)("two pages as alice and bob over a BroadcastChannel run the sealed-bid auction", async () => {
  const context = await browser!.newContext();
  const start = await watched(context);
  await start.goto(`${relay!.url}/summon.html?program=auction`);
  await expect.poll(() => start.locator("#compiled").textContent(), { timeout: WAIT_MS }).toMatch(/Compiled/);
  await start.getByRole("button", { name: "Two tabs of this browser" }).click();
  const links = await start.locator("a.invite").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(links).toHaveLength(2);
  expect(new URL(links[0]!).searchParams.get("transport")).toBe("broadcast");
  const [alice, bob] = [await watched(context), await watched(context)];
  await alice.goto(links[0]!);
  await bob.goto(links[1]!);
  for (const page of [alice, bob]) await expect.poll(() => page.locator("#run").isEnabled(), { timeout: WAIT_MS }).toBe(true);
  await alice.fill("#input-alice-aliceBid", "300");
  await bob.fill("#input-bob-bobBid", "450");
  await alice.getByRole("button", { name: "Run as this party" }).click();
  await bob.getByRole("button", { name: "Run as this party" }).click();
  expect(await outputsOf(alice)).toEqual({ "aliceWins (alice learns)": "false", "price (alice learns)": "300" });
  expect(await outputsOf(bob)).toEqual({ "aliceWins (bob learns)": "false", "price (bob learns)": "300" });
  await bob.screenshot({ path: join(ARTIFACTS, "summon-tabs.png"), fullPage: true });
  await context.close();
  expect(pageErrors).toEqual([]);
}, 90_000);

it.skipIf(!haveBrowser)("invite links in two browser contexts run the intersection count through the relay", async () => {
  const creator = await watched(await browser!.newContext());
  await creator.goto(`${relay!.url}/summon.html?program=intersection`);
  await expect.poll(() => creator.locator("#compiled").textContent(), { timeout: WAIT_MS }).toMatch(/Compiled: 8 inputs/);
  await creator.getByRole("button", { name: "Invite links (through the relay)" }).click();
  await creator.locator("a.invite").nth(1).waitFor({ timeout: WAIT_MS });
  const links = await creator.locator("a.invite").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(new URL(links[0]!).hash).toMatch(/secret=[0-9a-f]{64}/);
  const alice = await watched(await browser!.newContext());
  const bob = await watched(await browser!.newContext());
  await alice.goto(links[0]!);
  await bob.goto(links[1]!);
  for (const page of [alice, bob]) await expect.poll(() => page.locator("#run").isEnabled(), { timeout: WAIT_MS }).toBe(true);
  // The example's sets share 3 and 42.
  await alice.getByRole("button", { name: "Run as this party" }).click();
  await bob.getByRole("button", { name: "Run as this party" }).click();
  expect(await outputsOf(alice)).toEqual({ "inCommon (alice learns)": "2" });
  expect(await outputsOf(bob)).toEqual({ "inCommon (bob learns)": "2" });
  for (const page of [creator, alice, bob]) await page.context().close();
  expect(pageErrors).toEqual([]);
}, 90_000);

/**
 * The npm package is self-contained: `npm pack` of ts-sdk holds the compiled JS, the `.d.ts` types
 * and the built WASM; installed into an empty project (its only dependency, `ws`, comes from the
 * registry or npm's cache), it runs the three-party AES from there against a relay process. The
 * native addon is an optional peer, not installed there: the parties run on WASM and say so once.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRoom } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  hex,
  REPO,
  startRelayProcess,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { PARTY_SCRIPT, runParty } from "./party-processes.js";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let relay: RelayProcess;
let workDir: string;
beforeAll(async () => {
  relay = await startRelayProcess();
  workDir = mkdtempSync(join(tmpdir(), "chorus-pack-"));
});
afterAll(async () => {
  await relay?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it(
  "the packed SDK installs into an empty project and runs the joint AES there",
  async () => {
    // `--ignore-scripts`: the workspace build already ran in pretest; packing only collects files.
    const { stdout } = await run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", workDir], {
      cwd: join(REPO, "ts-sdk"),
      timeout: 60_000,
    });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    for (const required of [
      "dist/index.js",
      "dist/index.d.ts",
      "dist/session/session.js",
      "dist/session/session.d.ts",
      "wasm/chorus_wasm.js",
      "wasm/chorus_wasm.d.ts",
      "wasm/chorus_wasm_bg.wasm",
      "package.json",
    ]) {
      expect(files, required).toContain(required);
    }
    expect(files.some((f) => f.startsWith("src/") || f.startsWith("test/"))).toBe(false);

    const project = join(workDir, "app");
    cpSync(PARTY_SCRIPT, join(project, "party.mjs"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    await run(npm, ["install", join(workDir, packed!.filename), "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd: project,
      timeout: 120_000,
    });

    const room = await createRoom({ relay: relay.url, parties: 3 });
    const secret = freshSecret();
    const share0 = new Uint8Array(randomBytes(16));
    const aes = [{ key: hex(share0) }, { key: hex(xor(fromHex(FIPS_KEY), share0)) }, { plaintext: FIPS_PLAINTEXT }];
    const outcomes = await Promise.all(
      [0, 1, 2].map((slot) => runParty(join(project, "party.mjs"), { invite: room.invite(slot), secret, aes: aes[slot] }, project)),
    );
    for (const [slot, outcome] of outcomes.entries()) {
      if (!outcome.ok) throw new Error(`party ${slot} failed: ${JSON.stringify(outcome)}`);
      expect(outcome).toMatchObject({ ok: true, slot, ciphertextHex: FIPS_CIPHERTEXT, runtime: "wasm" });
      expect(outcome.stderr).toMatch(/^chorus: using the WASM core; the native addon @chorus\/node is unusable \(.+\)\n$/);
    }
  },
  240_000,
);

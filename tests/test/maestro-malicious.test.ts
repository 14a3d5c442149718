/**
 * Maliciously secure MAESTRO through a real relay process: every variant with a malicious form
 * encrypts the FIPS-197 vector (outputs revealed only after the §2.7 verification and the §2.4
 * hash comparison inside the job), and decryption inverts it.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MaestroVariant } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  hex,
  startRelayProcess,
  within,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

const MALICIOUS: MaestroVariant[] = ["gf256-circuit", "gf16-circuit", "lut16", "lut256", "lut256-33"];

describe("malicious MAESTRO through the relay", () => {
  for (const variant of MALICIOUS) {
    it(`${variant}: FIPS-197 encryption and decryption`, async () => {
      const share0 = new Uint8Array(randomBytes(16));
      const share1 = xor(fromHex(FIPS_KEY), share0);
      const sessions = await connectThree(relay.url, freshSecret());
      try {
        const common = { variant, security: "malicious" as const };
        const encrypted = await within(
          Promise.all(
            runAes(sessions, [
              { ...common, key: share0 },
              { ...common, key: hex(share1) },
              { ...common, plaintext: FIPS_PLAINTEXT },
            ]),
          ),
          `malicious ${variant} encryption`,
          60_000,
        );
        for (const [slot, result] of encrypted.entries()) {
          expect(result.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
          // The verification and the hash comparisons come on top of the AES rounds.
          expect(result.stats.rounds).toBeGreaterThan(result.roundsStats.rounds);
        }
        const decrypt = { ...common, direction: "decrypt" as const };
        const decrypted = await within(
          Promise.all(
            runAes(sessions, [
              { ...decrypt, key: share0 },
              { ...decrypt, key: hex(share1) },
              { ...decrypt, plaintext: FIPS_CIPHERTEXT },
            ]),
          ),
          `malicious ${variant} decryption`,
          60_000,
        );
        for (const [slot, result] of decrypted.entries()) {
          expect(result.ciphertextHex, `party ${slot}`).toBe(FIPS_PLAINTEXT);
        }
      } finally {
        await closeAll(sessions);
      }
    }, 120_000);
  }
});

/**
 * AES-192 and AES-256 through the SDK: every MAESTRO variant at every security level it has
 * encrypts the FIPS-197 Appendix C vectors (C.1 AES-128, C.2 AES-192, C.3 AES-256) from a key
 * XOR-shared by parties 0 and 1, and decrypts them back, through a real relay process. Every AES
 * round costs the same, so the cipher rounds' bytes of a key size are exactly Nr/10 of AES-128's
 * (Nr = 10, 12, 14) and its message rounds grow by the same number with every two AES rounds;
 * the key schedule runs before them. The two-party protocols run the AES circuit of the key size
 * and direction: TinyTable over OT, MiniMac and Coral with their dealer, checked the same way.
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AesResult, type MaestroVariant, type SecurityLevel } from "@chorus/sdk";
import { freshSecret, fromHex, hex, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";
import { closeAll, connectThree, connectTwo, runAes } from "./three-parties.js";

const PLAINTEXT = "00112233445566778899aabbccddeeff";
/** FIPS-197 Appendix C: key bits, key (bytes 00, 01, … ), ciphertext of PLAINTEXT, rounds Nr. */
const VECTORS = [
  { keyBits: 128, ciphertext: "69c4e0d86a7b0430d8cdb78070b4c55a", rounds: 10 },
  { keyBits: 192, ciphertext: "dda97ca4864cdfe06eaf70a0ec0d7191", rounds: 12 },
  { keyBits: 256, ciphertext: "8ea2b7ca516745bfeafc49904b496089", rounds: 14 },
] as const;

/** Every (variant, security) pair: the jobs run all ten. */
const PAIRS: [MaestroVariant, SecurityLevel][] = (["semi-honest", "malicious"] as const).flatMap((security) =>
  (["gf256-circuit", "gf16-circuit", "lut16", "lut256", "lut256-33"] as const).map(
    (v) => [v, security] as [MaestroVariant, SecurityLevel],
  ),
);

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

describe("AES-192 and AES-256 on MAESTRO", () => {
  for (const [variant, security] of PAIRS) {
    it(`${variant}, ${security}: FIPS-197 C.1–C.3 both ways, the rounds' cost linear in Nr`, async () => {
      const sessions = await connectThree(relay.url, freshSecret());
      try {
        const online: Record<number, { bytes: number; rounds: number }> = {};
        for (const { keyBits, ciphertext, rounds } of VECTORS) {
          const key = fromHex(Array.from({ length: keyBits / 8 }, (_, i) => i.toString(16).padStart(2, "0")).join(""));
          const share0 = new Uint8Array(randomBytes(key.length));
          const common = { variant, security, keyBits } as const;
          const run = (direction: "encrypt" | "decrypt", input: string): Promise<AesResult[]> =>
            within(
              Promise.all(
                runAes(sessions, [
                  { ...common, direction, key: share0 },
                  { ...common, direction, key: xor(key, share0) },
                  { ...common, direction, plaintext: input },
                ]),
              ),
              `${variant} ${security} AES-${keyBits} ${direction}`,
              60_000,
            );
          const encrypted = await run("encrypt", PLAINTEXT);
          const decrypted = await run("decrypt", ciphertext);
          for (const [slot, result] of encrypted.entries()) {
            expect(result.ciphertextHex, `AES-${keyBits}, party ${slot}`).toBe(ciphertext);
            expect(hex(decrypted[slot]!.ciphertext!), `AES-${keyBits} decryption, party ${slot}`).toBe(PLAINTEXT);
          }
          const first = encrypted[0]!.roundsStats;
          online[rounds] = { bytes: first.bytesSent, rounds: first.rounds };
          // Decryption runs the same S-box layers in reverse order: the same cost.
          expect(decrypted[0]!.roundsStats.bytesSent).toBe(first.bytesSent);
          expect(decrypted[0]!.roundsStats.rounds).toBe(first.rounds);
        }
        const [aes128, aes192, aes256] = [online[10]!, online[12]!, online[14]!];
        expect(aes128.bytes).toBeGreaterThan(0);
        expect([aes192.bytes, aes256.bytes]).toEqual([(aes128.bytes * 12) / 10, (aes128.bytes * 14) / 10]);
        // Two more AES rounds add the same message rounds each time (LUT-256 (3,3) adds one
        // resharing to its Nr lookup layers, so rounds are linear in Nr, not proportional).
        expect(aes192.rounds - aes128.rounds).toBeGreaterThan(0);
        expect(aes256.rounds - aes192.rounds).toBe(aes192.rounds - aes128.rounds);
        if (variant !== "lut256-33") expect(aes192.rounds).toBe((aes128.rounds * 12) / 10);
      } finally {
        await closeAll(sessions);
      }
    });
  }

  it("names keyBits when a key share's length does not match it", async () => {
    const sessions = await connectThree(relay.url, freshSecret());
    try {
      const key = new Uint8Array(24);
      const outcome = await (async () => sessions[0]!.aes({ key }))().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(outcome).toMatchObject({ field: "key" });
      expect(String((outcome as Error).message)).toContain("keyBits 192");
      // Nothing was sent: the session still runs a job.
      const share0 = new Uint8Array(randomBytes(24));
      const results = await within(
        Promise.all(
          runAes(sessions, [
            { keyBits: 192, key: share0 },
            { keyBits: 192, key: xor(key, share0) },
            { keyBits: 192, plaintext: PLAINTEXT },
          ]),
        ),
        "AES-192 after the refusal",
      );
      const cipher = createCipheriv("aes-192-ecb", key, null).setAutoPadding(false);
      const expected = hex(new Uint8Array(Buffer.concat([cipher.update(fromHex(PLAINTEXT)), cipher.final()])));
      for (const r of results) expect(r.ciphertextHex).toBe(expected);
    } finally {
      await closeAll(sessions);
    }
  });
});

describe("AES-192, AES-256 and decryption on the two-party protocols", () => {
  /** The FIPS-197 Appendix C key of `keyBits` and its ciphertext of PLAINTEXT. */
  const vector = (keyBits: 128 | 192 | 256) => ({
    key: fromHex(Array.from({ length: keyBits / 8 }, (_, i) => i.toString(16).padStart(2, "0")).join("")),
    ciphertext: VECTORS.find((v) => v.keyBits === keyBits)!.ciphertext,
  });

  it("TinyTable over OT (malicious): AES-192 decryption and AES-256 encryption of FIPS-197 C.2/C.3", async () => {
    const sessions = await connectTwo(relay.url, freshSecret());
    try {
      for (const [keyBits, direction] of [[192, "decrypt"], [256, "encrypt"]] as const) {
        const { key, ciphertext } = vector(keyBits);
        const input = direction === "encrypt" ? PLAINTEXT : ciphertext;
        const roles = { protocol: "tinytable", security: "malicious", keyBits, direction, keyHolders: [0], plaintextOwner: 1 } as const;
        const results = await within(
          Promise.all(runAes(sessions, [{ ...roles, key }, { ...roles, plaintext: input }])),
          `TinyTable AES-${keyBits} ${direction}`,
          60_000,
        );
        for (const r of results) expect(r.ciphertextHex).toBe(direction === "encrypt" ? ciphertext : PLAINTEXT);
      }
    } finally {
      await closeAll(sessions);
    }
  });

  for (const protocol of ["minimac", "coral"] as const) {
    it(`${protocol} with its dealer: AES-256 decryption of FIPS-197 C.3 from a key split between both parties`, async () => {
      const { key, ciphertext } = vector(256);
      const share0 = new Uint8Array(randomBytes(32));
      const sessions = await connectThree(relay.url, freshSecret());
      try {
        const roles = { protocol, preprocessing: "dealer", keyBits: 256, direction: "decrypt", keyHolders: [0, 1], plaintextOwner: 1 } as const;
        const results = await within(
          Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: xor(key, share0), plaintext: ciphertext }, roles])),
          `${protocol} AES-256 decryption`,
          120_000,
        );
        for (const slot of [0, 1]) expect(results[slot]!.ciphertextHex, `party ${slot}`).toBe(PLAINTEXT);
        expect(results[2]!.ciphertext).toBeUndefined();
      } finally {
        await closeAll(sessions);
      }
    }, 150_000);
  }
});

/**
 * Two-party TinyTable through a real relay process with the trusted dealer (`preprocessing:
 * 'dealer'`): parties 0 and 1 compute, slot 2 is the dealer. `session.aes({ protocol: 'tinytable' })`
 * against FIPS-197 and Node's crypto, `session.evaluate` with a small hand-written Bristol circuit
 * and the published aes_128.txt, MAESTRO's other S-box variants, typed errors for bad options, and
 * a party leaving mid-run. The default, OT preprocessing with two members: tinytable-ot.test.ts.
 */
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CircuitError, ConfigError, IntegrityError, NotAvailableError, parseCircuit, PeerLeftError, type Session } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  hex,
  referenceAes,
  settle,
  startRelayProcess,
  within,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { startTamperProxy } from "./tamper-proxy.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";

/** a (2 bits) and b (2 bits) → [a0 AND b0, a1 XOR b1, NOT (a0 AND b0)]. */
const SMALL_CIRCUIT = `3 7
2 2 2
1 3

2 1 0 2 4 AND
2 1 1 3 5 XOR
1 1 4 6 INV
`;
const AES_128 = readFileSync(new URL("../../circuits/aes_128.txt", import.meta.url), "utf8");
const DEALER = 2;
const DEALT = { preprocessing: "dealer" } as const;

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

async function withSessions<T>(run: (sessions: Session[]) => Promise<T>): Promise<T> {
  const sessions = await connectThree(relay.url, freshSecret());
  try {
    return await run(sessions);
  } finally {
    await closeAll(sessions);
  }
}

describe("TinyTable AES (two parties and a trusted dealer)", () => {
  it("matches FIPS-197 with the key split between both parties; the dealer learns nothing", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    await withSessions(async (sessions) => {
      const roles = { protocol: "tinytable", preprocessing: "dealer", keyHolders: [0, 1], plaintextOwner: 1 } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: share1, plaintext: FIPS_PLAINTEXT }, roles])),
        "TinyTable AES",
        30_000,
      );
      for (const slot of [0, 1]) {
        expect(results[slot]!.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
        expect(results[slot]!.protocol).toBe("tinytable");
        expect(results[slot]!.variant).toBe("circuit");
        // Online phase: 16 bytes per owned input value plus 820 bytes of AND-layer openings, 61 rounds.
        expect(results[slot]!.roundsStats.bytesSent).toBe(16 * (slot + 1) + 820);
        expect(results[slot]!.roundsStats.rounds).toBe(61);
      }
      expect(results[DEALER]!.ciphertext).toBeUndefined();
      // The dealer sends each party its table shares (3200 bytes per block) and masks.
      expect(results[DEALER]!.stats.bytesSent).toBeGreaterThan(2 * 3200);
    });
  });

  it("runs the S-box-table path on a key split between both parties, both ways, at the schedule's exact cost", async () => {
    const share0 = new Uint8Array(randomBytes(16));
    const share1 = xor(fromHex(FIPS_KEY), share0);
    await withSessions(async (sessions) => {
      for (const direction of ["encrypt", "decrypt"] as const) {
        const roles = { protocol: "tinytable", preprocessing: "dealer", path: "sbox-tables", direction, keyHolders: [0, 1], plaintextOwner: 1 } as const;
        const input = fromHex(direction === "encrypt" ? FIPS_PLAINTEXT : FIPS_CIPHERTEXT);
        const results = await within(
          Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: share1, plaintext: input }, roles])),
          `S-box tables, shared key, ${direction}`,
          30_000,
        );
        for (const slot of [0, 1]) {
          expect(results[slot]!.ciphertextHex, `${direction}, party ${slot}`).toBe(direction === "encrypt" ? FIPS_CIPHERTEXT : FIPS_PLAINTEXT);
          // Input (masked key share, and the masked block at party 1), 10 key-schedule rounds of 4
          // bytes plus one hash, 10 cipher rounds of 16 plus one hash, the output opening.
          expect(results[slot]!.roundsStats.rounds).toBe(22);
          expect(results[slot]!.roundsStats.bytesSent).toBe(16 * (slot + 1) + (40 + 16) + (160 + 16) + (16 + 16));
        }
        expect(results[DEALER]!.ciphertext).toBeUndefined();
      }
    });
  });

  it("encrypts a batch revealed to party 0 only, against Node's AES", async () => {
    const key = new Uint8Array(randomBytes(16));
    const plaintext = new Uint8Array(randomBytes(48));
    await withSessions(async (sessions) => {
      const roles = { protocol: "tinytable", preprocessing: "dealer", blocks: 3, keyHolders: [1], plaintextOwner: 0, reveal: [0] } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, plaintext }, { ...roles, key }, roles])),
        "TinyTable AES batch",
        30_000,
      );
      expect(hex(results[0]!.ciphertext!)).toBe(hex(referenceAes(key, plaintext)));
      expect(results[1]!.ciphertext).toBeUndefined();
    });
  });
});

describe("malicious TinyTable AES (trusted dealer, MAC-checked openings)", () => {
  it.each([
    { path: "circuit", macBits: 64 },
    { path: "circuit", macBits: 32 },
    { path: "sbox-tables", macBits: 64 },
  ] as const)("$path with k = $macBits matches FIPS-197", async ({ path, macBits }) => {
    await withSessions(async (sessions) => {
      const roles = { protocol: "tinytable", preprocessing: "dealer", path, security: "malicious", macBits } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }, roles])),
        `malicious TinyTable ${path}`,
        30_000,
      );
      for (const slot of [0, 1]) expect(results[slot]!.ciphertextHex, `party ${slot}`).toBe(FIPS_CIPHERTEXT);
      expect(results[DEALER]!.ciphertext).toBeUndefined();
    });
  });

  it("a frame tampered on the way to party 1 aborts the job with no ciphertext anywhere", async () => {
    // Party 1 receives one handshake frame from each of party 0 and the dealer; the 4th is data.
    // The Noise channel catches the flip (IntegrityError) before the MAC checks would; a party
    // that alters its own table entries is caught by the MAC check (core job tests).
    const proxy = await startTamperProxy(relay.ws, 4);
    const sessions = await connectThree(relay.url, freshSecret(), (slot) => (slot === 1 ? { relay: proxy.url } : {}));
    try {
      const roles = { protocol: "tinytable", preprocessing: "dealer", security: "malicious" } as const;
      const outcomes = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }, roles]).map(settle)),
        "the tampered malicious job",
        10_000,
      );
      expect(proxy.tampered()).toBe(true);
      const victim = outcomes[1]!;
      expect(victim.ok).toBe(false);
      if (!victim.ok) expect(victim.error).toBeInstanceOf(IntegrityError);
      const peer = outcomes[0]!;
      expect(peer.ok).toBe(false);
      if (!peer.ok) expect(peer.error).toBeInstanceOf(PeerLeftError);
      // The dealer only deals: it may finish before the abort, but never holds a ciphertext.
      const dealer = outcomes[DEALER]!;
      if (dealer.ok) expect(dealer.value.ciphertext).toBeUndefined();
      else expect(dealer.error).toBeInstanceOf(PeerLeftError);
    } finally {
      await closeAll(sessions);
      await proxy.close();
    }
  });

  it("semi-honest S-box tables match Node's AES for a batch", async () => {
    const key = new Uint8Array(randomBytes(16));
    const plaintext = new Uint8Array(randomBytes(64));
    await withSessions(async (sessions) => {
      const roles = { protocol: "tinytable", preprocessing: "dealer", path: "sbox-tables", blocks: 4, keyHolders: [1], plaintextOwner: 0 } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, plaintext }, { ...roles, key }, roles])),
        "TinyTable S-box tables",
        30_000,
      );
      for (const slot of [0, 1]) expect(hex(results[slot]!.ciphertext!)).toBe(hex(referenceAes(key, plaintext)));
    });
  });

  it.each(["semi-honest", "malicious"] as const)("%s S-box tables decrypt Node's ciphertexts back to the plaintext", async (security) => {
    const key = new Uint8Array(randomBytes(16));
    const plaintext = new Uint8Array(randomBytes(48));
    const ciphertext = referenceAes(key, plaintext);
    await withSessions(async (sessions) => {
      const roles = { protocol: "tinytable", preprocessing: "dealer", path: "sbox-tables", direction: "decrypt", security, blocks: 3, keyHolders: [0], plaintextOwner: 1 } as const;
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key }, { ...roles, plaintext: ciphertext }, roles])),
        `TinyTable S-box-table decryption (${security})`,
        30_000,
      );
      for (const slot of [0, 1]) expect(hex(results[slot]!.ciphertext!)).toBe(hex(plaintext));
    });
  });
});

describe("semi-honest MAESTRO S-box variants through the SDK (malicious ones: maestro-malicious.test.ts)", () => {
  it.each(["gf256-circuit", "gf16-circuit", "lut16", "lut256", "lut256-33"] as const)("%s matches FIPS-197", async (variant) => {
    const security = "semi-honest";
    await withSessions(async (sessions) => {
      const results = await within(
        Promise.all(
          runAes(sessions, [
            { variant, security, key: FIPS_KEY },
            { variant, security, key: "00".repeat(16) },
            { variant, security, plaintext: FIPS_PLAINTEXT },
          ]),
        ),
        `MAESTRO ${variant}`,
        30_000,
      );
      for (const r of results) {
        expect(r.ciphertextHex).toBe(FIPS_CIPHERTEXT);
        expect(r).toMatchObject({ variant, security });
      }
    });
  });
});

describe("session.evaluate with Bristol circuits", () => {
  it("evaluates a small circuit with bigint, bit-array and output-value shapes", async () => {
    const parsed = await parseCircuit(SMALL_CIRCUIT);
    expect(parsed).toMatchObject({ inputWidths: [2, 2], outputWidths: [3], andGates: 1, andDepth: 1 });
    await withSessions(async (sessions) => {
      for (const [a, b] of [
        [3n, 1n],
        [2n, 3n],
        [0n, 0n],
      ] as const) {
        const bBits = [(b & 1n) === 1n, (b & 2n) === 2n];
        const results = await within(
          Promise.all([
            sessions[0]!.evaluate(parsed, { ...DEALT, inputs: { 0: a } }),
            sessions[1]!.evaluate(SMALL_CIRCUIT, { ...DEALT, inputs: [undefined, bBits] }),
            sessions[2]!.evaluate(SMALL_CIRCUIT, DEALT),
          ]),
          "small circuit",
        );
        const and0 = (a & b & 1n) === 1n;
        const expected = [and0, (((a ^ b) >> 1n) & 1n) === 1n, !and0];
        for (const slot of [0, 1]) {
          const out = results[slot]!.outputs[0]!;
          expect(out.bits, `a=${a} b=${b} party ${slot}`).toEqual(expected);
          expect(out.value).toBe(expected.reduce((v, bit, i) => v | (bit ? 1n << BigInt(i) : 0n), 0n));
          expect(out.bytes).toBeUndefined();
        }
        expect(results[DEALER]!.outputs).toEqual([undefined]);
      }
    });
  });

  it("evaluates the published aes_128.txt to the FIPS-197 ciphertext, revealed to party 1", async () => {
    await withSessions(async (sessions) => {
      const reveal = [1] as Array<0 | 1>;
      const results = await within(
        Promise.all([
          sessions[0]!.evaluate(AES_128, { ...DEALT, inputs: { 0: FIPS_KEY }, reveal }),
          sessions[1]!.evaluate(AES_128, { ...DEALT, inputs: { 1: fromHex(FIPS_PLAINTEXT) }, reveal }),
          sessions[2]!.evaluate(AES_128, { ...DEALT, reveal }),
        ]),
        "aes_128.txt",
        30_000,
      );
      expect(results[1]!.outputs[0]!.hex).toBe(FIPS_CIPHERTEXT);
      expect(results[0]!.outputs).toEqual([undefined]);
      expect(results[1]!.onlineStats.rounds).toBe(61);
    });
  });
});

describe("bad options are typed errors before anything is sent", () => {
  it("names the protocol, variant, path, security, circuit line and input", async () => {
    await withSessions(async (sessions) => {
      const s = sessions[0]!;
      const field = (p: Promise<unknown>) => p.then(() => "resolved", (e: unknown) => e);
      const unknownProtocol = await field(s.aes({ protocol: "spdz2k" as never, key: FIPS_KEY }));
      expect(unknownProtocol).toBeInstanceOf(ConfigError);
      expect((unknownProtocol as ConfigError).field).toBe("protocol");
      const unknownVariant = await field(s.aes({ variant: "lut-17" as never, key: FIPS_KEY }));
      expect((unknownVariant as ConfigError).field).toBe("variant");
      const tables256 = await field(s.aes({ ...DEALT, protocol: "tinytable", path: "sbox-tables", keyBits: 256, key: FIPS_KEY + FIPS_KEY }));
      expect(tables256).toBeInstanceOf(NotAvailableError);
      expect(tables256).toBeInstanceOf(ConfigError);
      expect((tables256 as NotAvailableError).field).toBe("keyBits");
      const sameParty = await field(s.aes({ ...DEALT, protocol: "tinytable", path: "sbox-tables", keyHolders: [1], key: FIPS_KEY }));
      expect((sameParty as ConfigError).field).toBe("plaintextOwner");
      const badMac = await field(s.aes({ ...DEALT, protocol: "tinytable", security: "malicious", macBits: 16 as never, key: FIPS_KEY }));
      expect((badMac as ConfigError).field).toBe("macBits");
      const unknownSecurity = await field(s.aes({ security: "paranoid" as never, key: FIPS_KEY }));
      expect((unknownSecurity as ConfigError).field).toBe("security");

      const broken = SMALL_CIRCUIT.replace("2 1 1 3 5 XOR", "2 1 1 3 5 XAND");
      const parseError = await field(s.evaluate(broken, { ...DEALT, inputs: { 0: 1n } }));
      expect(parseError).toBeInstanceOf(CircuitError);
      expect((parseError as CircuitError).line).toBe(6);
      expect((parseError as CircuitError).message).toContain("line 6");
      await expect(parseCircuit("1 3\n1 1\n")).rejects.toBeInstanceOf(CircuitError);
      const wide = await field(s.evaluate(SMALL_CIRCUIT, { ...DEALT, inputs: { 0: 4n } }));
      expect((wide as ConfigError).field).toBe("inputs[0]");
      const notMine = await field(s.evaluate(SMALL_CIRCUIT, { ...DEALT, inputs: { 0: 1n, 1: 1n } }));
      expect((notMine as ConfigError).field).toBe("inputs[1]");
      const badBytes = await field(s.evaluate(AES_128, { ...DEALT, inputs: { 0: "0011" } }));
      expect((badBytes as ConfigError).field).toBe("inputs[0]");
      const dealerInput = await field(sessions[2]!.aes({ ...DEALT, protocol: "tinytable", key: FIPS_KEY }));
      expect((dealerInput as ConfigError).message).toContain("trusted dealer");
      // OT preprocessing (the default) needs a session of two: this one has the dealer's slot.
      const otInThree = await field(s.aes({ protocol: "tinytable", key: FIPS_KEY }));
      expect((otInThree as ConfigError).field).toBe("parties");
      const evaluateOtInThree = await field(s.evaluate(SMALL_CIRCUIT, { inputs: { 0: 1n } }));
      expect((evaluateOtInThree as ConfigError).message).toContain("preprocessing: 'dealer'");
      // Nothing was sent: the session still runs a job afterwards.
      const results = await within(
        Promise.all([
          s.evaluate(SMALL_CIRCUIT, { ...DEALT, inputs: { 0: 1n } }),
          sessions[1]!.evaluate(SMALL_CIRCUIT, { ...DEALT, inputs: { 1: 1n } }),
          sessions[2]!.evaluate(SMALL_CIRCUIT, DEALT),
        ]),
        "job after rejected options",
      );
      expect(results[0]!.outputs[0]!.bits).toEqual([true, false, false]);
    });
  });
});

describe("a party leaving", () => {
  it("makes the other party reject with PeerLeftError", async () => {
    await withSessions(async (sessions) => {
      let received = 0;
      sessions[1]!.on("progress", () => {
        received += 1;
        if (received === 4) void sessions[1]!.close();
      });
      const roles = { protocol: "tinytable", preprocessing: "dealer", keyHolders: [0], plaintextOwner: 1 } as const;
      const outcomes = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: FIPS_KEY }, { ...roles, plaintext: FIPS_PLAINTEXT }, roles]).map(settle)),
        "the failed job",
        20_000,
      );
      const party0 = outcomes[0]!;
      expect(party0.ok).toBe(false);
      if (!party0.ok) {
        expect(party0.error).toBeInstanceOf(PeerLeftError);
        expect((party0.error as PeerLeftError).slot).toBe(1);
      }
      expect(outcomes[1]!.ok).toBe(false);
    });
  });
});

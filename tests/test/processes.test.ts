/**
 * Three parties as three Node processes (one WASM instance and one relay connection each) compute
 * the FIPS-197 vector through a relay process.
 */
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRoom } from "@chorus/sdk";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  hex,
  startRelayProcess,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { PARTY_SCRIPT, runParty } from "./party-processes.js";

let relay: RelayProcess;
beforeAll(async () => {
  // A crashed process's connection ends without a WebSocket close frame, exactly like a network
  // drop, so the relay keeps its slot for a resume until the grace period passes; a short grace
  // keeps the crash test quick.
  relay = await startRelayProcess(["--resume-grace-ms", "1000"]);
});
afterAll(async () => {
  await relay?.stop();
});

it("three party processes compute FIPS-197 AES jointly", async () => {
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const secret = freshSecret();
  const share0 = new Uint8Array(randomBytes(16));
  const aes = [{ key: hex(share0) }, { key: hex(xor(fromHex(FIPS_KEY), share0)) }, { plaintext: FIPS_PLAINTEXT }];
  const outcomes = await Promise.all(
    [0, 1, 2].map((slot) =>
      runParty(PARTY_SCRIPT, { invite: room.invite(slot), secret, aes: aes[slot] }, dirname(PARTY_SCRIPT)),
    ),
  );
  for (const [slot, outcome] of outcomes.entries()) {
    if (!outcome.ok) throw new Error(`party ${slot} failed: ${JSON.stringify(outcome)}`);
    // In the repository the native addon is built, so the default runtime takes it, without a notice.
    expect(outcome).toMatchObject({ ok: true, slot, ciphertextHex: FIPS_CIPHERTEXT, runtime: "native" });
    expect(outcome.stderr).toBe("");
    // The default job, malicious LUT-16: MAESTRO Table 1's 2560 online bits per block.
    expect(outcome.roundsStats?.bytesSent).toBe(320);
  }
});

it("when a party process crashes mid-run, the other processes fail with PeerLeftError", async () => {
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const secret = freshSecret();
  const blocks = 50;
  const aes = [
    { key: hex(randomBytes(16)), blocks },
    { key: hex(randomBytes(16)), blocks },
    { plaintext: hex(randomBytes(16 * blocks)), blocks },
  ];
  const started = Date.now();
  const outcomes = await Promise.all(
    [0, 1, 2].map((slot) =>
      runParty(
        PARTY_SCRIPT,
        { invite: room.invite(slot), secret, aes: aes[slot], exitAfterMessages: slot === 1 ? 10 : undefined },
        dirname(PARTY_SCRIPT),
        15_000,
      ),
    ),
  );
  expect(outcomes[1]).toMatchObject({ ok: false, name: "Crashed" });
  for (const slot of [0, 2]) {
    expect(outcomes[slot], `party ${slot}`).toMatchObject({ ok: false, name: "PeerLeftError", code: "peer-left" });
    expect(outcomes[slot]!.message).toContain("party 1 left");
    expect(outcomes[slot]!.message).toContain("grace-expired");
  }
  expect(Date.now() - started).toBeLessThan(15_000);
});

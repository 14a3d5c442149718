/**
 * Resume through a real relay process: one party reaches the relay through a TCP proxy that drops
 * its connection (no close frame, like a network change) at several points of a job — during the
 * Noise handshake, between protocol rounds, in the middle of a large frame — and the job still
 * finishes with the right result, the SDK having reconnected by itself. A drop that outlasts the
 * relay's grace period fails the peers with PeerLeftError within the grace period plus a few
 * seconds. Loopback only.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connect, createRoom, PeerLeftError, RelayError, type AesOptions, type Session } from "@chorus/sdk";
import { startCutProxy, type CutProxy } from "./cut-proxy.js";
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
import { closeAll, runAes } from "./three-parties.js";

let relay: RelayProcess;
const proxies: CutProxy[] = [];
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxy(to: RelayProcess): Promise<CutProxy> {
  const started = await startCutProxy(to.port);
  proxies.push(started);
  return started;
}

/** Connects `parties` parties; party `viaProxy` reaches the relay through `cutProxy`. */
async function connectVia(to: RelayProcess, parties: number, viaProxy: number, cutProxy: CutProxy): Promise<Session[]> {
  const room = await createRoom({ relay: to.url, parties });
  const secret = freshSecret();
  return Promise.all(
    Array.from({ length: parties }, (_, slot) =>
      connect({ ...room.invite(slot), ...(slot === viaProxy ? { relay: cutProxy.url } : {}), secret }),
    ),
  );
}

async function resumesSoFar(to: RelayProcess): Promise<number> {
  const text = await (await fetch(`${to.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("chorus_relay_resumes_total "));
  return Number(line?.split(" ")[1] ?? NaN);
}

const BLOCKS = 40;
function maestroInputs(): { options: AesOptions[]; expected: string } {
  const key = new Uint8Array(randomBytes(16));
  const share0 = new Uint8Array(randomBytes(16));
  const plaintext = new Uint8Array(randomBytes(16 * BLOCKS));
  const expected = Array.from({ length: BLOCKS }, (_, b) => hex(referenceAes(key, plaintext.subarray(16 * b, 16 * b + 16)))).join("");
  return {
    options: [{ key: share0, blocks: BLOCKS }, { key: xor(key, share0), blocks: BLOCKS }, { plaintext, blocks: BLOCKS }],
    expected,
  };
}

describe("a Node party's dropped connection is resumed mid-job", () => {
  it("during the Noise handshake", async () => {
    const cutProxy = await proxy(relay);
    const sessions = await connectVia(relay, 3, 2, cutProxy);
    const before = await resumesSoFar(relay);
    try {
      const { options, expected } = maestroInputs();
      // The first bytes after this are the handshake's: cut inside its first message.
      const cut = cutProxy.cutAfter(20);
      const results = await within(Promise.all(runAes(sessions, options)), "MAESTRO AES across a cut handshake", 30_000);
      await within(cut, "the cut");
      for (const result of results) expect(result.ciphertextHex).toBe(expected);
      expect(cutProxy.accepted()).toBeGreaterThanOrEqual(2);
      expect(await resumesSoFar(relay)).toBeGreaterThan(before);
    } finally {
      await closeAll(sessions);
    }
  });

  it("between protocol rounds, twice", async () => {
    const cutProxy = await proxy(relay);
    const sessions = await connectVia(relay, 3, 2, cutProxy);
    try {
      const { options, expected } = maestroInputs();
      let progress = 0;
      let cuts = 0;
      sessions[2]!.on("progress", () => {
        progress += 1;
        if (progress === 3 || progress === 12) cuts += cutProxy.cut();
      });
      // The session forwards the relay's view: the dropped party sees its own reconnections, the
      // others see it away and back.
      const own: string[] = [];
      sessions[2]!.on("reconnecting", () => own.push("reconnecting"));
      sessions[2]!.on("reconnected", () => own.push("reconnected"));
      const seen: string[] = [];
      sessions[0]!.on("peer-away", (event) => seen.push(`away ${event.slot}`));
      sessions[0]!.on("peer-back", (event) => seen.push(`back ${event.slot}`));
      const results = await within(Promise.all(runAes(sessions, options)), "MAESTRO AES across two cuts", 30_000);
      expect(cuts).toBe(2);
      for (const result of results) expect(result.ciphertextHex).toBe(expected);
      expect(cutProxy.accepted()).toBeGreaterThanOrEqual(3);
      expect(own).toEqual(["reconnecting", "reconnected", "reconnecting", "reconnected"]);
      // Each drop the relay noticed before the resume arrived shows as away, then back (a resume
      // that takes over a connection the relay still thought open sends neither).
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.length % 2).toBe(0);
      for (let i = 0; i < seen.length; i += 2) expect(seen.slice(i, i + 2)).toEqual(["away 2", "back 2"]);
    } finally {
      await closeAll(sessions);
    }
  });

  it("in the middle of a large frame (TinyTable OT preprocessing, two parties)", async () => {
    const cutProxy = await proxy(relay);
    const sessions = await connectVia(relay, 2, 1, cutProxy);
    try {
      const share0 = new Uint8Array(randomBytes(16));
      const roles = { protocol: "tinytable", keyHolders: [0, 1], plaintextOwner: 1, security: "semi-honest" } as const;
      // Preprocessing moves megabytes in large frames: a cut this far in lands inside one.
      const cut = cutProxy.cutAfter(700_000);
      const results = await within(
        Promise.all(runAes(sessions, [{ ...roles, key: share0 }, { ...roles, key: xor(fromHex(FIPS_KEY), share0), plaintext: FIPS_PLAINTEXT }])),
        "TinyTable AES across a cut inside a large frame",
        60_000,
      );
      await within(cut, "the cut");
      for (const result of results) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
      expect(cutProxy.accepted()).toBeGreaterThanOrEqual(2);
    } finally {
      await closeAll(sessions);
    }
  });
});

describe("a drop that outlasts the grace period", () => {
  it("fails the peers with PeerLeftError within grace + a few seconds, and the dropped party too", async () => {
    const graceMs = 1500;
    const shortGrace = await startRelayProcess(["--resume-grace-ms", String(graceMs)]);
    try {
      const cutProxy = await proxy(shortGrace);
      const sessions = await connectVia(shortGrace, 3, 2, cutProxy);
      const { options } = maestroInputs();
      let cutAt = 0;
      let progress = 0;
      sessions[2]!.on("progress", () => {
        progress += 1;
        if (progress === 3) {
          cutProxy.block(true);
          cutProxy.cut();
          cutAt = Date.now();
        }
      });
      const outcomes = await within(Promise.all(runAes(sessions, options).map(settle)), "the failed job", graceMs + 10_000);
      const elapsed = Date.now() - cutAt;
      expect(cutAt).toBeGreaterThan(0);
      expect(elapsed).toBeGreaterThanOrEqual(graceMs - 100);
      expect(elapsed).toBeLessThan(graceMs + 4000);
      for (const slot of [0, 1]) {
        const outcome = outcomes[slot]!;
        expect(outcome.ok, `party ${slot}`).toBe(false);
        if (!outcome.ok) {
          expect(outcome.error).toBeInstanceOf(PeerLeftError);
          expect(outcome.error).toMatchObject({ slot: 2, reason: "grace-expired" });
        }
      }
      const own = outcomes[2]!;
      expect(own.ok).toBe(false);
      if (!own.ok) expect(own.error).toBeInstanceOf(RelayError);
      await closeAll(sessions);
    } finally {
      await shortGrace.stop();
    }
  });
});

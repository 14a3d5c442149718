/**
 * One session, two runtimes: SDK parties 0 and 1 (Node, the core as WASM) hold XOR shares of the
 * FIPS-197 key, and the native runner `chorus-party` (the core compiled natively, tokio) is party
 * 2 with the plaintext, all through a relay process. Every party must learn the FIPS-197
 * ciphertext, which only happens if the native and WASM builds speak the same channel, session-id
 * and protocol bytes.
 *
 * TinyTable: with OT preprocessing a native party and an SDK party form a two-member session; with
 * the dealer, a native party 0 and a native dealer join an SDK party 1.
 *
 * Needs `target/release/chorus-party` (`cargo build --release -p chorus-native`, which
 * scripts/test.sh does first) or CHORUS_PARTY_BIN; fails with that instruction otherwise.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connect, createRoom } from "@chorus/sdk";
import { startCutProxy } from "./cut-proxy.js";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  fromHex,
  hex,
  startRelayProcess,
  xor,
  type RelayProcess,
} from "./relay-process.js";

const PARTY_BIN =
  process.env.CHORUS_PARTY_BIN ?? fileURLToPath(new URL("../../target/release/chorus-party", import.meta.url));
const SECRET = "9f".repeat(32);

let relay: RelayProcess;
beforeAll(async () => {
  if (!existsSync(PARTY_BIN)) {
    throw new Error(`no native runner at ${PARTY_BIN}: run 'cargo build --release -p chorus-native' first`);
  }
  relay = await startRelayProcess();
});
afterAll(async () => relay?.stop());

it("two SDK parties and one native party compute FIPS-197 AES together", async () => {
  const share0 = randomBytes(16);
  const share1 = xor(fromHex(FIPS_KEY), share0);
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const invite = room.invite(2);
  const native = spawn(
    PARTY_BIN,
    ["--relay", relay.url, "--room", invite.room, "--slot", "2", "--token", invite.token, "--plaintext", FIPS_PLAINTEXT],
    { env: { ...process.env, CHORUS_SECRET: SECRET }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  native.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  native.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // "close", not "exit": only "close" comes after the child's stdout has been read to its end.
  const nativeExit = new Promise<number | null>((resolve) => native.on("close", resolve));

  const sdkCiphertexts = await Promise.all(
    [hex(share0), hex(share1)].map(async (key, slot) => {
      const session = await connect({ ...room.invite(slot), secret: SECRET, signal: AbortSignal.timeout(60_000) });
      try {
        return (await session.aes({ key })).ciphertextHex;
      } finally {
        await session.close();
      }
    }),
  );
  expect(await nativeExit, `chorus-party failed: ${stderr}`).toBe(0);
  const report = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(sdkCiphertexts).toEqual([FIPS_CIPHERTEXT, FIPS_CIPHERTEXT]);
  expect(report.ciphertext).toBe(FIPS_CIPHERTEXT);
  // The default job, malicious LUT-16: MAESTRO Table 1's 2560 online bits per party per block.
  expect(report.rounds_stats.bytes_sent * 8).toBe(2560);
}, 90_000);

/** Runs `chorus-party` with `args` and resolves with its JSON report (rejects on a failure). */
function nativeMember(args: string[]): Promise<Record<string, unknown>> {
  const native = spawn(PARTY_BIN, args, { env: { ...process.env, CHORUS_SECRET: SECRET }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  native.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  native.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // "close", not "exit": only "close" comes after the child's stdout has been read to its end, and
  // a report that does not parse rejects instead of throwing inside the event handler.
  return new Promise((resolve, reject) =>
    native.on("close", (code) => {
      if (code !== 0) return reject(new Error(`chorus-party failed: ${stderr}`));
      try {
        resolve(JSON.parse(stdout.trim().split("\n").pop()!));
      } catch {
        reject(new Error(`chorus-party printed no report: stdout=${stdout} stderr=${stderr}`));
      }
    }),
  );
}

it("TinyTable with OT preprocessing: a native party 0 and an SDK party 1, no dealer, compute FIPS-197 AES", async () => {
  const room = await createRoom({ relay: relay.url, parties: 2 });
  const invite = room.invite(0);
  const share0 = randomBytes(16);
  const share1 = xor(fromHex(FIPS_KEY), share0);
  const party0 = nativeMember([
    ...["--relay", relay.url, "--room", invite.room, "--slot", "0", "--token", invite.token],
    ...["--protocol", "tinytable", "--preprocessing", "ot", "--security", "malicious", "--key-holders", "0,1"],
    ...["--key-share", hex(share0)],
  ]);
  const session = await connect({ ...room.invite(1), secret: SECRET, signal: AbortSignal.timeout(60_000) });
  let sdk;
  try {
    sdk = await session.aes({
      protocol: "tinytable",
      preprocessing: "ot",
      security: "malicious",
      keyHolders: [0, 1],
      key: share1,
      plaintext: FIPS_PLAINTEXT,
    });
  } finally {
    await session.close();
  }
  const report0 = await party0;
  expect(sdk.ciphertextHex).toBe(FIPS_CIPHERTEXT);
  expect(sdk.preprocessing).toBe("ot");
  expect(report0.ciphertext).toBe(FIPS_CIPHERTEXT);
  // The preprocessing (OT and Fig. 8) is close to a megabyte per party, at least a 16-byte half gate
  // for each of the 6 400 AND gates; the online phase about a kilobyte.
  expect((report0.preprocessing_stats as { bytes_sent: number }).bytes_sent).toBeGreaterThan(6_400 * 16);
  expect(sdk.stats.bytesSent - sdk.roundsStats.bytesSent).toBeGreaterThan(6_400 * 16);
}, 90_000);

it("TinyTable's S-box tables over OT: a native key owner and an SDK party build them together and compute FIPS-197 AES", async () => {
  const room = await createRoom({ relay: relay.url, parties: 2 });
  const invite = room.invite(0);
  const party0 = nativeMember([
    ...["--relay", relay.url, "--room", invite.room, "--slot", "0", "--token", invite.token],
    ...["--protocol", "tinytable", "--path", "sbox-tables", "--preprocessing", "ot", "--security", "malicious"],
    ...["--key-share", FIPS_KEY],
  ]);
  const session = await connect({ ...room.invite(1), secret: SECRET, signal: AbortSignal.timeout(60_000) });
  let sdk;
  try {
    sdk = await session.aes({ protocol: "tinytable", path: "sbox-tables", security: "malicious", plaintext: FIPS_PLAINTEXT });
  } finally {
    await session.close();
  }
  const report0 = await party0;
  expect(sdk.ciphertextHex).toBe(FIPS_CIPHERTEXT);
  expect(sdk).toMatchObject({ variant: "sbox-tables", preprocessing: "ot" });
  expect(report0.ciphertext).toBe(FIPS_CIPHERTEXT);
  // Both built the tables (the §4 construction over TinyOT: at least a 16-byte half gate for each of
  // its 39 520 AND triples); the online phase is 12 rounds.
  expect((report0.preprocessing_stats as { bytes_sent: number }).bytes_sent).toBeGreaterThan(39_520 * 16);
  expect(sdk.roundsStats.rounds).toBe(12);
}, 90_000);

it("TinyTable: a native party 0 and a native dealer with an SDK party 1 compute FIPS-197 AES", async () => {
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const common = (slot: number) => {
    const invite = room.invite(slot);
    return [
      ...["--relay", relay.url, "--room", invite.room, "--slot", String(slot), "--token", invite.token],
      ...["--protocol", "tinytable", "--preprocessing", "dealer"],
    ];
  };
  const party0 = nativeMember([...common(0), "--key-share", FIPS_KEY]);
  const dealer = nativeMember(common(2));
  const session = await connect({ ...room.invite(1), secret: SECRET, signal: AbortSignal.timeout(60_000) });
  let sdk;
  try {
    sdk = await session.aes({ protocol: "tinytable", preprocessing: "dealer", plaintext: FIPS_PLAINTEXT });
  } finally {
    await session.close();
  }
  const [report0, reportDealer] = await Promise.all([party0, dealer]);
  expect(sdk.ciphertextHex).toBe(FIPS_CIPHERTEXT);
  expect(report0.ciphertext).toBe(FIPS_CIPHERTEXT);
  expect(reportDealer.ciphertext).toBeUndefined();
  // Online phase of party 0: its 16 masked key bytes and 820 bytes of AND-layer openings.
  expect((report0.rounds_stats as { bytes_sent: number }).bytes_sent).toBe(16 + 820);
}, 90_000);

it("chorus-party refuses unavailable combinations and unknown variants before connecting", async () => {
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const invite = room.invite(0);
  const base = ["--relay", relay.url, "--room", invite.room, "--slot", "0", "--token", invite.token, "--key-share", FIPS_KEY];
  await expect(nativeMember([...base, "--variant", "lut17"])).rejects.toThrow(/--variant/);
  const tinytable = [...base, "--protocol", "tinytable", "--security", "malicious"];
  await expect(nativeMember([...tinytable, "--mac-bits", "16"])).rejects.toThrow(/--mac-bits/);
  await expect(nativeMember([...tinytable, "--path", "sbox-tables", "--key-holders", "1", "--preprocessing", "dealer"])).rejects.toThrow(
    /with one key holder the S-box-table path needs the plaintextOwner/,
  );
  await expect(nativeMember([...tinytable, "--path", "sbox-tables", "--mac-bits", "32"])).rejects.toThrow(/not available.*k = 64 only/);
});

it("the native runner speaks protocol 2: with SDK parties, its socket cut mid-job, it resumes and the job finishes", async () => {
  // A relay that admits protocol 2 only; party 2 (native) reaches it through a proxy that drops the
  // connection in the middle of the job, mid-frame, with no close frame either way.
  const strict = await startRelayProcess(["--min-protocol", "2"]);
  const cutProxy = await startCutProxy(strict.port);
  try {
    const blocks = 64;
    const share0 = randomBytes(16);
    const share1 = xor(fromHex(FIPS_KEY), share0);
    const room = await createRoom({ relay: strict.url, parties: 3 });
    const invite = room.invite(2);
    const cut = cutProxy.cutAfter(12_000);
    const native = nativeMember([
      "--relay", cutProxy.url, "--room", invite.room, "--slot", "2", "--token", invite.token,
      "--plaintext", FIPS_PLAINTEXT.repeat(blocks), "--blocks", String(blocks),
    ]);
    const sdkCiphertexts = await Promise.all(
      [hex(share0), hex(share1)].map(async (key, slot) => {
        const session = await connect({ ...room.invite(slot), secret: SECRET, signal: AbortSignal.timeout(60_000) });
        try {
          return (await session.aes({ key, blocks })).ciphertextHex;
        } finally {
          await session.close();
        }
      }),
    );
    await cut;
    const report = await native;
    expect(sdkCiphertexts).toEqual([FIPS_CIPHERTEXT.repeat(blocks), FIPS_CIPHERTEXT.repeat(blocks)]);
    expect(report.ciphertext).toBe(FIPS_CIPHERTEXT.repeat(blocks));
    expect(cutProxy.accepted(), "the native party connected again").toBeGreaterThanOrEqual(2);
    const metrics = await (await fetch(`${strict.url}/metrics`)).text();
    expect(metrics).toMatch(/^chorus_relay_resumes_total [1-9]/m);
  } finally {
    await cutProxy.close();
    await strict.stop();
  }
}, 90_000);

/**
 * Abuse resistance of a real relay process with its default per-address limits: one client
 * address (127.0.0.2) floods room creations and WebSocket upgrades while another (127.0.0.1)
 * creates a room and runs a full three-party AES job through the SDK. The flood is throttled
 * (429 rate-limited, too-many-pending-rooms) and the job finishes correctly. Loopback only: Linux
 * routes all of 127/8, so a client socket bound to 127.0.0.2 is a different client address.
 */
import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { connect, createRoom } from "@chorus/sdk";
import { FIPS_CIPHERTEXT, FIPS_KEY, FIPS_PLAINTEXT, freshSecret, fromHex, startRelayProcess, within, xor, type RelayProcess } from "./relay-process.js";

/** The relay's defaults, restated: later flags win over the test helper's generous ones. */
const DEFAULT_LIMITS = [
  "--room-rate", "60", "--room-burst", "20",
  "--upgrade-rate", "600", "--upgrade-burst", "100",
  "--max-pending-rooms", "20", "--max-connections-per-address", "100",
];
const FLOODER = "127.0.0.2";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess(DEFAULT_LIMITS);
});
afterAll(async () => {
  await relay?.stop();
});

function postRoomFrom(localAddress: string): Promise<{ status: number; code: string | undefined }> {
  return new Promise((resolve) => {
    const req = request(`${relay.url}/rooms`, { method: "POST", localAddress, headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(body) as { code?: string }).code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode ?? 0, code });
      });
    });
    req.on("error", () => resolve({ status: 0, code: "network" }));
    req.end(JSON.stringify({ parties: 2 }));
  });
}

function upgradeFrom(localAddress: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${relay.url.replace("http", "ws")}/ws?room=nope&slot=0&token=nope&protocol=2`, { localAddress });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on("open", () => {
      resolve(101);
      ws.close();
    });
    ws.on("error", () => resolve(0));
  });
}

it("throttles a flood from one address while another address runs a full SDK job", async () => {
  const floodStart = Date.now();
  let flooding = true;
  const rooms: Record<string, number> = {};
  const upgrades: Record<number, number> = {};
  const flood = (async () => {
    while (flooding) {
      const batch = await Promise.all([
        ...Array.from({ length: 10 }, () => postRoomFrom(FLOODER)),
        ...Array.from({ length: 10 }, () => upgradeFrom(FLOODER)),
      ]);
      for (const outcome of batch) {
        if (typeof outcome === "number") upgrades[outcome] = (upgrades[outcome] ?? 0) + 1;
        else rooms[outcome.code ?? String(outcome.status)] = (rooms[outcome.code ?? String(outcome.status)] ?? 0) + 1;
      }
    }
  })();
  try {
    // Let the flood use up its buckets first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const secret = freshSecret();
    const share0 = fromHex("00112233445566778899aabbccddeeff");
    const sessions = await Promise.all([0, 1, 2].map((slot) => connect({ ...room.invite(slot), secret })));
    const results = await within(
      Promise.all([
        sessions[0]!.aes({ key: share0 }),
        sessions[1]!.aes({ key: xor(fromHex(FIPS_KEY), share0) }),
        sessions[2]!.aes({ plaintext: FIPS_PLAINTEXT }),
      ]),
      "the AES job during the flood",
      30_000,
    );
    for (const result of results) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    await Promise.all(sessions.map((s) => s.close()));
  } finally {
    flooding = false;
    await flood;
  }
  const floodSeconds = (Date.now() - floodStart) / 1000;
  const created = rooms["201"] ?? 0;
  const refusedRooms = (rooms["rate-limited"] ?? 0) + (rooms["too-many-pending-rooms"] ?? 0);
  console.log(`[abuse] flood: rooms ${JSON.stringify(rooms)}, upgrades ${JSON.stringify(upgrades)}`);
  // 20 in the burst; the pending-room quota (20) stops the refill from adding more.
  expect(created).toBeGreaterThan(0);
  expect(created).toBeLessThanOrEqual(20);
  expect(refusedRooms).toBeGreaterThan(created);
  expect(upgrades[429] ?? 0).toBeGreaterThan(0);
  // The upgrade bucket: 100 at once, then 600 a minute.
  expect(upgrades[101] ?? 0).toBeLessThanOrEqual(100 + Math.ceil(10 * floodSeconds));
  const metrics = await (await fetch(`${relay.url}/metrics`)).text();
  expect(metrics).toMatch(/chorus_relay_refusals_total\{code="rate-limited"\} [1-9]/);
}, 60_000);

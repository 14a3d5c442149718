/**
 * Abuse resistance: per-address rate limits on room creation and upgrades, the pending-room and
 * connection quotas, X-Forwarded-For from trusted proxies only, and admission tokens (missing,
 * wrong, rotated through the token file). Clients use distinct loopback source addresses.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RelayOptions } from "../src/config.js";
import { CloseCode } from "../src/protocol.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import type { CreatedRoom } from "../src/rooms.js";
import { eventually, fillRoom, PartyClient, postRoom } from "./helpers.js";

const running: RelayHandle[] = [];
const cleanups: Array<() => Promise<void>> = [];

async function relayWith(options: RelayOptions): Promise<RelayHandle> {
  const relay = await startRelay({ host: "127.0.0.1", port: 0, logLevel: "silent", ...options });
  running.push(relay);
  return relay;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((relay) => relay.close()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe("room creation limits", () => {
  it("throttles one address with 429 rate-limited and Retry-After while another address goes on", async () => {
    const relay = await relayWith({ roomBurst: 3, roomRatePerMinute: 1 });
    for (let i = 0; i < 3; i += 1) expect((await postRoom(relay.url, 2)).status).toBe(201);
    const refused = await postRoom(relay.url, 2);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ type: "error", code: "rate-limited" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const other = await postRoom(relay.url, 2, { localAddress: "127.0.0.2" });
    expect(other.status).toBe(201);
  });

  it("caps the rooms an address created that are not full yet, and frees the quota when one fills", async () => {
    const relay = await relayWith({ maxPendingRoomsPerAddress: 2 });
    const first = (await postRoom(relay.url, 2)).body as CreatedRoom;
    expect((await postRoom(relay.url, 2)).status).toBe(201);
    const refused = await postRoom(relay.url, 2);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "too-many-pending-rooms" });
    // Another address has its own quota.
    expect((await postRoom(relay.url, 2, { localAddress: "127.0.0.3" })).status).toBe(201);
    // Once a room is full it no longer counts as pending.
    await fillRoom(relay.wsUrl, first);
    expect((await postRoom(relay.url, 2)).status).toBe(201);
  });

  it("gives the quota back when an unjoined room expires, so one client cannot pin maxRooms", async () => {
    const relay = await relayWith({ maxPendingRoomsPerAddress: 2, roomTtlMs: 100, maxRooms: 3 });
    expect((await postRoom(relay.url, 2)).status).toBe(201);
    expect((await postRoom(relay.url, 2)).status).toBe(201);
    expect((await postRoom(relay.url, 2)).status).toBe(429);
    // The flooding address holds 2 of 3 rooms; another address still gets one.
    expect((await postRoom(relay.url, 2, { localAddress: "127.0.0.2" })).status).toBe(201);
    await eventually(() => relay.stats().rooms === 0, 3000, "unjoined rooms to expire");
    expect((await postRoom(relay.url, 2)).status).toBe(201);
  });
});

describe("upgrade limits", () => {
  it("answers upgrades past the rate with HTTP 429 before any WebSocket exists", async () => {
    const relay = await relayWith({ upgradeBurst: 2, upgradeRatePerMinute: 1 });
    const room = (await postRoom(relay.url, 3)).body as CreatedRoom;
    await PartyClient.join(relay.wsUrl, room, 0);
    await PartyClient.join(relay.wsUrl, room, 1);
    await expect(PartyClient.join(relay.wsUrl, room, 2)).rejects.toThrow(/429/);
    const other = await PartyClient.join(relay.wsUrl, room, 2, { localAddress: "127.0.0.2" });
    expect((await other.control("ready")).roster).toEqual([0, 1, 2]);
  });

  it("caps open connections per address with too-many-connections (close 4009)", async () => {
    const relay = await relayWith({ maxConnectionsPerAddress: 2 });
    const room = (await postRoom(relay.url, 3)).body as CreatedRoom;
    const zero = await PartyClient.join(relay.wsUrl, room, 0);
    await PartyClient.join(relay.wsUrl, room, 1);
    const third = await PartyClient.join(relay.wsUrl, room, 2);
    expect(await third.control("error")).toMatchObject({ code: "too-many-connections", fatal: true });
    expect((await third.closed()).code).toBe(CloseCode.TooManyConnections);
    const elsewhere = await PartyClient.join(relay.wsUrl, room, 2, { localAddress: "127.0.0.2" });
    await elsewhere.control("ready");
    // A closed connection gives its unit back.
    zero.close();
    await zero.closed();
    const again = await PartyClient.join(relay.wsUrl, room, 0);
    expect((await again.control("welcome")).slot).toBe(0);
  });
});

describe("X-Forwarded-For", () => {
  it("keys limits by the forwarded address behind a trusted proxy only", async () => {
    const relay = await relayWith({ roomBurst: 1, roomRatePerMinute: 1, trustedProxies: ["127.0.0.1/32"] });
    const via = (client: string) => ({ headers: { "X-Forwarded-For": client } });
    expect((await postRoom(relay.url, 2, via("203.0.113.7"))).status).toBe(201);
    expect((await postRoom(relay.url, 2, via("203.0.113.7"))).status).toBe(429);
    // A client-written entry left of a real one is ignored: the proxy appended 203.0.113.8.
    expect((await postRoom(relay.url, 2, via("203.0.113.7, 203.0.113.8"))).status).toBe(201);
    // An untrusted peer's header is ignored: it is limited by its own address.
    expect((await postRoom(relay.url, 2, { localAddress: "127.0.0.2", ...via("198.51.100.1") })).status).toBe(201);
    expect((await postRoom(relay.url, 2, { localAddress: "127.0.0.2", ...via("198.51.100.2") })).status).toBe(429);
  });

  it("applies to WebSocket upgrades too", async () => {
    const relay = await relayWith({ maxConnectionsPerAddress: 1, trustedProxies: ["127.0.0.1"] });
    const room = (await postRoom(relay.url, 2)).body as CreatedRoom;
    const a = await PartyClient.join(relay.wsUrl, room, 0, { headers: { "X-Forwarded-For": "192.0.2.1" } });
    const b = await PartyClient.join(relay.wsUrl, room, 1, { headers: { "X-Forwarded-For": "192.0.2.2" } });
    await a.control("ready");
    await b.control("ready");
  });
});

describe("admission tokens", () => {
  async function tokenFile(contents: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "chorus-admission-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, "tokens");
    await writeFile(file, contents);
    return file;
  }
  const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

  it("refuses a missing token with 401 and a wrong one with 403, admits a listed one", async () => {
    const file = await tokenFile("# operators' tokens\nalpha-token-1\n\nbeta-token-2\n");
    const relay = await relayWith({ admissionTokensFile: file });
    const missing = await postRoom(relay.url, 2);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: "admission-required" });
    expect(missing.headers["www-authenticate"]).toContain("Bearer");
    const wrong = await postRoom(relay.url, 2, bearer("gamma"));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ code: "bad-admission-token" });
    expect((await postRoom(relay.url, 2, { headers: { Authorization: "Basic abc" } })).status).toBe(401);
    expect((await postRoom(relay.url, 2, bearer("alpha-token-1"))).status).toBe(201);
    expect((await postRoom(relay.url, 2, bearer("beta-token-2"))).status).toBe(201);
  });

  it("picks up a rotated token file without a restart", async () => {
    const file = await tokenFile("old-token\n");
    const relay = await relayWith({ admissionTokensFile: file });
    expect((await postRoom(relay.url, 2, bearer("old-token"))).status).toBe(201);
    await writeFile(file, "old-token\nnew-token\n");
    expect((await postRoom(relay.url, 2, bearer("new-token"))).status).toBe(201);
    await writeFile(file, "new-token-only-now\n");
    expect((await postRoom(relay.url, 2, bearer("old-token"))).status).toBe(403);
    expect((await postRoom(relay.url, 2, bearer("new-token-only-now"))).status).toBe(201);
  });

  it("accepts tokens given as options, and keeps the last good tokens if the file goes away", async () => {
    const file = await tokenFile("file-token\n");
    const relay = await relayWith({ admissionTokensFile: file, admissionTokens: ["option-token"] });
    expect((await postRoom(relay.url, 2, bearer("option-token"))).status).toBe(201);
    await rm(file);
    expect((await postRoom(relay.url, 2, bearer("file-token"))).status).toBe(201);
  });

  it("does not require tokens for joining (browsers cannot send the header)", async () => {
    const relay = await relayWith({ admissionTokens: ["t0ken"] });
    const room = (await postRoom(relay.url, 2, bearer("t0ken"))).body as CreatedRoom;
    const clients = await fillRoom(relay.wsUrl, room);
    expect(clients).toHaveLength(2);
  });
});

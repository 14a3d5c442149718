/**
 * Limits and lifecycle: health endpoint, room cap, room expiry, idle timeout, heartbeat, and
 * graceful in-process shutdown. Each test starts its own relay with tiny limits.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { CloseCode } from "../src/protocol.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import type { RelayOptions } from "../src/config.js";
import { createRoom, eventually, fillRoom, PartyClient, patternBytes } from "./helpers.js";

const running: RelayHandle[] = [];

async function relayWith(options: RelayOptions): Promise<RelayHandle> {
  const relay = await startRelay({ host: "127.0.0.1", port: 0, ...options });
  running.push(relay);
  return relay;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((relay) => relay.close()));
});

describe("health endpoint", () => {
  it("reports room and connection counts and nothing secret", async () => {
    const relay = await relayWith({});
    const room = await createRoom(relay.url, 3);
    const clients = [await PartyClient.join(relay.wsUrl, room, 0), await PartyClient.join(relay.wsUrl, room, 1)];
    await clients[1]!.control("welcome");
    const response = await fetch(`${relay.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const text = await response.text();
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "ok", rooms: 1, connections: 2, pausedConnections: 0 });
    expect(typeof body.uptimeSeconds).toBe("number");
    expect(text).not.toContain(room.room);
    for (const token of room.tokens) expect(text).not.toContain(token);
    for (const client of clients) client.close();
    await eventually(async () => {
      const after = (await (await fetch(`${relay.url}/healthz`)).json()) as { rooms: number; connections: number };
      return after.rooms === 0 && after.connections === 0;
    }, 3000, "room removal after everyone left");
  });
});

describe("max rooms", () => {
  it("refuses rooms past the cap with 503 and accepts again once one is gone", async () => {
    const relay = await relayWith({ maxRooms: 2 });
    const first = await createRoom(relay.url, 2);
    await createRoom(relay.url, 2);
    const refused = await fetch(`${relay.url}/rooms`, { method: "POST", body: '{"parties":2}' });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ type: "error", code: "too-many-rooms" });
    const clients = await fillRoom(relay.wsUrl, first);
    for (const client of clients) client.close();
    await eventually(() => relay.stats().rooms === 1, 3000, "first room removed");
    const again = await createRoom(relay.url, 2);
    expect(again.tokens).toHaveLength(2);
  });
});

describe("room expiry", () => {
  it("deletes a room nobody joined within the TTL", async () => {
    const relay = await relayWith({ roomTtlMs: 50 });
    const room = await createRoom(relay.url, 2);
    expect(room.expiresAt - Date.now()).toBeLessThanOrEqual(50);
    await eventually(() => relay.stats().rooms === 0, 2000, "room expiry");
    const late = await PartyClient.join(relay.wsUrl, room, 0);
    expect((await late.control("error")).code).toBe("unknown-room");
    expect((await late.closed()).code).toBe(CloseCode.UnknownRoom);
  });

  it("keeps a room once a party joined before the TTL", async () => {
    const relay = await relayWith({ roomTtlMs: 300 });
    const room = await createRoom(relay.url, 2);
    const zero = await PartyClient.join(relay.wsUrl, room, 0);
    await zero.control("welcome");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const one = await PartyClient.join(relay.wsUrl, room, 1);
    expect(await one.control("ready")).toEqual({ type: "ready", roster: [0, 1] });
    zero.close();
    one.close();
  });
});

describe("idle timeout", () => {
  it("drops parties that exchange no data frames, and keeps active ones", async () => {
    const relay = await relayWith({ idleTimeoutMs: 600 });
    // Taken before anyone joins, so every party's idle deadline lies at least 600 ms after it.
    const started = Date.now();
    const idle = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
    const active = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
    let sent = 0;
    const ticker = setInterval(() => {
      active[sent % 2]!.sendTo((sent + 1) % 2, patternBytes(sent, 16));
      sent += 1;
    }, 40);
    try {
      for (const client of idle) {
        const error = await client.control("error", 0, 4000);
        expect(error).toMatchObject({ code: "idle-timeout", fatal: true });
        expect((await client.closed()).code).toBe(CloseCode.IdleTimeout);
      }
      expect(Date.now() - started).toBeGreaterThanOrEqual(590);
      await new Promise((resolve) => setTimeout(resolve, 800));
      for (const client of active) expect(client.closeInfo).toBeUndefined();
      expect(active[0]!.data.length + active[1]!.data.length).toBeGreaterThan(5);
    } finally {
      clearInterval(ticker);
    }
    for (const client of active) client.close();
  });
});

describe("heartbeat", () => {
  it("drops a party that stops answering pings and tells the others it timed out", async () => {
    const relay = await relayWith({ heartbeatIntervalMs: 150 });
    const room = await createRoom(relay.url, 2);
    const zero = await PartyClient.join(relay.wsUrl, room, 0);
    const silent = await PartyClient.join(relay.wsUrl, room, 1, { autoPong: false });
    await zero.control("ready");
    expect(await zero.control("peer-left", 0, 3000)).toEqual({
      type: "peer-left",
      slot: 1,
      roster: [0],
      reason: "timeout",
    });
    await silent.closed();
    // The answering party survives several more heartbeats.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(zero.closeInfo).toBeUndefined();
    zero.close();
  });
});

describe("graceful shutdown in process", () => {
  it("closes every party with 1001 and stops accepting connections", async () => {
    const relay = await startRelay({ host: "127.0.0.1", port: 0 });
    const clients = await fillRoom(relay.wsUrl, await createRoom(relay.url, 3));
    await relay.close();
    for (const client of clients) expect((await client.closed()).code).toBe(CloseCode.GoingAway);
    const refused = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(`${relay.wsUrl}?room=x&slot=0&token=y`);
      ws.on("open", () => resolve(false));
      ws.on("error", () => resolve(true));
    });
    expect(refused).toBe(true);
    await relay.close();
  });
});

/**
 * Operations: the Prometheus `/metrics` endpoint and the structured JSON log (levels, and never a
 * token, an admission credential or a payload byte in it).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RelayOptions } from "../src/config.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import type { CreatedRoom } from "../src/rooms.js";
import { eventually, fillRoom, PartyClient, postRoom, request } from "./helpers.js";

const running: RelayHandle[] = [];

async function relayWith(options: RelayOptions, lines?: string[]): Promise<RelayHandle> {
  const sink = lines === undefined ? undefined : (line: string) => void lines.push(line);
  const relay = await startRelay({ host: "127.0.0.1", port: 0, logLevel: "silent", ...options }, { logSink: sink });
  running.push(relay);
  return relay;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((relay) => relay.close()));
});

/** The value of an unlabelled or labelled sample in Prometheus text. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("exposes rooms, connections, routed frames and bytes, refusals by code, buffers and paused senders", async () => {
    const relay = await relayWith({ roomBurst: 2, roomRatePerMinute: 1 });
    const room = (await postRoom(relay.url, 2)).body as CreatedRoom;
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    zero!.sendTo(1, Buffer.from("abc"));
    zero!.sendTo(1, Buffer.from("de"));
    one!.sendTo(0, Buffer.from("f"));
    await one!.dataFrames(2);
    await zero!.dataFrames(1);
    const intruder = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 0, token: "wrong" });
    await intruder.closed();
    await postRoom(relay.url, 2);
    expect((await postRoom(relay.url, 2)).status).toBe(429);

    const response = await request(`${relay.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body as string;
    expect(sample(text, "chorus_relay_rooms")).toBe(2);
    expect(sample(text, "chorus_relay_connections")).toBe(2);
    expect(sample(text, "chorus_relay_frames_routed_total")).toBe(3);
    expect(sample(text, "chorus_relay_bytes_routed_total")).toBe(4 + 3 + 2);
    expect(sample(text, "chorus_relay_rooms_created_total")).toBe(2);
    expect(sample(text, "chorus_relay_joins_total")).toBe(2);
    expect(sample(text, 'chorus_relay_refusals_total{code="bad-token"}')).toBe(1);
    expect(sample(text, 'chorus_relay_refusals_total{code="rate-limited"}')).toBe(1);
    expect(sample(text, "chorus_relay_buffered_bytes")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "chorus_relay_paused_senders")).toBe(0);
    expect(text).toContain("# TYPE chorus_relay_frames_routed_total counter");
    expect(text).toContain("chorus_relay_process_resident_memory_bytes");
    expect(text).not.toContain(room.room);
    for (const token of room.tokens) expect(text).not.toContain(token);

    zero!.close();
    await eventually(async () => {
      const later = (await request(`${relay.url}/metrics`)).body as string;
      return sample(later, 'chorus_relay_departures_total{reason="closed"}') === 1;
    }, 3000, "the departure to be counted");
  });

  it("keeps counters monotonic across scrapes and answers other methods with 405", async () => {
    const relay = await relayWith({});
    const room = (await postRoom(relay.url, 2)).body as CreatedRoom;
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    zero!.sendTo(1, Buffer.from("x"));
    await one!.dataFrames(1);
    const first = sample((await request(`${relay.url}/metrics`)).body as string, "chorus_relay_frames_routed_total");
    zero!.sendTo(1, Buffer.from("y"));
    await one!.dataFrames(2);
    const second = sample((await request(`${relay.url}/metrics`)).body as string, "chorus_relay_frames_routed_total");
    expect([first, second]).toEqual([1, 2]);
    expect((await request(`${relay.url}/metrics`, { method: "POST" })).status).toBe(405);
  });
});

describe("structured logs", () => {
  it("writes one JSON object per line with a level and never a token or payload", async () => {
    const lines: string[] = [];
    const relay = await relayWith({ logLevel: "debug", admissionTokens: ["admission-secret-1"] }, lines);
    const created = await postRoom(relay.url, 2, { headers: { Authorization: "Bearer admission-secret-1" } });
    await postRoom(relay.url, 2, { headers: { Authorization: "Bearer wrong-admission-guess" } });
    const room = created.body as CreatedRoom;
    const [zero, one] = await fillRoom(relay.wsUrl, room);
    zero!.sendTo(1, Buffer.from("PAYLOAD-MARKER-0123456789"));
    await one!.dataFrames(1);
    const bad = await PartyClient.connect(relay.wsUrl, { room: room.room, slot: 1, token: "guessed-slot-token" });
    await bad.closed();
    zero!.close();
    one!.close();
    await eventually(() => lines.some((l) => l.includes('"event":"left"')), 3000, "the departure log line");
    await relay.close();

    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const event of events) {
      expect(["debug", "info", "warn", "error"]).toContain(event.level);
      expect(typeof event.event).toBe("string");
      expect(Number.isNaN(Date.parse(event.time as string))).toBe(false);
    }
    const names = events.map((e) => e.event);
    for (const name of ["listening", "room-created", "room-refused", "joined", "join-refused", "left", "closed"]) {
      expect(names).toContain(name);
    }
    const all = lines.join("");
    for (const secret of [...room.tokens, "admission-secret-1", "wrong-admission-guess", "guessed-slot-token", "PAYLOAD-MARKER"]) {
      expect(all).not.toContain(secret);
    }
  });

  it("logs nothing below the configured level", async () => {
    const lines: string[] = [];
    const relay = await relayWith({ logLevel: "warn" }, lines);
    await fillRoom(relay.wsUrl, (await postRoom(relay.url, 2)).body as CreatedRoom);
    await relay.close();
    expect(lines).toEqual([]);
  });
});

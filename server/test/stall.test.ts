/**
 * A party that stops reading is the one dropped (`stalled`), never the sender the relay paused on
 * its behalf, and never a party that reads slowly; the queues towards a stalled reader are capped
 * in frames as well as bytes, so tiny frames cannot grow the relay; a connection past its frame
 * budget is paused, not dropped, and loses nothing.
 */
import { connect as tcpConnect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RelayOptions } from "../src/config.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import { createRoom, eventually, fillRoom, PartyClient, patternBytes } from "./helpers.js";

let relay: RelayHandle | undefined;
const clients: PartyClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.ws.terminate();
  await relay?.close();
  relay = undefined;
});

async function room(options: RelayOptions, protocol = 1): Promise<PartyClient[]> {
  relay = await startRelay({ host: "127.0.0.1", port: 0, ...options });
  const created = await createRoom(relay.url, 2);
  const parties: PartyClient[] = [];
  for (let slot = 0; slot < 2; slot += 1) {
    const query = { room: created.room, slot, token: created.tokens[slot]!, protocol };
    parties.push(await PartyClient.connect(relay.wsUrl, query));
  }
  await Promise.all(parties.map((party) => party.control("ready")));
  clients.push(...parties);
  return parties;
}

/** Stops the client from reading its socket (its TCP window fills, then the relay's queue). */
function stopReading(client: PartyClient): void {
  (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
}

function startReading(client: PartyClient): void {
  (client.ws as unknown as { _socket: { resume(): void } })._socket.resume();
}

/**
 * Keeps `sender`'s own buffer topped up with frames for slot 1 until `stop()` is called; returns how
 * many it sent.
 */
function flood(sender: PartyClient, payloadBytes: number): { stop(): number } {
  let sent = 0;
  let running = true;
  const pump = (): void => {
    if (!running || sender.ws.readyState !== sender.ws.OPEN) return;
    for (let i = 0; i < 512 && sender.ws.bufferedAmount < 4 * 1024 * 1024; i += 1) {
      sender.sendTo(1, patternBytes(sent, payloadBytes));
      sent += 1;
    }
    setTimeout(pump, 1);
  };
  pump();
  return {
    stop: () => {
      running = false;
      return sent;
    },
  };
}

describe("a reader that stops reading", () => {
  it("is dropped as stalled; the paused sender is kept though its pongs go unread", async () => {
    const [sender, reader] = await room({
      stallTimeoutMs: 1500,
      heartbeatIntervalMs: 200,
      maxBufferedBytes: 256 * 1024,
    });
    stopReading(reader!);
    const pump = flood(sender!, 16 * 1024);
    await eventually(() => relay!.stats().pausedConnections === 1, 10_000, "the sender paused");
    // Several heartbeat intervals pass while the sender is paused: it must not time out.
    const left = await sender!.control("peer-left", 0, 15_000);
    pump.stop();
    expect(left).toMatchObject({ slot: 1, reason: "stalled" });
    expect(sender!.closeInfo).toBeUndefined();
    expect(sender!.ws.readyState).toBe(sender!.ws.OPEN);
    await eventually(() => relay!.stats().connections === 1, 3000, "the stalled reader gone");
    expect(relay!.stats()).toMatchObject({ bufferedFrames: 0, pausedConnections: 0 });
  }, 30_000);

  it("with protocol 2 is away (stalled) and may resume; without a resume its slot ends as stalled", async () => {
    const [sender, reader] = await room(
      { stallTimeoutMs: 1000, heartbeatIntervalMs: 200, resumeGraceMs: 800, maxBufferedBytes: 256 * 1024 },
      2,
    );
    stopReading(reader!);
    const pump = flood(sender!, 16 * 1024);
    const away = await sender!.control("peer-away", 0, 15_000);
    expect(away).toMatchObject({ slot: 1, reason: "stalled" });
    const left = await sender!.control("peer-left", 0, 5000);
    pump.stop();
    expect(left).toMatchObject({ slot: 1, reason: "stalled" });
    expect(sender!.ws.readyState).toBe(sender!.ws.OPEN);
  }, 30_000);

  it("keeps a party that reads slowly but steadily, and delivers every frame in order", async () => {
    // The pauses are a tenth of the stall timeout and under half the heartbeat interval: a loaded
    // machine (other builds, other test files) may delay this process's timers by a second or
    // more without the reader stalling. (A pause longer than the interval, once the relay has
    // written everything and pinged, may rightly count as a dead connection: PROTOCOL.md §4.)
    const [sender, reader] = await room({
      stallTimeoutMs: 4000,
      heartbeatIntervalMs: 1000,
      maxBufferedBytes: 128 * 1024,
    });
    const frames = 1500;
    const size = 32 * 1024;
    for (let i = 0; i < frames; i += 1) sender!.sendTo(1, patternBytes(i, size));
    // Reads in short bursts with pauses: never 4 s without reading.
    let reading = false;
    const toggler = setInterval(() => {
      reading = !reading;
      if (reading) startReading(reader!);
      else stopReading(reader!);
    }, 400);
    stopReading(reader!);
    try {
      const received = await reader!.dataFrames(frames, 60_000);
      received.forEach((frame, index) => {
        if (frame[0] !== 0 || !frame.subarray(1).equals(patternBytes(index, size))) {
          throw new Error(`frame ${index} lost, reordered or altered`);
        }
      });
    } finally {
      clearInterval(toggler);
    }
    startReading(reader!);
    expect(sender!.controls.some((m) => m.type === "peer-left")).toBe(false);
    expect(reader!.closeInfo).toBeUndefined();
  }, 90_000);
});

describe("heartbeat", () => {
  it("does not judge a party while frames are still written to it, and drops it once they stop and no pong comes", async () => {
    // The reader never answers a ping; it reads every frame at once, so the relay's queue towards
    // it is empty at almost every beat. Frames written since the last beat are its sign of life
    // (its ping would wait behind them in the kernel's buffers); once they stop, the ping decides.
    relay = await startRelay({ host: "127.0.0.1", port: 0, heartbeatIntervalMs: 250, stallTimeoutMs: 60_000 });
    const created = await createRoom(relay.url, 2);
    const sender = await PartyClient.join(relay.wsUrl, created, 0);
    const reader = await PartyClient.join(relay.wsUrl, created, 1, { autoPong: false });
    clients.push(sender, reader);
    await Promise.all([sender, reader].map((party) => party.control("ready")));
    // One frame every 10 ms for about eight heartbeat intervals (timers of one process: a delay
    // holds the relay's heartbeat back as well).
    const frames = 200;
    let sent = 0;
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        sender.sendTo(1, patternBytes(sent, 100));
        sent += 1;
        if (sent === frames) {
          clearInterval(tick);
          resolve();
        }
      }, 10);
    });
    const received = await reader.dataFrames(frames, 10_000);
    expect(Date.now() - started).toBeGreaterThan(1000);
    received.forEach((frame, index) => {
      if (!frame.subarray(1).equals(patternBytes(index, 100))) throw new Error(`frame ${index} altered`);
    });
    expect(reader.closeInfo).toBeUndefined();
    expect(sender.controls.some((m) => m.type === "peer-left")).toBe(false);
    // Nothing more is written: one beat pings, the next finds no pong.
    const left = await sender.control("peer-left", 0, 5000);
    expect(left).toMatchObject({ slot: 1, reason: "timeout" });
  }, 30_000);
});

describe("queues capped in frames", () => {
  it("holds small frames to a stalled reader under maxBufferedFrames plus one socket read, and delivers all later", async () => {
    const maxFrames = 256;
    const PAYLOAD = 63;
    const [sender, reader] = await room(
      { maxBufferedFrames: maxFrames, resumeBufferFrames: 1024, stallTimeoutMs: 60_000, maxFramesPerSecond: 10_000_000 },
      2,
    );
    stopReading(reader!);
    // 63-byte payloads: small enough that per-frame costs dominate, large enough that the loopback
    // kernel buffers in front of the reader fill within a second.
    const pump = flood(sender!, PAYLOAD);
    let peakFrames = 0;
    let peakHeld = 0;
    let peakParked = 0;
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      const stats = relay!.stats();
      peakFrames = Math.max(peakFrames, stats.bufferedFrames);
      peakHeld = Math.max(peakHeld, stats.heldFrames);
      peakParked = Math.max(peakParked, stats.parkedFrames);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const sent = pump.stop();
    expect(relay!.stats().pausedConnections).toBe(1);
    // The queue stops one frame past its cap; the rest of the sender's socket read is parked (one
    // 64 KiB read holds at most 65536 / 70 masked 64-byte messages).
    expect(peakFrames).toBeGreaterThan(maxFrames / 2);
    expect(peakFrames).toBeLessThanOrEqual(maxFrames + 1);
    expect(peakParked).toBeGreaterThan(0);
    expect(peakParked).toBeLessThanOrEqual(Math.ceil(65536 / 70));
    expect(peakHeld).toBeLessThanOrEqual(1024 + 1);
    startReading(reader!);
    const received = await reader!.dataFrames(sent, 60_000);
    received.forEach((frame, index) => {
      if (frame[0] !== 0 || !frame.subarray(1).equals(patternBytes(index, PAYLOAD))) {
        throw new Error(`frame ${index} lost, reordered or altered`);
      }
    });
  }, 90_000);
});

describe("frame budget", () => {
  it("pauses a connection past maxFramesPerSecond and loses nothing", async () => {
    const [sender, reader] = await room({ maxFramesPerSecond: 10_000 });
    // Many socket reads' worth (a read's frames are all handled once it is read).
    const frames = 40_000;
    for (let i = 0; i < frames; i += 1) sender!.sendTo(1, patternBytes(i, 3));
    await eventually(() => relay!.stats().pausedConnections === 1, 3000, "the sender throttled");
    const started = Date.now();
    const received = await reader!.dataFrames(frames, 20_000);
    // 10,000 frames of burst, then 10,000 a second: the rest takes about three seconds.
    expect(Date.now() - started).toBeGreaterThan(1500);
    received.forEach((frame, index) => {
      if (!frame.subarray(1).equals(patternBytes(index, 3))) throw new Error(`frame ${index} altered`);
    });
    await eventually(() => relay!.stats().pausedConnections === 0, 3000, "the sender read again");
    expect(sender!.closeInfo).toBeUndefined();
  }, 30_000);
});

describe("peer-not-connected", () => {
  it("warns at most once a second per slot, however many frames go to an empty slot", async () => {
    relay = await startRelay({ host: "127.0.0.1", port: 0 });
    const created = await createRoom(relay.url, 3);
    const parties = await fillRoom(relay.wsUrl, created);
    clients.push(...parties);
    parties[2]!.close();
    await parties[0]!.control("peer-left");
    for (let i = 0; i < 500; i += 1) parties[0]!.sendTo(2, patternBytes(i, 8));
    await parties[0]!.control("error");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(parties[0]!.controls.filter((m) => m.type === "error")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 900));
    parties[0]!.sendTo(2, patternBytes(0, 8));
    await parties[0]!.control("error", 1);
  }, 15_000);
});

describe("every frame size", () => {
  const maxPayload = 256 * 1024;
  it.each([1, 2, 100, 4096, 65_536, maxPayload - 1])(
    "%i-byte payloads to a stalled reader stay within both caps, and all arrive once it reads",
    async (payload) => {
      const maxBytes = 512 * 1024;
      const maxFrames = 128;
      const [sender, reader] = await room(
        { maxBufferedBytes: maxBytes, maxBufferedFrames: maxFrames, maxPayloadBytes: maxPayload, maxFramesPerSecond: 10_000_000 },
        2,
      );
      stopReading(reader!);
      const pump = flood(sender!, payload);
      let peakFrames = 0;
      let peakBytes = 0;
      // Until the relay has paused the sender (the reader's kernel buffers are full and a cap
      // reached), and half a second more.
      let pausedAt: number | undefined;
      const giveUp = Date.now() + 30_000;
      while (pausedAt === undefined || Date.now() < pausedAt + 500) {
        if (Date.now() > giveUp) throw new Error("the relay never paused the sender");
        const stats = relay!.stats();
        peakFrames = Math.max(peakFrames, stats.bufferedFrames);
        peakBytes = Math.max(peakBytes, stats.bufferedBytes);
        if (stats.pausedConnections > 0) pausedAt ??= Date.now();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const sent = pump.stop();
      // One frame past a cap at most (the one that crossed it).
      expect(peakFrames).toBeLessThanOrEqual(maxFrames + 1);
      expect(peakBytes).toBeLessThanOrEqual(maxBytes + payload + 1);
      startReading(reader!);
      const received = await reader!.dataFrames(sent, 60_000);
      received.forEach((frame, index) => {
        if (frame[0] !== 0 || !frame.subarray(1).equals(patternBytes(index, payload))) {
          throw new Error(`frame ${index} lost, reordered or altered`);
        }
      });
    },
    60_000,
  );
});

describe("a reader that reads one byte a second", () => {
  it("cannot grow the relay past its caps and is dropped as stalled; its sender stays", async () => {
    const maxFrames = 64;
    relay = await startRelay({ host: "127.0.0.1", port: 0, stallTimeoutMs: 2000, maxBufferedFrames: maxFrames, heartbeatIntervalMs: 300 });
    const created = await createRoom(relay.url, 2);
    const sender = await PartyClient.join(relay.wsUrl, created, 0);
    clients.push(sender);
    // A raw TCP client as slot 1: it completes the WebSocket handshake, then reads one byte a second.
    const url = new URL(relay.wsUrl);
    const socket = tcpConnect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `GET /ws?room=${created.room}&slot=1&token=${created.tokens[1]} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    socket.pause();
    const trickle = setInterval(() => socket.read(1), 1000);
    try {
      await sender.control("ready");
      const pump = flood(sender, 1024);
      let peakFrames = 0;
      const left = sender.control("peer-left", 0, 15_000);
      const sampler = setInterval(() => (peakFrames = Math.max(peakFrames, relay!.stats().bufferedFrames)), 5);
      const message = await left.finally(() => clearInterval(sampler));
      pump.stop();
      expect(message).toMatchObject({ slot: 1, reason: "stalled" });
      expect(peakFrames).toBeLessThanOrEqual(maxFrames + 1);
      expect(sender.ws.readyState).toBe(sender.ws.OPEN);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  }, 30_000);
});

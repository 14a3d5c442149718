/**
 * Load on a real relay process: 1000 concurrent two-party rooms (2000 protocol-2 WebSocket
 * clients in this process, acknowledging frames as the SDK does), 50 numbered frames each way per
 * room, every frame checked for loss, duplication and order; the relay's memory (from its
 * `/metrics`) before, at peak and after. And a slow consumer: a party that stops reading does not
 * grow the relay's memory past the documented bound. Loopback only; figures are printed with the
 * `[relay-load]` prefix (docs/performance.md records them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startRelayProcess, within, type RelayProcess } from "./relay-process.js";

const ROOMS = 1000;
const FRAMES = 50;

interface Metrics {
  rss: number;
  heap: number;
  rooms: number;
  connections: number;
  buffered: number;
  held: number;
  paused: number;
  frames: number;
}

async function metrics(relay: RelayProcess): Promise<Metrics> {
  let text: string;
  try {
    text = await (await fetch(`${relay.url}/metrics`)).text();
  } catch {
    // A kept-alive connection the relay closed meanwhile: once more on a fresh one.
    text = await (await fetch(`${relay.url}/metrics`)).text();
  }
  const value = (name: string): number => {
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    return Number(line?.split(" ")[1] ?? NaN);
  };
  return {
    rss: value("chorus_relay_process_resident_memory_bytes"),
    heap: value("chorus_relay_nodejs_heap_size_used_bytes"),
    rooms: value("chorus_relay_rooms"),
    connections: value("chorus_relay_connections"),
    buffered: value("chorus_relay_buffered_bytes"),
    held: value("chorus_relay_held_bytes"),
    paused: value("chorus_relay_paused_senders"),
    frames: value("chorus_relay_frames_routed_total"),
  };
}

const MiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function createRooms(relay: RelayProcess, count: number): Promise<Array<{ room: string; tokens: string[] }>> {
  const rooms: Array<{ room: string; tokens: string[] }> = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async () => {
        const response = await fetch(`${relay.url}/rooms`, { method: "POST", body: '{"parties":2}' });
        if (response.status !== 201) throw new Error(`room creation: HTTP ${response.status}`);
        return (await response.json()) as { room: string; tokens: string[] };
      }),
    );
    rooms.push(...batch);
  }
  return rooms;
}

/** Payload of frame `seq` from `slot` in room `index`: a header and a pattern, 20..1019 bytes. */
function payload(index: number, slot: number, seq: number): Buffer {
  const length = 20 + ((index * 31 + seq * 17 + slot) % 1000);
  const bytes = Buffer.alloc(length);
  bytes.writeUInt32BE(index, 0);
  bytes.writeUInt32BE(seq, 4);
  for (let i = 8; i < length; i += 1) bytes[i] = (index + seq * 7 + i) & 0xff;
  return bytes;
}

/** A protocol-2 party: checks every data frame against the expected sequence and acknowledges. */
class LoadParty {
  readonly ws: WebSocket;
  received = 0;
  problems: string[] = [];
  private ready!: () => void;
  readonly readyPromise = new Promise<void>((resolve) => (this.ready = resolve));
  private done!: () => void;
  readonly donePromise = new Promise<void>((resolve) => (this.done = resolve));

  constructor(url: string, readonly index: number, readonly slot: number) {
    this.ws = new WebSocket(url);
    this.ws.on("message", (data: Buffer, isBinary) => {
      if (!isBinary) {
        if ((JSON.parse(data.toString()) as { type: string }).type === "ready") this.ready();
        return;
      }
      const expected = payload(this.index, 1 - this.slot, this.received);
      if (data[0] !== 1 - this.slot || !data.subarray(1).equals(expected)) {
        this.problems.push(`room ${this.index} slot ${this.slot}: frame ${this.received} lost, reordered or altered`);
      }
      this.received += 1;
      if (this.received % 16 === 0 || this.received === FRAMES) {
        this.ws.send(JSON.stringify({ type: "ack", received: this.received }));
      }
      if (this.received === FRAMES) this.done();
    });
    this.ws.on("error", (error) => this.problems.push(`room ${this.index} slot ${this.slot}: ${error.message}`));
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
  }

  sendAll(): void {
    for (let seq = 0; seq < FRAMES; seq += 1) {
      const body = payload(this.index, this.slot, seq);
      const frame = Buffer.alloc(body.length + 1);
      frame[0] = 1 - this.slot;
      body.copy(frame, 1);
      this.ws.send(frame);
    }
  }
}

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess(["--max-rooms", String(ROOMS + 10)]);
});
afterAll(async () => {
  await relay?.stop();
});

describe("relay load", () => {
  it(`routes ${ROOMS} concurrent rooms x 2 parties x ${FRAMES} frames each way without loss or reordering`, async () => {
    const started = performance.now();
    const before = await metrics(relay);
    const rooms = await createRooms(relay, ROOMS);
    const parties: LoadParty[] = [];
    for (let i = 0; i < ROOMS; i += 100) {
      const batch: LoadParty[] = [];
      for (let index = i; index < Math.min(ROOMS, i + 100); index += 1) {
        for (const slot of [0, 1]) {
          const { room, tokens } = rooms[index]!;
          const url = `${relay.url.replace("http", "ws")}/ws?room=${room}&slot=${slot}&token=${tokens[slot]}&protocol=2`;
          batch.push(new LoadParty(url, index, slot));
        }
      }
      await within(Promise.all(batch.map((p) => p.opened())), "connections to open", 30_000);
      parties.push(...batch);
    }
    await within(Promise.all(parties.map((p) => p.readyPromise)), "every room ready", 30_000);
    const connected = performance.now();
    const atConnect = await metrics(relay);
    for (const party of parties) party.sendAll();
    await within(Promise.all(parties.map((p) => p.donePromise)), "every frame delivered", 45_000);
    const exchanged = performance.now();
    const peak = await metrics(relay);
    const problems = parties.flatMap((p) => p.problems);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(parties.every((p) => p.received === FRAMES)).toBe(true);
    expect(peak.rooms).toBe(ROOMS);
    expect(peak.connections).toBe(2 * ROOMS);
    expect(peak.frames - before.frames).toBe(2 * ROOMS * FRAMES);

    for (const party of parties) party.ws.close();
    const deadline = Date.now() + 20_000;
    let after = await metrics(relay);
    while ((after.rooms > 0 || after.connections > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await metrics(relay);
    }
    expect(after).toMatchObject({ rooms: 0, connections: 0, held: 0 });
    const elapsed = performance.now() - started;
    console.log(
      `[relay-load] ${ROOMS} rooms, ${2 * ROOMS} connections, ${2 * ROOMS * FRAMES} frames routed: ` +
        `setup ${((connected - started) / 1000).toFixed(1)} s, exchange ${((exchanged - connected) / 1000).toFixed(1)} s, ` +
        `total ${(elapsed / 1000).toFixed(1)} s; relay RSS before ${MiB(before.rss)}, all connected ${MiB(atConnect.rss)}, ` +
        `after exchange ${MiB(peak.rss)}, after close ${MiB(after.rss)}; heap used before ${MiB(before.heap)}, ` +
        `after exchange ${MiB(peak.heap)}, after close ${MiB(after.heap)}; held for resume at peak ${peak.held} bytes`,
    );
    expect(elapsed).toBeLessThan(60_000);
  }, 90_000);
});

describe("slow consumer", () => {
  it("does not grow the relay's memory past the documented bound", async () => {
    const maxBuffered = 1024 * 1024;
    const resumeBuffer = 4 * 1024 * 1024;
    const maxPayload = 256 * 1024;
    const slow = await startRelayProcess([
      "--max-buffered", String(maxBuffered), "--resume-buffer", String(resumeBuffer), "--max-payload", String(maxPayload),
    ]);
    try {
      const [room] = await createRooms(slow, 1);
      const url = (slot: number) =>
        `${slow.url.replace("http", "ws")}/ws?room=${room!.room}&slot=${slot}&token=${room!.tokens[slot]}&protocol=2`;
      const sender = new WebSocket(url(0));
      const receiver = new WebSocket(url(1));
      await Promise.all([sender, receiver].map((ws) => new Promise((resolve) => ws.once("open", resolve))));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = await metrics(slow);
      // The receiver stops reading: its TCP window fills, then the relay's buffer towards it.
      (receiver as unknown as { _socket: { pause(): void } })._socket.pause();
      const frame = Buffer.alloc(maxPayload - 1, 7);
      frame[0] = 1;
      const total = 64 * 1024 * 1024;
      for (let sent = 0; sent < total; sent += frame.length) sender.send(frame);
      let peak = before;
      for (let i = 0; i < 30; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const now = await metrics(slow);
        if (now.buffered > peak.buffered) peak = now;
        if (now.paused > 0 && i > 10) break;
      }
      // PROTOCOL.md §4: the queue holds maxBufferedBytes plus the message that crossed it; the
      // rest of the sender's socket read (at most 64 KiB) is parked, not queued.
      const bound = maxBuffered + maxPayload + 64 * 1024;
      console.log(
        `[relay-load] slow consumer: ${MiB(total)} offered; relay buffered at most ${MiB(peak.buffered)} ` +
          `(bound ${MiB(bound)}), held for resume ${MiB(peak.held)} (bound ${MiB(resumeBuffer)}), ` +
          `RSS ${MiB(before.rss)} -> ${MiB(peak.rss)}`,
      );
      const after = await metrics(slow);
      expect(after.paused).toBe(1);
      expect(peak.buffered).toBeLessThanOrEqual(bound);
      expect(peak.held).toBeLessThanOrEqual(resumeBuffer);
      expect(after.rss - before.rss).toBeLessThan(64 * 1024 * 1024);
      sender.terminate();
      receiver.terminate();
    } finally {
      await slow.stop();
    }
  }, 30_000);
});

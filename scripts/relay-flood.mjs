#!/usr/bin/env node
// Floods a relay with small data frames towards readers that never read (one sender and one
// stalled reader per two-party room), and reports the relay's memory before, during and after the
// rooms close: the tiny-frame figures of the relay's memory bound (server/PROTOCOL.md §4).
//
// Usage:
//   node scripts/relay-flood.mjs [--rooms 1] [--seconds 30] [--frame 2] [--protocol 2]
//        [--sample-ms 1000] [--relay http://host:port] [-- <relay flags>]
// Without --relay it starts its own relay (server/dist/cli.js, `npm run build -w @chorus/server`)
// with the given flags and reads its RSS from /proc; with --relay it floods that relay and reads
// the relay's own /metrics. Prints JSON lines: {"event":"flooding",…} once every room is joined and
// the flood starts, then one summary {"event":"done","rooms":…,"framesSent":…,"baseline":{…},
// "peak":{…},"afterClose":{…},"perRoomPeakMiB":…,"retainedMiB":…,"retainedJsMiB":…,"samples":[…]}.
// `--frame` is the whole data frame (destination byte included).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const relayFlags = split === -1 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: {
    rooms: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '30' },
    frame: { type: 'string', default: '2' },
    protocol: { type: 'string', default: '2' },
    'sample-ms': { type: 'string', default: '1000' },
    relay: { type: 'string' },
  },
});
const rooms = Number(values.rooms);
const seconds = Number(values.seconds);
const frameBytes = Number(values.frame);
const protocol = Number(values.protocol);
const sampleMs = Number(values['sample-ms']);
const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** The relay: an address given, or a process of our own. */
async function openRelay() {
  if (values.relay !== undefined) {
    const url = values.relay.replace(/\/$/, '');
    return { url, ws: `${url.replace(/^http/, 'ws')}/ws`, pid: undefined, stop: () => undefined };
  }
  const child = spawn(process.execPath, [join(root, 'server/dist/cli.js'), '--port', '0', '--log-level', 'warn',
    '--room-burst', '100000', '--room-rate', '100000', '--max-pending-rooms', '100000', ...relayFlags],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const listening = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`relay exited with ${code}`)));
  });
  return { url: listening.url, ws: listening.ws, pid: child.pid, stop: () => child.kill('SIGTERM') };
}
const relay = await openRelay();

/** GET on the relay, on a fresh connection each time (a busy relay may close idle keep-alives). */
async function get(path) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await fetch(`${relay.url}${path}`, { headers: { connection: 'close' } });
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The relay's memory: RSS (from /proc for our own relay, else its /metrics), V8 figures, queues. */
async function memory() {
  const text = await (await get('/metrics')).text();
  const metric = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const health = await (await get('/healthz')).json();
  const rss = relay.pid !== undefined
    ? Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${relay.pid}/status`, 'utf8'))[1]) * 1024
    : metric('chorus_relay_process_resident_memory_bytes');
  return {
    rss,
    heapUsed: metric('chorus_relay_nodejs_heap_size_used_bytes'),
    heapTotal: metric('chorus_relay_nodejs_heap_size_total_bytes'),
    external: metric('chorus_relay_nodejs_external_memory_bytes'),
    rooms: health.rooms,
    bufferedBytes: health.bufferedBytes,
    bufferedFrames: health.bufferedFrames,
    heldBytes: health.heldBytes,
    heldFrames: health.heldFrames,
    parkedFrames: health.parkedFrames,
    pausedConnections: health.pausedConnections,
    collections: health.collections,
    collectionScheduled: health.collectionScheduled,
  };
}

async function createRoom() {
  const response = await fetch(`${relay.url}/rooms`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parties: 2 }),
  });
  if (response.status !== 201) throw new Error(`POST /rooms: ${response.status} ${await response.text()}`);
  return response.json();
}

function joinSlot(room, slot) {
  const url = `${relay.ws}?room=${room.room}&slot=${slot}&token=${room.tokens[slot]}&protocol=${protocol}`;
  const ws = new WebSocket(url);
  ws.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    ws.on('message', (data, binary) => {
      if (!binary && JSON.parse(data.toString()).type === 'ready') resolve(ws);
    });
    ws.once('close', (code) => reject(new Error(`closed ${code} before ready`)));
  });
}

const baseline = await memory();
const pairs = [];
for (let i = 0; i < rooms; i += 1) {
  const room = await createRoom();
  const [sender, reader] = await Promise.all([joinSlot(room, 0), joinSlot(room, 1)]);
  // The reader never reads again: its socket stops, its kernel buffers fill, the relay queues.
  reader._socket.pause();
  pairs.push({ sender, reader });
}
const frame = Buffer.alloc(frameBytes, 0x5a);
frame[0] = 1;
let framesSent = 0;
let running = true;
for (const { sender } of pairs) {
  let peerGone = false;
  sender.on('message', (data, binary) => {
    if (!binary && /"type":"(peer-left|peer-away)"/.test(data.toString())) peerGone = true;
  });
  // A burst per turn, then a yield; a full socket buffer (the relay paused this sender) waits a
  // millisecond, so the sampler and the other senders get their turns.
  const pump = () => {
    if (!running || peerGone || sender.readyState !== WebSocket.OPEN) return;
    for (let i = 0; i < 4096 && sender.bufferedAmount < 1024 * 1024; i += 1) {
      sender.send(frame);
      framesSent += 1;
    }
    if (sender.bufferedAmount >= 1024 * 1024) setTimeout(pump, 1);
    else setImmediate(pump);
  };
  pump();
}
emit({ event: 'flooding', rooms, frameBytes, seconds });
const samples = [];
let peak = baseline;
const started = Date.now();
while (Date.now() - started < seconds * 1000) {
  await new Promise((r) => setTimeout(r, sampleMs));
  const m = await memory();
  samples.push({ t: Math.round((Date.now() - started) / 100) / 10, ...m });
  if (m.rss > peak.rss) peak = m;
}
running = false;
for (const { sender, reader } of pairs) {
  sender.terminate();
  reader.terminate();
}
// Away parties (protocol 2) keep their slots for the resume grace period: wait for every room of
// ours to end (other rooms on a shared relay keep going).
const roomsGone = Date.now() + 120_000;
while ((await memory()).rooms > baseline.rooms) {
  if (Date.now() > roomsGone) throw new Error('rooms did not end within 120 s of closing');
  await new Promise((r) => setTimeout(r, 200));
}
// The relay collects the flood's garbage shortly after the departures, at most one collection per
// 10 s (server/src/memory.ts): wait until no collection is scheduled any more, then let the
// allocator settle.
const collected = Date.now() + 30_000;
while ((await memory()).collectionScheduled) {
  if (Date.now() > collected) throw new Error('the relay kept a heap collection scheduled for 30 s');
  await new Promise((r) => setTimeout(r, 200));
}
await new Promise((r) => setTimeout(r, 2000));
const afterClose = await memory();
relay.stop();
const mib = (n) => Math.round((n / 2 ** 20) * 10) / 10;
const js = (m) => m.heapUsed + m.external;
emit({
  event: 'done', rooms, frameBytes, seconds, protocol, relayFlags, framesSent,
  baseline, peak, afterClose,
  perRoomPeakMiB: mib((peak.rss - baseline.rss) / rooms),
  retainedMiB: mib(afterClose.rss - baseline.rss),
  retainedJsMiB: mib(js(afterClose) - js(baseline)),
  samples: samples.map((s) => ({
    t: s.t, rssMiB: mib(s.rss), jsMiB: mib(js(s)), bufferedFrames: s.bufferedFrames, heldFrames: s.heldFrames,
    parkedFrames: s.parkedFrames,
    paused: s.pausedConnections,
  })),
});
process.exit(0);

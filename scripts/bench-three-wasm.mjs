// One three-party AES-128 in WASM, in one Node process, for the side-by-side comparison with
// emp-wasm's multi-party mode (docs/performance.md, "MiniMac among three parties over OT, and three
// parties in WASM against emp-wasm").
//
//   node scripts/bench-three-wasm.mjs chorus   # Chorus SDK, runtime 'wasm', Coral over OT
//   node scripts/bench-three-wasm.mjs emp      # npm emp-wasm (emp-wasm-engine's dependency), mode 'mpc'
//
// Both engines run their three parties over the same kind of in-memory transport (each message
// copied and delivered in order on a microtask). Roles: key XOR-shares from parties 0 and 1, the
// plaintext from party 2, the ciphertext to all three; every party's output is checked against
// FIPS-197 C.1 (exit code 1 otherwise). One JSON line: `ms` from the engine's first call (Chorus:
// `connect`; emp-wasm: `secureMPC`) until all three outputs are back, bytes and messages each party
// sent, and the process's RSS. Time it as a whole process, alternating the two commands.
// Needs `npm run build -w @chorus/sdk` first.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIPS_KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
const FIPS_PT = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
const FIPS_CT = '69c4e0d86a7b0430d8cdb78070b4c55a';
const MASK = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
const SHARES = [MASK, FIPS_KEY.map((k, i) => k ^ MASK[i])];
const sent = [0, 0, 0];
const messages = [0, 0, 0];

/** Counts a message of `from` and hands a copy to `deliver` on a microtask. */
function post(from, data, deliver) {
  sent[from] += data.byteLength;
  messages[from] += 1;
  const copy = data.slice();
  queueMicrotask(() => deliver(copy));
}

async function chorus() {
  const { connect } = await import(new URL('../ts-sdk/dist/index.js', import.meta.url).href);
  const receivers = [undefined, undefined, undefined];
  const pending = [[], [], []];
  const transports = [0, 1, 2].map((me) => ({
    send(to, message) {
      post(me, message, (copy) => (receivers[to] ? receivers[to].message(me, copy) : pending[to].push([me, copy])));
    },
    listen(receiver) {
      receivers[me] = receiver;
      for (const [from, bytes] of pending[me].splice(0)) receiver.message(from, bytes);
      return () => (receivers[me] = undefined);
    },
  }));
  const secret = new Uint8Array(32).fill(4);
  const sessions = await Promise.all(
    transports.map((transport, slot) => connect({ transport, slot, parties: 3, sessionId: `three-${process.pid}`, secret, runtime: 'wasm' })),
  );
  const inputs = [{ key: SHARES[0] }, { key: SHARES[1] }, { plaintext: FIPS_PT }];
  const results = await Promise.all(sessions.map((s, p) => s.aes({ protocol: 'coral', ...inputs[p] })));
  sessions.forEach((s) => s.close());
  return {
    outputs: results.map((r) => (r.runtime === 'wasm' ? r.ciphertextHex : `runtime ${r.runtime}`)),
    preprocessingBytes: results.map((r) => r.preprocessingStats.bytesSent),
    rounds: results[0].stats.rounds,
  };
}

/** The project's AES-128 Bristol Fashion circuit in the old Bristol form emp-wasm reads, with 128
 * XOR gates in front that join the key shares: inputs share 0, share 1, plaintext. */
function empCircuit() {
  const path = fileURLToPath(new URL('../circuits/aes_128.txt', import.meta.url));
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  const [gates, wires] = lines[0].trim().split(/\s+/).map(Number);
  // Fashion wires: key 0..127, plaintext 128..255, the rest; here: shares 0..255, plaintext
  // 256..383, key 384..511, the rest shifted by 256.
  const map = (x) => (x < 128 ? 384 + x : x < 256 ? x + 128 : x + 256);
  const out = [`${gates + 128} ${wires + 256}`, '384 0 128', ''];
  for (let i = 0; i < 128; i++) out.push(`2 1 ${i} ${128 + i} ${384 + i} XOR`);
  for (const line of lines.slice(3)) {
    const g = line.trim().split(/\s+/);
    if (g.length < 4) continue;
    const op = g[g.length - 1];
    out.push(op === 'INV' ? `1 1 ${map(+g[2])} ${map(+g[3])} INV` : `2 1 ${map(+g[2])} ${map(+g[3])} ${map(+g[4])} ${op}`);
  }
  return out.join('\n') + '\n';
}

async function emp() {
  const { secureMPC, BufferQueue } = await import('emp-wasm');
  const circuit = empCircuit();
  // Wire i of a 128-bit value is bit i of the value read as a big-endian integer.
  const toBits = (bytes) => Uint8Array.from({ length: 128 }, (_, i) => (bytes[15 - (i >> 3)] >> (i & 7)) & 1);
  const toHex = (bits) => {
    const out = new Uint8Array(16);
    for (let i = 0; i < 128; i++) if (bits[i]) out[15 - (i >> 3)] |= 1 << (i & 7);
    return Buffer.from(out).toString('hex');
  };
  const queues = new Map();
  const queue = (from, to, channel) => {
    const key = `${from}>${to}${channel}`;
    if (!queues.has(key)) queues.set(key, new BufferQueue());
    return queues.get(key);
  };
  const io = (me) => ({
    send: (to, channel, data) => post(me, data, (copy) => queue(me, to, channel).push(copy)),
    recv: (from, channel, min, max) => queue(from, me, channel).pop(min, max),
  });
  const inputs = [toBits(SHARES[0]), toBits(SHARES[1]), toBits(FIPS_PT)];
  const outs = await Promise.all(
    [0, 1, 2].map((party) =>
      secureMPC({ party, size: 3, circuit, inputBits: inputs[party], inputBitsPerParty: [128, 128, 128], io: io(party), mode: 'mpc' }),
    ),
  );
  return { outputs: outs.map(toHex) };
}

const which = process.argv[2];
if (which !== 'chorus' && which !== 'emp') {
  console.error('usage: node scripts/bench-three-wasm.mjs chorus|emp');
  process.exit(2);
}
const start = performance.now();
const result = await (which === 'chorus' ? chorus() : emp());
const ms = performance.now() - start;
const ok = result.outputs.every((c) => c === FIPS_CT);
console.log(JSON.stringify({ engine: which, ok, ms: +ms.toFixed(1), ...result, sent, messages, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) }));
process.exit(ok ? 0 : 1);

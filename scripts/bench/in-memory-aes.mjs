/**
 * What the in-process WASM AES comparisons with npm emp-wasm share (`scripts/bench-two-wasm.mjs`,
 * `scripts/bench-three-wasm.mjs`): FIPS-197 C.1's key, plaintext and ciphertext and a fixed XOR
 * split of the key; an in-memory network that copies each message and delivers it in order on a
 * microtask while counting the bytes and messages each party sends; Chorus sessions over it
 * (runtime 'wasm'); emp-wasm's `secureMPC` over it on the project's AES-128 circuit; and the one
 * JSON line with the process's RSS.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIPS_KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
export const FIPS_PT = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
export const FIPS_CT = '69c4e0d86a7b0430d8cdb78070b4c55a';
const MASK = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
/** FIPS-197's key as two XOR shares (a fixed mask and the key XOR the mask). */
export const KEY_SHARES = [MASK, FIPS_KEY.map((k, i) => k ^ MASK[i])];

/**
 * An in-memory network of `parties`: `post(from, data, deliver)` counts a message of `from` in
 * `sent` (bytes) and `messages`, and hands a copy to `deliver` on a microtask (so in order).
 */
export function inMemoryNetwork(parties) {
  const sent = new Array(parties).fill(0);
  const messages = new Array(parties).fill(0);
  function post(from, data, deliver) {
    sent[from] += data.byteLength;
    messages[from] += 1;
    const copy = data.slice();
    queueMicrotask(() => deliver(copy));
  }
  return { parties, sent, messages, post };
}

/**
 * One Chorus session per party over `net` (the SDK's `MessageTransport`; messages that arrive
 * before a party listens wait for it), runtime 'wasm'. Needs `npm run build -w @chorus/sdk`.
 */
export async function chorusSessions(net, sessionId) {
  const { connect } = await import(new URL('../../ts-sdk/dist/index.js', import.meta.url).href);
  const receivers = new Array(net.parties).fill(undefined);
  const pending = receivers.map(() => []);
  const transports = receivers.map((_, me) => ({
    send(to, message) {
      net.post(me, message, (copy) => (receivers[to] ? receivers[to].message(me, copy) : pending[to].push([me, copy])));
    },
    listen(receiver) {
      receivers[me] = receiver;
      for (const [from, bytes] of pending[me].splice(0)) receiver.message(from, bytes);
      return () => (receivers[me] = undefined);
    },
  }));
  const secret = new Uint8Array(32).fill(4);
  return Promise.all(
    transports.map((transport, slot) => connect({ transport, slot, parties: net.parties, sessionId, secret, runtime: 'wasm' })),
  );
}

/** The fields of the JSON line from each party's `AesResult`. */
export function chorusSummary(results) {
  return {
    outputs: results.map((r) => (r.runtime === 'wasm' ? r.ciphertextHex : `runtime ${r.runtime}`)),
    preprocessingBytes: results.map((r) => r.preprocessingStats.bytesSent),
    rounds: results[0].stats.rounds,
  };
}

/**
 * The project's AES-128 Bristol Fashion circuit in the old Bristol form emp-wasm reads. Fashion's
 * wires: key 0..127, plaintext 128..255, the rest. Without `joinShares` the wires stay as they
 * are (inputs: key, plaintext); with it, 128 XOR gates in front join two key shares (inputs:
 * share 0, share 1, plaintext; key on 384..511, the rest shifted by 256).
 */
function empCircuit(joinShares) {
  const path = fileURLToPath(new URL('../../circuits/aes_128.txt', import.meta.url));
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  const [gates, wires] = lines[0].trim().split(/\s+/).map(Number);
  const map = joinShares ? (x) => (x < 128 ? 384 + x : x < 256 ? x + 128 : x + 256) : (x) => x;
  const out = joinShares ? [`${gates + 128} ${wires + 256}`, '384 0 128', ''] : [`${gates} ${wires}`, '128 128 128', ''];
  if (joinShares) for (let i = 0; i < 128; i++) out.push(`2 1 ${i} ${128 + i} ${384 + i} XOR`);
  for (const line of lines.slice(3)) {
    const g = line.trim().split(/\s+/);
    if (g.length < 4) continue;
    const op = g[g.length - 1];
    out.push(op === 'INV' ? `1 1 ${map(+g[2])} ${map(+g[3])} INV` : `2 1 ${map(+g[2])} ${map(+g[3])} ${map(+g[4])} ${op}`);
  }
  return out.join('\n') + '\n';
}

/**
 * AES-128 on npm emp-wasm (`secureMPC` in `mode`, '2pc' or 'mpc'), one party per entry of
 * `inputs` (16 bytes each: key, or key shares with `joinShares`, then the plaintext), over `net`.
 * Returns each party's output as hex.
 */
export async function empAes(net, { inputs, mode, joinShares }) {
  const { secureMPC, BufferQueue } = await import('emp-wasm');
  const circuit = empCircuit(joinShares);
  // Wire i of a 128-bit value is bit i of the value read as a big-endian integer.
  const toBits = (bytes) => Uint8Array.from({ length: 128 }, (_, i) => (bytes[15 - (i >> 3)] >> (i & 7)) & 1);
  const toHex = (bits) => {
    const out = new Uint8Array(16);
    for (let i = 0; i < 128; i++) if (bits[i]) out[15 - (i >> 3)] |= 1 << (i & 7);
    return Buffer.from(out).toString('hex');
  };
  // emp-wasm wants channels 'a' and 'b' between every pair: one queue per sender, receiver, channel.
  const queues = new Map();
  const queue = (from, to, channel) => {
    const key = `${from}>${to}${channel}`;
    if (!queues.has(key)) queues.set(key, new BufferQueue());
    return queues.get(key);
  };
  const io = (me) => ({
    send: (to, channel, data) => net.post(me, data, (copy) => queue(me, to, channel).push(copy)),
    recv: (from, channel, min, max) => queue(from, me, channel).pop(min, max),
  });
  const inputBitsPerParty = inputs.map(() => 128);
  const outs = await Promise.all(
    inputs.map((bytes, party) =>
      secureMPC({ party, size: inputs.length, circuit, inputBits: toBits(bytes), inputBitsPerParty, io: io(party), mode }),
    ),
  );
  return outs.map(toHex);
}

/**
 * Runs the engine named by the command's argument (a key of `engines`, each an async function
 * returning at least `outputs`, one hex ciphertext per output party), then prints one JSON line:
 * engine, ok (every output is FIPS-197's ciphertext), ms from the engine's start until its outputs
 * are back, the engine's fields, bytes and messages each party sent on `net`, and the RSS in MiB.
 * Exit code 0 if ok, 1 if not, 2 on a bad argument.
 */
export async function runBench(script, net, engines) {
  const which = process.argv[2];
  if (!Object.hasOwn(engines, which)) {
    console.error(`usage: node ${script} ${Object.keys(engines).join('|')}`);
    process.exit(2);
  }
  const start = performance.now();
  const result = await engines[which]();
  const ms = performance.now() - start;
  const ok = result.outputs.every((c) => c === FIPS_CT);
  const { sent, messages } = net;
  console.log(JSON.stringify({ engine: which, ok, ms: +ms.toFixed(1), ...result, sent, messages, rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20) }));
  process.exit(ok ? 0 : 1);
}

/**
 * What the WASM AES comparisons with npm emp-wasm share (`scripts/bench-two-wasm.mjs`,
 * `scripts/bench-three-wasm.mjs`): FIPS-197 C.1's key, plaintext and ciphertext and a fixed XOR
 * split of the key; one party's Chorus session (runtime 'wasm') or emp-wasm `secureMPC` call on
 * the project's AES-128 circuit, over the links of `links.mjs`; and the run itself, every party in
 * one process or one process per party over TCP, with its one JSON line.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { inMemoryLinks, tcpLinks } from './links.mjs';

export const FIPS_KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
export const FIPS_PT = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
export const FIPS_CT = '69c4e0d86a7b0430d8cdb78070b4c55a';
const MASK = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 0xff);
/** FIPS-197's key as two XOR shares (a fixed mask and the key XOR the mask). */
export const KEY_SHARES = [MASK, FIPS_KEY.map((k, i) => k ^ MASK[i])];

/**
 * Party `me`'s Chorus session over `links` (the SDK's `MessageTransport`, tag 0), runtime 'wasm'.
 * Needs `npm run build -w @chorus/sdk`.
 */
export async function chorusSession(links, me, sessionId) {
  const { connect } = await import(new URL('../../ts-sdk/dist/index.js', import.meta.url).href);
  const transport = {
    send: (to, message) => links.post(me, to, 0, message),
    listen(receiver) {
      links.on(me, (from, _tag, bytes) => receiver.message(from, bytes));
      return () => links.on(me, () => {});
    },
  };
  const secret = new Uint8Array(32).fill(4);
  return connect({ transport, slot: me, parties: links.parties, sessionId, secret, runtime: 'wasm' });
}

/** The fields of the JSON line from one party's `AesResult`. */
export function chorusSummary(result) {
  return {
    output: result.runtime === 'wasm' ? result.ciphertextHex : `runtime ${result.runtime}`,
    preprocessingBytes: result.preprocessingStats.bytesSent,
    rounds: result.stats.rounds,
  };
}

const empCircuits = new Map();

/**
 * The project's AES-128 Bristol Fashion circuit in the old Bristol form emp-wasm reads. Fashion's
 * wires: key 0..127, plaintext 128..255, the rest. Without `joinShares` the wires stay as they
 * are (inputs: key, plaintext); with it, 128 XOR gates in front join two key shares (inputs:
 * share 0, share 1, plaintext; key on 384..511, the rest shifted by 256). Built once per form.
 */
function empCircuit(joinShares) {
  if (!empCircuits.has(joinShares)) empCircuits.set(joinShares, empCircuitText(joinShares));
  return empCircuits.get(joinShares);
}

function empCircuitText(joinShares) {
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
 * Party `me`'s side of AES-128 on npm emp-wasm (`secureMPC` in `mode`, '2pc' or 'mpc'), with one
 * entry of `inputs` per party (16 bytes each: key, or key shares with `joinShares`, then the
 * plaintext), over `links` (emp-wasm's channels 'a' and 'b' as tags 1 and 2). Returns the output
 * as hex.
 */
export async function empAes(links, me, { inputs, mode, joinShares }) {
  const { secureMPC, BufferQueue } = await import('emp-wasm');
  const circuit = empCircuit(joinShares);
  // Wire i of a 128-bit value is bit i of the value read as a big-endian integer.
  const toBits = (bytes) => Uint8Array.from({ length: 128 }, (_, i) => (bytes[15 - (i >> 3)] >> (i & 7)) & 1);
  const toHex = (bits) => {
    const out = new Uint8Array(16);
    for (let i = 0; i < 128; i++) if (bits[i]) out[15 - (i >> 3)] |= 1 << (i & 7);
    return Buffer.from(out).toString('hex');
  };
  // One queue per peer and channel.
  const queues = new Map();
  const queue = (from, tag) => {
    const key = `${from}/${tag}`;
    if (!queues.has(key)) queues.set(key, new BufferQueue());
    return queues.get(key);
  };
  const tags = { a: 1, b: 2 };
  links.on(me, (from, tag, bytes) => queue(from, tag).push(bytes));
  const io = {
    send: (to, channel, data) => links.post(me, to, tags[channel], data),
    recv: (from, channel, min, max) => queue(from, tags[channel]).pop(min, max),
  };
  const inputBitsPerParty = inputs.map(() => 128);
  const bits = await secureMPC({ party: me, size: inputs.length, circuit, inputBits: toBits(inputs[me]), inputBitsPerParty, io, mode });
  return toHex(bits);
}

/**
 * Runs the engine named by the command's argument (a key of `engines`, each
 * `async (links, me, runId)` running party `me` and returning at least `output`, its ciphertext
 * as hex), then prints one JSON line: engine, transport, ok (every party's output is FIPS-197's
 * ciphertext), `ms` from the engine's start until the last output is back, the first party's
 * other fields, bytes and messages each party sent, and the RSS in MiB. Exit code 0 if ok, 1 if
 * not, 2 on a bad argument.
 *
 * Without `--tcp` the `parties` run in this process over `inMemoryLinks`. With `--tcp` this
 * process starts one Node process per party (`--party P --port BASE`), which run over `tcpLinks`
 * and time themselves from their connected links (`ms` is then the slowest party's, `partyMs`
 * each one's, `rssMiB` each process's).
 */
export async function runBench(script, parties, engines) {
  const args = process.argv.slice(2);
  const which = args[0];
  const flag = (name) => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : Number(args[i + 1]);
  };
  if (!Object.hasOwn(engines, which)) {
    console.error(`usage: node ${script} ${Object.keys(engines).join('|')} [--tcp]`);
    process.exit(2);
  }
  const engine = engines[which];
  const rssMiB = () => Math.round(process.memoryUsage().rss / 2 ** 20);
  const party = flag('--party');
  let line;
  if (party !== undefined) {
    // One party of a TCP run: its own line for the parent.
    const port = flag('--port');
    const links = await tcpLinks(party, parties, port);
    const start = performance.now();
    const { output, ...fields } = await engine(links, party, `aes-${port}`);
    const ms = performance.now() - start;
    await links.close();
    line = { party, ms, output, fields, sent: links.sent[party], messages: links.messages[party], rssMiB: rssMiB() };
  } else if (args.includes('--tcp')) {
    const port = 20_000 + (process.pid % 40_000);
    // The parties get the script's other arguments (an engine's options) as well.
    const extra = args.slice(1).filter((a) => a !== '--tcp');
    const lines = await Promise.all([...Array(parties).keys()].map((p) => runParty(script, [which, ...extra], p, port)));
    line = {
      engine: which,
      transport: 'tcp',
      ms: Math.max(...lines.map((l) => l.ms)),
      partyMs: lines.map((l) => +l.ms.toFixed(1)),
      outputs: lines.map((l) => l.output),
      ...lines[0].fields,
      sent: lines.map((l) => l.sent),
      messages: lines.map((l) => l.messages),
      rssMiB: lines.map((l) => l.rssMiB),
    };
  } else {
    const links = inMemoryLinks(parties);
    const start = performance.now();
    const results = await Promise.all(links.locals.map((me) => engine(links, me, `aes-${process.pid}`)));
    const ms = performance.now() - start;
    const { output: _, ...fields } = results[0];
    line = { engine: which, transport: 'memory', ms, outputs: results.map((r) => r.output), ...fields, sent: links.sent, messages: links.messages, rssMiB: rssMiB() };
  }
  const outputs = line.outputs ?? [line.output];
  line.ok = outputs.every((c) => c === FIPS_CT);
  line.ms = +line.ms.toFixed(1);
  console.log(JSON.stringify(line));
  process.exit(line.ok ? 0 : 1);
}

/** Party `p` of a TCP run as a child process; resolves to its JSON line. */
function runParty(script, engineArgs, p, port) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...engineArgs, '--party', String(p), '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`party ${p} exited with ${code} and no result line`));
      }
    });
  });
}

#!/usr/bin/env node
/**
 * Batched jobs through the SDK next to the Rust benchmark of the same protocol and batch, side by
 * side in one run (every party shares this machine's cores, so compare the ratios):
 *
 * - `tinytable`: `session.aes` of N blocks (default 64, one bit-sliced word of instances), circuit
 *   path, semi-honest (or `--tinytable-security malicious`), material prepared over OT; the anchor
 *   is `chorus-bench-tinytable --amortized N --paths circuit --preprocessing ot`. Then the latency
 *   of one-block jobs on material prepared for all of them at once (`latency_ms`).
 * - `minimac`: `session.aes` of N blocks (default 960, one full batch of the (256, 120) code),
 *   material prepared by the trusted dealer (member 2) or over OT (`--preprocessing ot`); the
 *   anchor is `chorus-bench-minimac --codes rs256-120-matrix --simultaneous on --blocks N`. Both
 *   run the project's AES-128 circuit (6,400 AND gates). Then the latency of one-block jobs on
 *   prepared material (`latency_ms`; `--latency` jobs, 0 for none).
 * - `coral`: `session.evaluate` of the Bristol AES-128 circuit (`circuits/aes_128.txt`) on N
 *   instances (default 1400, 100 packs of 14), a key and a block per instance, material prepared
 *   as MiniMac's; the anchor is `chorus-bench-coral --instances N` on the same circuit.
 *
 * Through the SDK, with the core as the Node addon (`native`) or WASM (`wasm`), over two
 * transports (`--transport`): `relay`, every member a Node process (`bench/batch-party.mjs`) in a
 * relay room on loopback; `memory`, every member a session in this process over an in-memory
 * transport (`connect({ transport })`, each message delivered on a later turn of the event loop),
 * which shows the SDK and its core without the relay's hops (in WASM the members then share one
 * thread, so `wasm/memory` is a floor, not a figure of one party per process). Each member prepares one
 * job's material (`session.prepare`, outside the timed region), then the timed job consumes it
 * (`usePrepared: true`): spec agreement and the online phase. That 1 + `--reps` times: `ms` is the
 * first job, `steady_ms` the median of the others (WASM's first large job runs partly in V8's
 * baseline tier). The anchor times the online phase alone between two threads over TCP loopback,
 * after its material is made, and prints its median of `--reps` runs.
 * A job's time runs from the last member's start to the last member's end (a member whose
 * `prepare` returned first would otherwise time its wait for the others' `prepare`);
 * `us_per_instance` is the steady jobs' median time over N; `bytes_per_instance` what one
 * party sent in the online phase over N; `relay_cpu_ms` (relay transport) the CPU time the relay
 * (in this process) spent during a steady job, median: on a machine whose cores the parties
 * share, time the relay takes from them. Ratios (1 = as fast), for each transport:
 * `native_vs_rust` and `wasm_vs_native`.
 * Every output is checked against Node's AES (the members exit with status 1 on a mismatch, the
 * anchors likewise).
 *
 * Usage (after `npm run build --workspaces` and `cargo build --release -p chorus-native`):
 *   node scripts/bench-batch.mjs [--protocol tinytable,minimac,coral] [--runtime native,wasm]
 *     [--transport relay,memory] [--preprocessing dealer|ot] [--tinytable-blocks 64] [--minimac-blocks 960]
 *     [--coral-instances 1400] [--latency 5] [--reps 3] [--no-rust]
 *     [--tinytable-security semi-honest|malicious]
 * One JSON line per protocol on stdout, progress on stderr; bad arguments exit with status 2.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect, createRoom } from '@chorus/sdk';
import { startRelay } from '@chorus/server';
import { runBatchMember } from './bench/batch-party.mjs';
import { runMember, runProcess } from './bench/member.mjs';

const MEMBER = fileURLToPath(new URL('./bench/batch-party.mjs', import.meta.url));
const AES_CIRCUIT = fileURLToPath(new URL('../circuits/aes_128.txt', import.meta.url));
const binary = (name) => fileURLToPath(new URL(`../target/release/${name}`, import.meta.url));

const USAGE = `usage: node scripts/bench-batch.mjs [--protocol tinytable,minimac,coral] [--runtime native,wasm]
         [--transport relay,memory] [--preprocessing dealer|ot] [--tinytable-blocks 64] [--minimac-blocks 960]
         [--coral-instances 1400] [--latency 5] [--reps 3] [--no-rust]
         [--tinytable-security semi-honest|malicious]`;

function usage(message) {
  if (message) console.error(`bench-batch: ${message}`);
  console.error(USAGE);
  process.exit(message ? 2 : 0);
}

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      protocol: { type: 'string', default: 'tinytable,minimac,coral' },
      runtime: { type: 'string', default: 'native,wasm' },
      transport: { type: 'string', default: 'relay,memory' },
      preprocessing: { type: 'string', default: 'dealer' },
      'tinytable-blocks': { type: 'string', default: '64' },
      'minimac-blocks': { type: 'string', default: '960' },
      'coral-instances': { type: 'string', default: '1400' },
      latency: { type: 'string', default: '5' },
      'tinytable-security': { type: 'string', default: 'semi-honest' },
      reps: { type: 'string', default: '3' },
      'no-rust': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (args.help) usage();
const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);
const count = (name, max) => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1 || n > max) usage(`--${name} takes an integer in 1..${max}`);
  return n;
};
const protocols = list(args.protocol);
const runtimes = list(args.runtime);
for (const p of protocols) if (!['tinytable', 'minimac', 'coral'].includes(p)) usage(`unknown protocol ${p}`);
for (const r of runtimes) if (!['native', 'wasm'].includes(r)) usage(`unknown runtime ${r}`);
const transports = list(args.transport);
for (const t of transports) if (!['relay', 'memory'].includes(t)) usage(`unknown transport ${t}`);
if (!['dealer', 'ot'].includes(args.preprocessing)) usage('--preprocessing is dealer or ot');
const sizes = {
  tinytable: count('tinytable-blocks', 4096),
  minimac: count('minimac-blocks', 960),
  coral: count('coral-instances', 100_000),
};
const latency = Number(args.latency);
if (!Number.isInteger(latency) || latency < 0 || latency > 1000) usage('--latency takes an integer in 0..1000');
const tinytableSecurity = args['tinytable-security'];
if (!['semi-honest', 'malicious'].includes(tinytableSecurity)) usage('--tinytable-security is semi-honest or malicious');
const prep = args.preprocessing;
const reps = count('reps', 20);

/** What each protocol runs: the SDK job, its members and the anchor's command line. */
function plan(protocol, n) {
  const dealer = prep === 'dealer';
  const roles = { keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
  if (protocol === 'tinytable') {
    return {
      members: 2,
      batch: { job: 'aes', instances: n, reps, latency, options: { protocol, path: 'circuit', preprocessing: 'ot', security: tinytableSecurity, ...roles } },
      rust: ['chorus-bench-tinytable', '--amortized', String(n), '--sequential', '1', '--paths', 'circuit', '--security', tinytableSecurity, '--preprocessing', 'ot', '--reps', String(reps)],
      rustUs: (r) => r.ms_per_aes * 1000,
      rustBytes: (r) => r.bytes_per_party / n,
    };
  }
  if (protocol === 'minimac') {
    return {
      members: dealer ? 3 : 2,
      batch: { job: 'aes', instances: n, reps, latency, options: { protocol, code: 'rs256-120-matrix', preprocessing: prep, ...roles } },
      rust: ['chorus-bench-minimac', '--codes', 'rs256-120-matrix', '--simultaneous', 'on', '--blocks', String(n), '--latency', 'false', '--no-tinytable', '--prep', prep, '--reps', String(reps)],
      rustUs: (r) => r.us_per_aes,
      rustBytes: (r) => r.bytes_per_aes,
    };
  }
  return {
    members: dealer ? 3 : 2,
    batch: { job: 'evaluate', instances: n, reps, circuit: AES_CIRCUIT, options: { protocol, preprocessing: prep, inputOwners: [0, 1], reveal: ['both'] } },
    rust: ['chorus-bench-coral', '--circuit', AES_CIRCUIT, '--instances', String(n), '--prep', prep, '--reps', String(reps)],
    rustUs: (r) => r.us_per_instance,
    rustBytes: (r) => r.bytes_per_instance,
  };
}

/** `parties` in-memory transports: each message delivered in order on a later event-loop turn. */
function memoryHub(parties) {
  const receivers = new Array(parties).fill(undefined);
  const pending = Array.from({ length: parties }, () => []);
  return Array.from({ length: parties }, (_, me) => ({
    send(to, message) {
      const copy = message.slice();
      setImmediate(() => (receivers[to] ? receivers[to].message(me, copy) : pending[to].push([me, copy])));
    },
    listen(receiver) {
      receivers[me] = receiver;
      for (const [from, bytes] of pending[me].splice(0)) receiver.message(from, bytes);
      return () => (receivers[me] = undefined);
    },
  }));
}

/** Every member of one SDK run, over `transport`: each member's figures. */
async function members(relay, transport, runtime, count, batch) {
  const secret = randomBytes(32).toString('hex');
  const seed = randomBytes(8).toString('hex');
  if (transport === 'relay') {
    const room = await createRoom({ relay: relay.url, parties: count });
    const env = { CHORUS_SECRET: secret, CHORUS_SEED: seed, CHORUS_RUNTIME: runtime, CHORUS_BATCH: JSON.stringify(batch) };
    return Promise.all(Array.from({ length: count }, (_, slot) => runMember(MEMBER, room.invite(slot), env, 'member')));
  }
  const hub = memoryHub(count);
  const sessions = await Promise.all(
    hub.map((t, slot) => connect({ transport: t, slot, parties: count, sessionId: `bench-batch ${seed}`, secret, runtime })),
  );
  try {
    return await Promise.all(sessions.map((session, slot) => runBatchMember(session, slot, batch, seed)));
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/** Milliseconds on the clock every member times its jobs with (`batch-party.mjs`'s `now`). */
const now = () => performance.timeOrigin + performance.now();

/**
 * Samples this process's CPU time (the relay runs here; the relay-transport members are child
 * processes) every few milliseconds; `during(start, end)` is the CPU it used in that span, in ms,
 * interpolated between the samples around its ends.
 */
function cpuSampler() {
  const samples = [];
  const take = () => {
    const { user, system } = process.cpuUsage();
    samples.push([now(), (user + system) / 1000]);
  };
  take();
  const timer = setInterval(take, 5);
  const at = (t) => {
    const i = samples.findIndex(([time]) => time >= t);
    if (i === -1) return samples.at(-1)[1];
    if (i === 0) return samples[0][1];
    const [t0, c0] = samples[i - 1];
    const [t1, c1] = samples[i];
    return c0 + ((c1 - c0) * (t - t0)) / Math.max(t1 - t0, 1e-9);
  };
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    during: (start, end) => at(end) - at(start),
  };
}

/** One SDK run of `protocol` in `runtime` over `transport`: its job times, one party's online bytes. */
async function sdk(relay, protocol, transport, runtime, n) {
  const { members: count, batch } = plan(protocol, n);
  const cpu = transport === 'relay' ? cpuSampler() : undefined;
  let results;
  try {
    results = await members(relay, transport, runtime, count, batch);
  } finally {
    cpu?.stop();
  }
  if (results.some((r) => r.runtime !== runtime)) throw new Error(`a member did not run on ${runtime}`);
  const parties = results.slice(0, 2);
  const slowest = (key) => Math.max(...results.map((r) => r[key]));
  // A job's time: from the last member's start to the last member's end (see batch-party.mjs).
  const jobWindow = (spans) => [Math.max(...spans.map(([start]) => start)), Math.max(...spans.map(([, end]) => end))];
  const span = (spans) => {
    const [start, end] = jobWindow(spans);
    return end - start;
  };
  const jobMs = (key) => span(results.map((r) => r[key]));
  // The steady jobs' median span (each job's span across the members, as above).
  const steadyMs = median(results[0].steady.map((_, i) => span(results.map((r) => r.steady[i]))));
  // The relay's own CPU during each steady job (over the same window).
  const relayCpuMs = cpu ? median(results[0].steady.map((_, i) => cpu.during(...jobWindow(results.map((r) => r.steady[i]))))) : undefined;
  const latencies = parties[0].latency.map((_, i) => span(results.map((r) => r.latency[i])));
  const round = (x, d = 1) => Number(x.toFixed(d));
  return {
    ms: round(jobMs('first')),
    steady_ms: round(steadyMs),
    us_per_instance: round((steadyMs * 1000) / n),
    bytes_per_instance: round(Math.max(...parties.map((r) => r.online.bytesSent)) / n),
    rounds: Math.max(...parties.map((r) => r.online.rounds)),
    prepare_ms: round(slowest('prepareMs')),
    prepare_bytes_per_party: Math.max(...results.map((r) => r.prepareBytes)),
    ...(relayCpuMs !== undefined ? { relay_cpu_ms: round(relayCpuMs) } : {}),
    ...(latencies.length ? { latency_median_ms: round(median(latencies), 2), latency_ms: latencies.map((x) => round(x, 2)) } : {}),
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The Rust benchmark of the same protocol and batch (the last JSON line it prints: the batch's). */
async function rust(protocol, n) {
  const { rust: [name, ...argv], rustUs, rustBytes } = plan(protocol, n);
  const r = await runProcess(binary(name), argv, {}, name);
  return { us_per_instance: Number(rustUs(r).toFixed(1)), bytes_per_instance: Number(rustBytes(r).toFixed(1)), online_ms: r.online_ms };
}

if (!args['no-rust']) {
  for (const p of protocols) {
    const name = plan(p, 1).rust[0];
    if (!existsSync(binary(name))) usage(`${binary(name)} is missing: cargo build --release -p chorus-native`);
  }
}
const relay = await startRelay({ host: '127.0.0.1', port: 0, maxPayloadBytes: 1 << 20, roomRatePerMinute: 1_000_000, upgradeRatePerMinute: 1_000_000 });
try {
  for (const protocol of protocols) {
    const n = sizes[protocol];
    const figures = {};
    const runs = [...(args['no-rust'] ? [] : ['rust']), ...transports.flatMap((t) => runtimes.map((r) => `${r}/${t}`))];
    for (const run of runs) {
      process.stderr.write(`${protocol}, ${n} instances, ${run} …`);
      const [runtime, transport] = run.split('/');
      figures[run] = run === 'rust' ? await rust(protocol, n) : await sdk(relay, protocol, transport, runtime, n);
      process.stderr.write(` ${figures[run].us_per_instance} µs per instance\n`);
    }
    const ratio = (a, b) => (figures[a] && figures[b] ? Number((figures[a].us_per_instance / figures[b].us_per_instance).toFixed(3)) : undefined);
    const ratios = Object.fromEntries(
      transports.flatMap((t) => [
        [`native_vs_rust/${t}`, ratio('rust', `native/${t}`)],
        [`wasm_vs_native/${t}`, ratio(`native/${t}`, `wasm/${t}`)],
      ]),
    );
    console.log(
      JSON.stringify({
        protocol,
        instances: n,
        preprocessing: protocol === 'tinytable' ? 'ot' : prep,
        ...(protocol === 'tinytable' ? { security: tinytableSecurity } : {}),
        transport: { rust: 'tcp', sdk: transports },
        node: process.versions.node,
        ...figures,
        ...ratios,
        verified: true,
      }),
    );
  }
} finally {
  await relay.close();
}

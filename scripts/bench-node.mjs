#!/usr/bin/env node
/**
 * The SDK benchmark: joint AES-128 between local party processes through a relay it starts on
 * loopback, for each configuration and batch size in every runtime asked for, side by side in one
 * run (on a small machine every party shares the same cores, so compare the ratios):
 *
 * - `native`: Node parties, the core as the Node-API addon `@chorus/node`, which serves the relay
 *   connection itself (its Rust relay client: a job's frames cross no JavaScript);
 * - `native-js`: the addon with the relay connection in JavaScript (`nativeRelay: false`), as every
 *   Node party ran before the addon did its own networking — not in the default set;
 * - `wasm`: Node parties, the core as WASM;
 * - `runner`: the Rust runner `chorus-party` (target/release; built with
 *   `cargo build --release -p chorus-native`), the anchor;
 * - `chromium`: party 0 in a headless Chromium page (Debian's chromium, driven by playwright-core;
 *   the SDK's browser bundle from ts-sdk/dist, `npm run bundle -w @chorus/sdk`), the other parties
 *   Node processes on WASM — not in the default set.
 *
 * Configurations: every MAESTRO variant at both security levels (three parties; the (2,3) LUT-256
 * has no malicious form) and TinyTable's two paths at both levels (the circuit path with
 * OT preprocessing between two parties, the S-box-table path with OT preprocessing and with its
 * trusted dealer as the third member). Filters: `--protocol maestro|tinytable`, `--variant lut16,…`, `--security …`,
 * `--tinytable-path circuit/ot,…` (path/preprocessing).
 *
 * Timed: two `session.aes` jobs of the batch in a row (spec agreement, preprocessing, online
 * phase, reveal), after a one-block warm-up job in Node, which also opened the session's Noise
 * channels: `ms` is the first, `steady_ms` the median of `--steady-jobs` more (default 1), after
 * `--settle-jobs` untimed ones (default 0; every runtime runs them, the runner too). In WASM they differ: V8 runs a function in
 * its baseline tier until it has run long enough, and never switches a running call, so the first
 * large job runs much of the core unoptimized; the second shows the steady state of a session
 * that runs jobs. The runner runs the same two jobs on its channels (`--runs 2`), its handshake
 * left out. Connecting to the relay is outside. Every run's ciphertext is checked against
 * Node's AES. A progress line per run goes to stderr; once a configuration and batch ran in every
 * runtime, one JSON line goes to stdout with each runtime's figures and the throughput ratios
 * (1 = as fast) `native_vs_runner`, `wasm_vs_native` and `chromium_vs_native` of the steady state,
 * and the same of the first jobs (`…_first`).
 *
 * `--settle-jobs N`: V8 optimizes a Node or browser party's per-frame JavaScript (the WebSocket, the
 * SDK's relay connection, the WASM glue) and tiers up its WASM functions only after they have run
 * a while — for one-block jobs, a few dozen jobs — so the median of the first later jobs is still
 * a warming party's. With N settle jobs the steady state is that of a session that has run N + 1
 * jobs, in every runtime alike (`--settle-jobs` plus `--steady-jobs` at most 99).
 *
 * `--warm-up`: every Node and Chromium party connects with `warmUp` for its job (the WASM core runs
 * the job's code while the room fills, `Session.warmUp`; the native addon ignores it), so that the
 * first job runs optimized code. Each runtime's figures also carry `connect_ms` (the slowest
 * party's `connect`, warm-up included) and `cold_ms` (the one-block job that opens the channels;
 * with a warm-up it includes waiting for the parties still warming up).
 *
 * `--ring ROUNDS` measures the transport alone instead, no core: three members (`--ring-parties N`
 * for another count; two exchange frames) pass a frame around the room for ROUNDS rounds (each
 * sends to the next slot and receives from the previous one, the pattern of a MAESTRO resharing
 * round), as Node processes with the SDK's
 * `RelayConnection` (`bench/ring.mjs`, the transport of both Node runtimes) and as Rust processes
 * with the runner's relay client (`target/release/chorus-ring`); one JSON line per frame size with
 * the slowest member's µs per round in each. It is the floor under a round-bound job's time, and
 * with large frames (a job's bytes per round) the floor of moving its bytes through the relay.
 * With `--runtime …,chromium` the ring also runs with slot 0 in a headless Chromium page (the
 * SDK's `RelayConnection` from its browser bundle, the WebSocket the browser's own), the other
 * members Node: the floor under a Chromium party's rounds.
 *
 * Usage (after `npm run build --workspaces`; `--help` prints it, bad arguments exit with status 2):
 *   node scripts/bench-node.mjs [--runtime native,wasm,runner] [--batch 1,1000]
 *                               [--tinytable-batch 1,16] [--protocol maestro,tinytable]
 *                               [--variant …] [--security …] [--tinytable-path …] [--warm-up]
 *                               [--steady-jobs N] [--settle-jobs N]
 *   node scripts/bench-node.mjs --ring 500 [--frame-bytes 64,4096] [--ring-parties 3]
 * TinyTable has batches of its own: its OT preprocessing moves megabytes per block.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRoom } from '@chorus/sdk';
import { startRelay } from '@chorus/server';
import { benchInputs } from './bench/inputs.mjs';
import { runMember, runProcess } from './bench/member.mjs';

const PARTY = fileURLToPath(new URL('./bench/party.mjs', import.meta.url));
const RING_MEMBER = fileURLToPath(new URL('./bench/ring.mjs', import.meta.url));
const RUNNER = fileURLToPath(new URL('../target/release/chorus-party', import.meta.url));
const RING_RUNNER = fileURLToPath(new URL('../target/release/chorus-ring', import.meta.url));
const SDK_DIST = fileURLToPath(new URL('../ts-sdk/dist/', import.meta.url));
const CHROMIUM = process.env.CHORUS_CHROMIUM ?? '/usr/bin/chromium';
const MAESTRO_VARIANTS = ['gf256-circuit', 'gf16-circuit', 'lut16', 'lut256', 'lut256-33'];
const SECURITIES = ['semi-honest', 'malicious'];

/** TinyTable's paths: AES path, preprocessing, members. */
const TINYTABLE_PATHS = [['circuit', 'ot', 2], ['sbox-tables', 'ot', 2], ['sbox-tables', 'dealer', 3]];

const USAGE = `usage: node scripts/bench-node.mjs [--runtime native,native-js,wasm,runner,chromium] [--batch 1,1000]
                                [--tinytable-batch 1,16] [--protocol maestro,tinytable]
                                [--variant gf256-circuit,…] [--security semi-honest,malicious]
                                [--tinytable-path circuit/ot,sbox-tables/ot,sbox-tables/dealer]
                                [--steady-jobs N] [--settle-jobs N] [--warm-up]
       node scripts/bench-node.mjs --ring ROUNDS [--frame-bytes 64,4096] [--ring-parties 3]`;

/** Exits with the usage and `message` (status 2): bad arguments are not a crash. */
function usage(message) {
  if (message) console.error(`bench-node: ${message}`);
  console.error(USAGE);
  process.exit(message ? 2 : 0);
}

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      runtime: { type: 'string', default: 'native,wasm,runner' },
      batch: { type: 'string', default: '1,1000' },
      'tinytable-batch': { type: 'string', default: '1,16' },
      protocol: { type: 'string', default: 'maestro,tinytable' },
      variant: { type: 'string' },
      security: { type: 'string', default: SECURITIES.join(',') },
      'tinytable-path': { type: 'string', default: TINYTABLE_PATHS.map((p) => p.slice(0, 2).join('/')).join(',') },
      ring: { type: 'string' },
      'frame-bytes': { type: 'string', default: '64,4096' },
      'ring-parties': { type: 'string', default: '3' },
      'steady-jobs': { type: 'string', default: '1' },
      'settle-jobs': { type: 'string', default: '0' },
      'warm-up': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  usage(error.message);
}
if (args.help) usage();
const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);
const runtimes = list(args.runtime);
const batches = list(args.batch).map(Number);
const ttBatches = list(args['tinytable-batch']).map(Number);
for (const r of runtimes) if (!['native', 'native-js', 'wasm', 'runner', 'chromium'].includes(r)) usage(`unknown runtime ${r}`);
if ([...batches, ...ttBatches].some((b) => !Number.isInteger(b) || b < 1)) usage('batches are positive integers');
for (const v of args.variant ? list(args.variant) : []) if (!MAESTRO_VARIANTS.includes(v)) usage(`unknown MAESTRO variant ${v}`);
for (const s of list(args.security)) if (!SECURITIES.includes(s)) usage(`unknown security level ${s}`);
for (const p of list(args['tinytable-path'])) {
  if (!TINYTABLE_PATHS.some(([path, prep]) => `${path}/${prep}` === p)) usage(`unknown TinyTable path ${p}`);
}
for (const p of list(args.protocol)) if (!['maestro', 'tinytable'].includes(p)) usage(`unknown protocol ${p}`);
const steadyJobs = Number(args['steady-jobs']);
if (!Number.isInteger(steadyJobs) || steadyJobs < 1 || steadyJobs > 99) usage('--steady-jobs takes an integer from 1 to 99');
const settleJobs = Number(args['settle-jobs']);
if (!Number.isInteger(settleJobs) || settleJobs < 0 || settleJobs + steadyJobs > 99) {
  usage('--settle-jobs takes an integer from 0 to 99 minus --steady-jobs');
}
const ringRounds = args.ring === undefined ? undefined : Number(args.ring);
const frameSizes = list(args['frame-bytes']).map(Number);
if (ringRounds !== undefined && (!Number.isInteger(ringRounds) || ringRounds < 1)) usage('--ring takes a positive number of rounds');
if (frameSizes.some((b) => !Number.isInteger(b) || b < 5 || b > 65536)) usage('frame sizes are integers from 5 to 65536');
const ringParties = Number(args['ring-parties']);
if (!Number.isInteger(ringParties) || ringParties < 2 || ringParties > 16) usage('--ring-parties takes an integer from 2 to 16');
const runnerBinary = ringRounds === undefined ? RUNNER : RING_RUNNER;
if ((runtimes.includes('runner') || ringRounds !== undefined) && !existsSync(runnerBinary)) {
  usage(`${runnerBinary} is missing: cargo build --release -p chorus-native`);
}

/** The configurations asked for: job options shared by every member, and the session size. */
function configurations() {
  const out = [];
  const securities = list(args.security);
  const protocols = list(args.protocol);
  if (protocols.includes('maestro')) {
    for (const variant of args.variant ? list(args.variant) : MAESTRO_VARIANTS) {
      for (const security of securities) {
        out.push({ name: `maestro ${variant} ${security}`, members: 3, job: { protocol: 'maestro', variant, security, keyHolders: [0, 1], plaintextOwner: 2, reveal: [0, 1, 2] } });
      }
    }
  }
  if (protocols.includes('tinytable')) {
    const paths = list(args['tinytable-path']);
    for (const [path, preprocessing, members] of TINYTABLE_PATHS.filter(([p, q]) => paths.includes(`${p}/${q}`))) {
      for (const security of securities) {
        out.push({
          name: `tinytable ${path} ${preprocessing} ${security}`,
          members,
          job: { protocol: 'tinytable', path, preprocessing, security, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] },
        });
      }
    }
  }
  return out;
}

/** The runner's arguments for one member (the plaintext in a file: a batch is too long for argv). */
function runnerArgs(invite, job, blocks, seed) {
  const { key, keyShares, plaintext } = benchInputs(seed, blocks);
  const argv = ['--relay', invite.relay, '--room', invite.room, '--slot', String(invite.slot), '--token', invite.token];
  argv.push('--blocks', String(blocks), '--runs', String(1 + settleJobs + steadyJobs), '--settle', String(settleJobs));
  argv.push('--protocol', job.protocol, '--security', job.security);
  argv.push('--key-holders', job.keyHolders.join(','), '--plaintext-owner', String(job.plaintextOwner), '--reveal', job.reveal.join(','));
  if (job.protocol === 'maestro') argv.push('--variant', job.variant);
  else argv.push('--path', job.path, '--preprocessing', job.preprocessing);
  const keyIndex = job.keyHolders.indexOf(invite.slot);
  if (keyIndex >= 0) argv.push('--key-share', job.keyHolders.length === 1 ? key.toString('hex') : keyShares[keyIndex]);
  if (invite.slot === job.plaintextOwner) {
    const file = join(tmpdir(), `chorus-bench-${process.pid}-${seed}.bin`);
    writeFileSync(file, plaintext);
    argv.push('--plaintext-file', file);
  }
  return argv;
}

/** The headless browser of `chromium` runs, launched on first use, with the SDK's bundle served by the relay. */
let browser;
async function chromiumPage(relay) {
  if (browser === undefined) {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  }
  const page = await browser.newPage();
  await page.goto(`${relay.url}/index.html`);
  return page;
}

/**
 * One member in a Chromium page: the same sequence as `bench/party.mjs` (connect, a one-block
 * warm-up, the timed job), with its input handed over from here.
 */
async function chromiumMember(relay, invite, job, blocks, secret, input) {
  const page = await chromiumPage(relay);
  try {
    const given = JSON.stringify({ invite, job, blocks, secret, input, steadyJobs, settleJobs, warmUp: args['warm-up'] });
    return await page.evaluate(`(async ({ invite, job, blocks, secret, input, steadyJobs, settleJobs, warmUp }) => {
      const sdk = await import(location.origin + '/chorus-sdk.browser.js');
      const connectStart = performance.now();
      const session = await sdk.connect({ ...invite, secret, runtime: 'wasm', warmUp: warmUp ? { job: 'aes', ...job, blocks } : undefined });
      const connectMs = performance.now() - connectStart;
      try {
        const warm = input.plaintext ? { ...input, plaintext: input.plaintext.slice(0, 32) } : input;
        const coldStart = performance.now();
        await session.aes({ ...job, ...warm, blocks: 1 });
        const coldMs = performance.now() - coldStart;
        const timed = async () => {
          const t0 = performance.now();
          const result = await session.aes({ ...job, ...input, blocks });
          return { ms: performance.now() - t0, result };
        };
        const first = await timed();
        for (let i = 0; i < settleJobs; i += 1) await timed();
        const later = [];
        for (let i = 0; i < steadyJobs; i += 1) later.push(await timed());
        const steady = later.sort((a, b) => a.ms - b.ms)[later.length >> 1];
        const { result } = first;
        let digest;
        if (result.ciphertext) {
          const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', result.ciphertext));
          digest = Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
        }
        return { ms: first.ms, steadyMs: steady.ms, coldMs, connectMs, digest, runtime: 'chromium', bytesSent: result.stats.bytesSent, rounds: result.stats.rounds };
      } finally {
        await session.close();
      }
    })(${given})`);
  } finally {
    await page.close();
  }
}

/** One job of `blocks` blocks in `runtime`: the slowest member's time and the parties' traffic. */
async function measure(relay, config, runtime, blocks) {
  const seed = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('hex');
  const room = await createRoom({ relay: relay.url, parties: config.members });
  const members = Array.from({ length: config.members }, (_, slot) => {
    const invite = room.invite(slot);
    if (runtime === 'chromium' && slot === 0) {
      const { keyShares, key } = benchInputs(seed, blocks);
      const keyIndex = config.job.keyHolders.indexOf(0);
      const input = keyIndex < 0 ? {} : { key: config.job.keyHolders.length === 1 ? key.toString('hex') : keyShares[keyIndex] };
      if (config.job.plaintextOwner === 0) throw new Error('the Chromium party holds no plaintext here');
      return chromiumMember(relay, invite, config.job, blocks, secret, input);
    }
    if (runtime === 'runner') {
      return runProcess(RUNNER, runnerArgs(invite, config.job, blocks, seed), { CHORUS_SECRET: secret }, `runner ${slot}`).then((r) => ({
        ms: r.ms,
        steadyMs: r.steady_ms,
        digest: r.ciphertext ? createHash('sha256').update(Buffer.from(r.ciphertext, 'hex')).digest('hex') : undefined,
        bytesSent: r.stats.bytes_sent,
        rounds: r.stats.rounds,
        runtime,
      }));
    }
    const nodeRuntime = runtime === 'chromium' ? 'wasm' : runtime;
    const env = { CHORUS_STEADY_JOBS: String(steadyJobs), CHORUS_SETTLE_JOBS: String(settleJobs), CHORUS_SECRET: secret, CHORUS_BLOCKS: String(blocks), CHORUS_SEED: seed, CHORUS_RUNTIME: nodeRuntime, CHORUS_JOB: JSON.stringify(config.job), CHORUS_WARM_UP: args['warm-up'] ? '1' : '0' };
    return runMember(PARTY, invite, env, 'party').then((r) => ({ ms: r.ms, steadyMs: r.steadyMs, coldMs: r.coldMs, connectMs: r.connectMs, digest: r.digest, bytesSent: r.stats.bytesSent, rounds: r.stats.rounds, runtime: r.runtime }));
  });
  const results = await Promise.all(members).finally(() => rmSync(join(tmpdir(), `chorus-bench-${process.pid}-${seed}.bin`), { force: true }));
  const { key, plaintext } = benchInputs(seed, blocks);
  const aes = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  const expected = createHash('sha256').update(Buffer.concat([aes.update(plaintext), aes.final()])).digest('hex');
  for (const slot of config.job.reveal) {
    if (results[slot].digest !== expected) throw new Error(`${config.name}, ${runtime}, batch ${blocks}: wrong ciphertext at party ${slot}`);
  }
  const expectedRuntime = (slot) => (runtime === 'chromium' && slot > 0 ? 'wasm' : runtime === 'native-js' ? 'native' : runtime);
  if (runtime !== 'runner' && results.some((r, slot) => r.runtime !== expectedRuntime(slot))) {
    throw new Error(`a party did not run on ${runtime}`);
  }
  const ms = Math.max(...results.map((r) => r.ms));
  const steady = Math.max(...results.map((r) => r.steadyMs));
  const slowest = (key) => (runtime === 'runner' ? undefined : Number(Math.max(...results.map((r) => r[key])).toFixed(2)));
  return {
    connect_ms: slowest('connectMs'),
    cold_ms: slowest('coldMs'),
    ms: Number(ms.toFixed(2)),
    steady_ms: Number(steady.toFixed(2)),
    blocks_per_s: Number(((blocks * 1000) / steady).toFixed(1)),
    us_per_aes: Number(((steady * 1000) / blocks).toFixed(1)),
    bytes_per_party: Math.max(...results.map((r) => r.bytesSent)),
    rounds: Math.max(...results.map((r) => r.rounds)),
  };
}

/**
 * One ring member in a Chromium page: `bench/ring.mjs`'s rounds with the browser bundle's
 * `RelayConnection` (the frame checks too).
 */
async function chromiumRingMember(relay, invite, rounds, frameBytes) {
  const page = await chromiumPage(relay);
  try {
    const given = JSON.stringify({ invite, rounds, frameBytes });
    return await page.evaluate(`(async ({ invite, rounds, frameBytes }) => {
      const { RelayConnection } = await import(location.origin + '/chorus-sdk.browser.js');
      const { ringRounds } = await import(location.origin + '/ring-rounds.mjs');
      const connection = await RelayConnection.open({ ...invite, signal: AbortSignal.timeout(120000) });
      try {
        await connection.ready();
        const ms = await ringRounds(connection, invite, rounds, frameBytes);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { slot: invite.slot, ms, rounds };
      } finally {
        await connection.close();
      }
    })(${given})`);
  } finally {
    await page.close();
  }
}

/**
 * The transport alone: `rounds` rounds of `frameBytes`-byte frames around a room of `ringParties`
 * members, in `kind` (`node`: the SDK's RelayConnection; `runner`: the Rust runner's relay
 * client; `chromium`: slot 0 in a Chromium page, the others `node`), as the slowest member's µs
 * per round.
 */
async function ring(relay, kind, rounds, frameBytes) {
  const room = await createRoom({ relay: relay.url, parties: ringParties });
  const members = Array.from({ length: ringParties }, (_, slot) => {
    const invite = room.invite(slot);
    if (kind === 'chromium' && slot === 0) return chromiumRingMember(relay, invite, rounds, frameBytes);
    if (kind === 'runner') {
      const argv = ['--relay', invite.relay, '--room', invite.room, '--slot', String(slot), '--token', invite.token];
      argv.push('--rounds', String(rounds), '--frame-bytes', String(frameBytes));
      return runProcess(RING_RUNNER, argv, {}, `chorus-ring ${slot}`);
    }
    return runMember(RING_MEMBER, invite, { CHORUS_ROUNDS: String(rounds), CHORUS_FRAME_BYTES: String(frameBytes) }, 'ring member');
  });
  const results = await Promise.all(members);
  return Number(((Math.max(...results.map((r) => r.ms)) * 1000) / rounds).toFixed(1));
}

// One room per run: lift the per-address rate limits meant for the open internet. The relay also
// serves the SDK's browser bundle to the Chromium party.
const site = mkdtempSync(join(tmpdir(), 'chorus-bench-site-'));
if (runtimes.includes('chromium')) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or CHORUS_CHROMIUM)`);
  for (const file of ['chorus-sdk.browser.js', 'chorus_wasm_bg.wasm']) copyFileSync(join(SDK_DIST, file), join(site, file));
  copyFileSync(fileURLToPath(new URL('./bench/ring-rounds.mjs', import.meta.url)), join(site, 'ring-rounds.mjs'));
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>chorus bench</title>');
}
const relay = await startRelay({
  host: '127.0.0.1',
  port: 0,
  maxPayloadBytes: 1 << 20,
  roomRatePerMinute: 1_000_000,
  upgradeRatePerMinute: 1_000_000,
  staticDir: site,
});
try {
  if (ringRounds !== undefined) {
    for (const frameBytes of frameSizes) {
      const figures = {};
      // Alternating, twice each (A B C, then C B A): the machine's load drifts.
      const kinds = ['runner', 'node', ...(runtimes.includes('chromium') ? ['chromium'] : [])];
      for (const kind of [...kinds, ...[...kinds].reverse()]) {
        process.stderr.write(`ring of ${ringRounds} rounds, ${frameBytes}-byte frames, ${kind} …`);
        const us = await ring(relay, kind, ringRounds, frameBytes);
        process.stderr.write(` ${us} µs per round\n`);
        (figures[kind] ??= []).push(us);
      }
      const best = (kind) => Math.min(...figures[kind]);
      console.log(JSON.stringify({
        ring: true,
        parties: ringParties,
        rounds: ringRounds,
        frame_bytes: frameBytes,
        node: process.versions.node,
        runner_us_per_round: figures.runner,
        node_us_per_round: figures.node,
        node_extra_us_per_round: Number((best('node') - best('runner')).toFixed(1)),
        ...(figures.chromium ? { chromium_us_per_round: figures.chromium, chromium_extra_us_per_round: Number((best('chromium') - best('node')).toFixed(1)) } : {}),
      }));
    }
  }
  const runs = (ringRounds === undefined ? configurations() : []).flatMap((config) =>
    (config.job.protocol === 'tinytable' ? ttBatches : batches).map((blocks) => ({ config, blocks })),
  );
  let done = 0;
  const total = runs.length * runtimes.length;
  for (const [index, { config, blocks }] of runs.entries()) {
    const figures = {};
    // Every other configuration in the reverse order (A B, then B A): the runtime measured first
    // does not always meet the relay, and the machine, colder than the others.
    for (const runtime of index % 2 === 0 ? runtimes : [...runtimes].reverse()) {
      done += 1;
      process.stderr.write(`[${done}/${total}] ${config.name}, batch ${blocks}, ${runtime} …`);
      figures[runtime] = await measure(relay, config, runtime, blocks);
      process.stderr.write(` ${figures[runtime].ms} ms, then ${figures[runtime].steady_ms} ms\n`);
    }
    const ratio = (a, b, key = 'steady_ms') => (figures[a] && figures[b] ? Number((figures[b][key] / figures[a][key]).toFixed(3)) : undefined);
    const { keyHolders, plaintextOwner, reveal, ...options } = config.job;
    const line = {
      ...options,
      parties: config.members,
      transport: 'relay',
      node: process.versions.node,
      batch: blocks,
      ...figures,
      native_vs_runner: ratio('native', 'runner'),
      native_js_vs_runner: ratio('native-js', 'runner'),
      native_vs_native_js: ratio('native', 'native-js'),
      wasm_vs_native: ratio('wasm', 'native'),
      chromium_vs_native: ratio('chromium', 'native'),
      native_vs_runner_first: ratio('native', 'runner', 'ms'),
      native_js_vs_runner_first: ratio('native-js', 'runner', 'ms'),
      wasm_vs_native_first: ratio('wasm', 'native', 'ms'),
      chromium_vs_native_first: ratio('chromium', 'native', 'ms'),
      verified: true,
    };
    console.log(JSON.stringify(line));
  }
} finally {
  await browser?.close();
  await relay.close();
  rmSync(site, { recursive: true, force: true });
}

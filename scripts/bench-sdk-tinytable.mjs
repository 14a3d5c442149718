#!/usr/bin/env node
/**
 * Two-party TinyTable AES-128 through the SDK (Node, core as WASM). CHORUS_BENCH_PREPROCESSING
 * picks the preprocessing: `dealer` (the default here, for figures comparable with earlier runs:
 * the **trusted dealer** as the third session member, three Node processes) or `ot` (the SDK's
 * default: the two parties over OT, two Node processes, circuit path only), on a relay on
 * loopback. The path, security level and MAC width come from CHORUS_BENCH_PATH (`circuit`, the
 * default, or `sbox-tables`), CHORUS_BENCH_SECURITY (`semi-honest`, the default, or `malicious`)
 * and CHORUS_BENCH_MAC_BITS (64, the default, or 32 on the circuit path). Circuit path: key shares
 * from parties 0 and 1; S-box-table path: the whole key from party 0. Plaintext from party 1,
 * ciphertext to both; checked against Node's AES. Malicious circuit jobs deal seeded verification
 * strings (`verifier_keys: "seeded"`, see `SEEDED_VERIFIER_KEYS` in core's `jobs::tinytable`).
 * One JSON line per measurement:
 *
 * - `mode: "sequential"`: `n` jobs of one block, one after another; `ms_per_aes` = total / n;
 * - `mode: "amortized"`: one job of `n` blocks; `ms_per_aes` = job time / n.
 *
 * Each timed job includes its Noise handshakes, the spec agreement and the preprocessing (the
 * dealer sending it, or the OT-based generation), so these are whole-job figures, not the online
 * phase alone (`online_bytes_per_party` / `online_rounds` are the online phase's counters); the
 * native `chorus-bench-tinytable` times the online phase alone. A one-block warm-up job runs
 * first (V8 compiles WASM lazily).
 *
 * Usage (after `npm run build -w @chorus/server && npm run build -w @chorus/sdk`):
 *   node scripts/bench-sdk-tinytable.mjs [sequential,...] [amortized,...]   default 20 1,100
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connect, createRoom } from '@chorus/sdk';
import { startRelay } from '@chorus/server';
import { benchInputs } from './bench-sdk-inputs.mjs';
import { runMember } from './bench-sdk-member.mjs';

const PATH = process.env.CHORUS_BENCH_PATH ?? 'circuit';
const SECURITY = process.env.CHORUS_BENCH_SECURITY ?? 'semi-honest';
const MAC_BITS = Number(process.env.CHORUS_BENCH_MAC_BITS ?? 64);
const PREPROCESSING = process.env.CHORUS_BENCH_PREPROCESSING ?? 'dealer';
const MEMBERS = PREPROCESSING === 'ot' ? 2 : 3;
const SPLIT_KEY = PATH === 'circuit';
const ROLES = {
  protocol: 'tinytable',
  preprocessing: PREPROCESSING,
  path: PATH,
  security: SECURITY,
  ...(SECURITY === 'malicious' ? { macBits: MAC_BITS } : {}),
  keyHolders: SPLIT_KEY ? [0, 1] : [0],
  plaintextOwner: 1,
  reveal: [0, 1],
};

/** One member: warm-up, then the timed jobs; prints one JSON line. */
async function member() {
  const invite = JSON.parse(process.env.CHORUS_INVITE);
  const { mode, blocks, seed } = JSON.parse(process.env.CHORUS_RUN);
  const { keyShares, key, plaintext } = benchInputs(seed, blocks);
  const slot = invite.slot;
  const keyOf = (s) => (SPLIT_KEY ? keyShares[s] : s === 0 ? key.toString('hex') : undefined);
  const input = (block, count) => ({
    ...(keyOf(slot) !== undefined ? { key: keyOf(slot) } : {}),
    ...(slot === 1 ? { plaintext: plaintext.subarray(16 * block, 16 * (block + count)) } : {}),
  });
  const session = await connect({ ...invite, secret: process.env.CHORUS_SECRET, signal: AbortSignal.timeout(600_000) });
  try {
    await session.aes({ ...ROLES, ...input(0, 1), blocks: 1 });
    const jobs = mode === 'sequential' ? Array.from({ length: blocks }, (_, i) => [i, 1]) : [[0, blocks]];
    const ciphertexts = [];
    let online = { bytesSent: 0, rounds: 0 };
    let sent = 0;
    const t0 = performance.now();
    for (const [block, count] of jobs) {
      const result = await session.aes({ ...ROLES, ...input(block, count), blocks: count });
      if (result.ciphertext) ciphertexts.push(result.ciphertext);
      online = { bytesSent: online.bytesSent + result.roundsStats.bytesSent, rounds: online.rounds + result.roundsStats.rounds };
      sent += result.stats.bytesSent;
    }
    const ms = performance.now() - t0;
    const digest = slot < 2 ? createHash('sha256').update(Buffer.concat(ciphertexts)).digest('hex') : null;
    console.log(JSON.stringify({ slot, ms, digest, online, sent, stats: session.stats() }));
  } finally {
    await session.close();
  }
}

function spawnMember(invite, env) {
  return runMember(fileURLToPath(import.meta.url), invite, env, 'member');
}

async function coordinator() {
  const sequential = (process.argv[2] ?? '20').split(',').filter(Boolean).map(Number);
  const amortized = (process.argv[3] ?? '1,100').split(',').filter(Boolean).map(Number);
  const relay = await startRelay({ host: '127.0.0.1', port: 0, maxPayloadBytes: 1 << 20 });
  try {
    for (const [mode, counts] of [['sequential', sequential], ['amortized', amortized]]) {
      for (const blocks of counts) {
        const seed = randomBytes(8).toString('hex');
        const room = await createRoom({ relay: relay.url, parties: MEMBERS });
        const env = { CHORUS_SECRET: randomBytes(32).toString('hex'), CHORUS_RUN: JSON.stringify({ mode, blocks, seed }) };
        const slots = Array.from({ length: MEMBERS }, (_, slot) => slot);
        const results = await Promise.all(slots.map((slot) => spawnMember(room.invite(slot), env)));
        const { key, plaintext } = benchInputs(seed, blocks);
        const aes = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
        const expected = createHash('sha256').update(Buffer.concat([aes.update(plaintext), aes.final()])).digest('hex');
        const bad = results.filter((r) => r.slot < 2 && r.digest !== expected).map((r) => r.slot);
        if (bad.length) throw new Error(`${mode} ${blocks}: wrong ciphertext at parties ${bad.join(', ')}`);
        const ms = Math.max(...results.map((r) => r.ms));
        const parties = results.filter((r) => r.slot < 2);
        console.log(
          JSON.stringify({
            protocol: 'tinytable',
            path: PATH,
            security: SECURITY,
            ...(SECURITY === 'malicious' ? { mac_bits: MAC_BITS } : {}),
            // The form the jobs' dealer uses (core: jobs::tinytable::SEEDED_VERIFIER_KEYS), as in
            // the native bench's `verifier_keys`.
            ...(SECURITY === 'malicious' && PATH === 'circuit' && PREPROCESSING === 'dealer' ? { verifier_keys: 'seeded' } : {}),
            preprocessing: PREPROCESSING === 'ot' ? 'ot' : 'trusted-dealer',
            transport: 'relay',
            runtime: `node-${process.versions.node}-wasm`,
            mode,
            blocks,
            job_ms: Number(ms.toFixed(2)),
            ms_per_aes: Number((ms / blocks).toFixed(3)),
            aes_per_s: Number(((blocks * 1000) / ms).toFixed(1)),
            online_bytes_per_party: Math.max(...parties.map((r) => r.online.bytesSent)),
            online_rounds: Math.max(...parties.map((r) => r.online.rounds)),
            ...(MEMBERS === 3
              ? { dealer_bytes: results.find((r) => r.slot === 2).stats.bytesSent }
              : { bytes_per_aes_per_party: Math.round(Math.max(...parties.map((r) => r.sent)) / blocks) }),
            verified: true,
          }),
        );
      }
    }
  } finally {
    await relay.close();
  }
}

await (process.env.CHORUS_INVITE ? member() : coordinator());

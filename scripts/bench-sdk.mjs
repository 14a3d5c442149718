#!/usr/bin/env node
/**
 * Whole-protocol benchmark of the SDK path: three Node party processes, each running the core as
 * WASM (single-threaded, simd128), joint AES-128 (MAESTRO; S-box variant and security from
 * CHORUS_BENCH_VARIANT / CHORUS_BENCH_SECURITY, default lut16 and malicious as in the SDK)
 * through a relay on loopback. Prints one JSON line per batch in the guide's format. The timed region is
 * `session.aes` (Noise handshakes, PRSS setup, inputs, key schedule, rounds, reveal); connecting to
 * the relay and a one-block warm-up job (V8 compiles WASM lazily; `cold_first_job_ms` reports that
 * cold job) are outside it. Every run's ciphertext is checked against Node's AES.
 *
 * Usage (after `npm run build -w @chorus/server && npm run build -w @chorus/sdk`):
 *   node scripts/bench-sdk.mjs [batch,batch,...]     default 1,1000,100000
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createRoom } from '@chorus/sdk';
import { startRelay } from '@chorus/server';
import { benchInputs } from './bench-sdk-inputs.mjs';
import { runMember } from './bench-sdk-member.mjs';

const PARTY = fileURLToPath(new URL('./bench-sdk-party.mjs', import.meta.url));
const batches = (process.argv[2] ?? '1,1000,100000').split(',').map(Number);
const VARIANT = process.env.CHORUS_BENCH_VARIANT ?? 'lut16';
const SECURITY = process.env.CHORUS_BENCH_SECURITY ?? 'malicious';

function party(invite, env) {
  return runMember(PARTY, invite, env, 'party');
}

const relay = await startRelay({ host: '127.0.0.1', port: 0, maxPayloadBytes: 1 << 20 });
try {
  for (const blocks of batches) {
    const seed = randomBytes(8).toString('hex');
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const env = { CHORUS_SECRET: randomBytes(32).toString('hex'), CHORUS_BLOCKS: String(blocks), CHORUS_SEED: seed };
    const results = await Promise.all([0, 1, 2].map((slot) => party(room.invite(slot), env)));
    const { key, plaintext } = benchInputs(seed, blocks);
    const aes = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
    const expected = createHash('sha256').update(Buffer.concat([aes.update(plaintext), aes.final()])).digest('hex');
    const bad = results.filter((r) => r.digest !== expected).map((r) => r.slot);
    if (bad.length) throw new Error(`batch ${blocks}: wrong ciphertext at parties ${bad.join(', ')}`);
    const ms = Math.max(...results.map((r) => r.ms));
    console.log(
      JSON.stringify({
        protocol: 'maestro',
        variant: VARIANT,
        security: SECURITY,
        parties: 3,
        transport: 'relay',
        runtime: `node-${process.versions.node}-wasm`,
        batch: blocks,
        runtime_ms: Number(ms.toFixed(2)),
        blocks_per_s: Number(((blocks * 1000) / ms).toFixed(1)),
        bytes_per_party: Math.max(...results.map((r) => r.stats.bytesSent)),
        rounds: Math.max(...results.map((r) => r.stats.rounds)),
        aes_bytes_per_party: Math.max(...results.map((r) => r.roundsStats.bytesSent)),
        aes_rounds: Math.max(...results.map((r) => r.roundsStats.rounds)),
        cold_first_job_ms: Number(Math.max(...results.map((r) => r.coldMs)).toFixed(2)),
        verified: true,
      }),
    );
  }
} finally {
  await relay.close();
}

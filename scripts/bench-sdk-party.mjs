/**
 * One party of `scripts/bench-sdk.mjs`: connects through the SDK (outside the timed region),
 * derives its input from the shared seed (so the coordinator can recompute the expected
 * ciphertext), runs a one-block warm-up job, times one `session.aes` job, and prints one JSON line.
 */
import { createHash } from 'node:crypto';
import { connect } from '@chorus/sdk';
import { benchInputs } from './bench-sdk-inputs.mjs';

const invite = JSON.parse(process.env.CHORUS_INVITE);
const blocks = Number(process.env.CHORUS_BLOCKS);
const { keyShares, plaintext } = benchInputs(process.env.CHORUS_SEED, blocks);
const input = invite.slot < 2 ? { key: keyShares[invite.slot] } : { plaintext };

const session = await connect({ ...invite, secret: process.env.CHORUS_SECRET, signal: AbortSignal.timeout(600_000) });
try {
  // Warm-up job of one block: V8 compiles the WASM lazily, and a cold first job would time the
  // compiler rather than the protocol. Every party runs the same sequence of jobs.
  const warmInput = invite.slot < 2 ? input : { plaintext: plaintext.subarray(0, 16) };
  const coldStart = performance.now();
  const choice = { variant: process.env.CHORUS_BENCH_VARIANT, security: process.env.CHORUS_BENCH_SECURITY };
  await session.aes({ ...warmInput, ...choice, blocks: 1 });
  const coldMs = performance.now() - coldStart;
  const t0 = performance.now();
  const result = await session.aes({ ...input, ...choice, blocks });
  const ms = performance.now() - t0;
  const digest = createHash('sha256').update(result.ciphertext).digest('hex');
  console.log(JSON.stringify({ slot: invite.slot, ms, coldMs, digest, stats: result.stats, roundsStats: result.roundsStats }));
} finally {
  await session.close();
}

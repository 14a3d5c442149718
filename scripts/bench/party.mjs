/**
 * One Node party of `scripts/bench-node.mjs`: connects through the SDK with the runtime in
 * CHORUS_RUNTIME (outside the timed region), derives its input from the shared seed (so the
 * coordinator can recompute the expected ciphertext), runs a one-block warm-up job (V8 compiles
 * WASM lazily; the first job also opens the session's channels), times `session.aes` jobs of
 * CHORUS_BLOCKS blocks with the options in CHORUS_JOB (JSON), and prints one JSON line: `ms` is
 * the first of them, `steadyMs` the median of CHORUS_STEADY_JOBS (default 1) more after
 * CHORUS_SETTLE_JOBS (default 0) untimed ones. They differ in WASM: V8 runs a function in its
 * baseline tier (Liftoff) until the function has run long enough, and a call that is already
 * running never switches tiers, so the first large job runs much of the core's code unoptimized.
 * CHORUS_WARM_UP=1 connects with `warmUp` for the job (see `Session.warmUp`); `connectMs` is how
 * long `connect` took.
 */
import { createHash } from 'node:crypto';
import { connect } from '@chorus/sdk';
import { benchInputs } from './inputs.mjs';

const invite = JSON.parse(process.env.CHORUS_INVITE);
const blocks = Number(process.env.CHORUS_BLOCKS);
const job = JSON.parse(process.env.CHORUS_JOB);
const { keyShares, key, plaintext } = benchInputs(process.env.CHORUS_SEED, blocks);
// Two key holders input the two shares; a single one inputs the whole key.
const keyIndex = job.keyHolders.indexOf(invite.slot);
const myKey = job.keyHolders.length === 1 ? key.toString('hex') : keyShares[keyIndex];
const mine = (text) => ({
  ...(keyIndex >= 0 ? { key: myKey } : {}),
  ...(invite.slot === job.plaintextOwner ? { plaintext: text } : {}),
});

// `--warm-up`: the WASM core runs the job's code while the room fills (`connect`'s `warmUp`).
const warmUp = process.env.CHORUS_WARM_UP === '1' ? { job: 'aes', ...job, blocks } : undefined;
const connectStart = performance.now();
const session = await connect({
  ...invite,
  warmUp,
  secret: process.env.CHORUS_SECRET,
  // `native-js`: the addon with the relay connection in JavaScript.
  runtime: process.env.CHORUS_RUNTIME === 'native-js' ? 'native' : process.env.CHORUS_RUNTIME,
  nativeRelay: process.env.CHORUS_RUNTIME !== 'native-js',
  signal: AbortSignal.timeout(900_000),
});
const connectMs = performance.now() - connectStart;
try {
  const coldStart = performance.now();
  await session.aes({ ...job, ...mine(plaintext.subarray(0, 16)), blocks: 1 });
  const coldMs = performance.now() - coldStart;
  const timed = async () => {
    const t0 = performance.now();
    const result = await session.aes({ ...job, ...mine(plaintext), blocks });
    const ms = performance.now() - t0;
    const digest = result.ciphertext ? createHash('sha256').update(result.ciphertext).digest('hex') : undefined;
    return { ms, digest, result };
  };
  const first = await timed();
  // The steady state: the median of the later jobs (the upper middle of an even count), as the runner reports it.
  const settled = [];
  for (let i = 0; i < Number(process.env.CHORUS_SETTLE_JOBS ?? 0); i += 1) settled.push((await timed()).digest);
  const later = [];
  for (let i = 0; i < Number(process.env.CHORUS_STEADY_JOBS ?? 1); i += 1) later.push(await timed());
  if ([...settled, ...later.map((job) => job.digest)].some((digest) => digest !== first.digest)) throw new Error('the timed jobs disagree');
  const steady = later.sort((a, b) => a.ms - b.ms)[later.length >> 1];
  const { result } = first;
  console.log(JSON.stringify({ slot: invite.slot, ms: first.ms, steadyMs: steady.ms, coldMs, connectMs, digest: first.digest, runtime: result.runtime, stats: result.stats, online: result.onlineStats }));
} finally {
  await session.close();
}

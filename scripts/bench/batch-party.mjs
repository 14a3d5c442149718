/**
 * One member of `scripts/bench-batch.mjs` ({@link runBatchMember}), and, run as a script, that
 * member as a Node process: it connects through the SDK to the relay room in CHORUS_INVITE with
 * the runtime in CHORUS_RUNTIME (outside the timed region) and prints the figures as one JSON line.
 *
 * For the batch (`{ job: 'aes' | 'evaluate', options, instances, reps?, circuit?, latency? }`),
 * 1 + `reps` (default 1) times in a row, the member: prepares the material of one job of
 * `instances` (`session.prepare` with `perJob` where the protocol takes it) and times the job that
 * consumes it (`usePrepared: true`), so the timed region is the job's spec agreement and online
 * phase alone. The first pair is `first`, the others `steady` (in WASM, V8 runs a long call in its
 * baseline tier, so the first large job runs partly unoptimized). With `latency: n`, it then
 * prepares n one-instance jobs and times them one after another (`latency`, each). Inputs come from the seed, so every member knows the expected
 * outputs; each output is checked against Node's AES (a mismatch throws, or, as a process, exits
 * with status 1).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connect } from '@chorus/sdk';
import { aesEcb, batchInputs } from './inputs.mjs';

const KEY_OWNER = 0;
const PLAINTEXT_OWNER = 1;

/** Milliseconds on a clock all processes of this machine share (the wall clock, sub-millisecond). */
const now = () => performance.timeOrigin + performance.now();

/**
 * Runs the batch as member `slot` of `session`; resolves with its figures. A timed job is given
 * as its `[start, end]` on the shared clock ({@link now}): a job cannot start before every member
 * asked for it, so the runner times it from the last member's start to the last member's end
 * (a member that finished its `prepare` earlier waits for the others inside its own span).
 */
export async function runBatchMember(session, slot, batch, seed) {
  const { job, options, instances } = batch;
  const circuit = batch.circuit ? readFileSync(batch.circuit, 'utf8') : undefined;
  const { keys, blocks } = batchInputs(seed, instances);
  const isDealer = slot > PLAINTEXT_OWNER;

  /** This member's part of a job of `n` instances (the first `n` of the seed's inputs). */
  const jobArgs = (n) => {
    if (job === 'aes') {
      const mine = { ...options, blocks: n };
      if (slot === KEY_OWNER) mine.key = keys[0];
      if (slot === PLAINTEXT_OWNER) mine.plaintext = Buffer.concat(blocks.slice(0, n));
      return mine;
    }
    if (isDealer) return { ...options, instances: n };
    const owned = slot === KEY_OWNER ? keys : blocks;
    return { ...options, instances: owned.slice(0, n).map((value) => ({ inputs: { [slot]: value } })) };
  };
  /** The expected outputs' hex (one string per instance) of a job of `n` instances. */
  const expected = (n) =>
    job === 'aes'
      ? [aesEcb(keys[0], Buffer.concat(blocks.slice(0, n))).toString('hex')]
      : blocks.slice(0, n).map((block, i) => aesEcb(keys[i], block).toString('hex'));
  /** The outputs' hex a result carries, in the shape of `expected`. */
  const outputsOf = (result) => (job === 'aes' ? [result.ciphertextHex] : result.instances.map((i) => i.outputs[0].hex));
  const check = (result, n) => {
    if (isDealer) return;
    const got = outputsOf(result);
    const want = expected(n);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      throw new Error(`member ${slot}: wrong outputs for ${n} instances (first: ${got[0]?.slice(0, 32)}, expected ${want[0].slice(0, 32)})`);
    }
  };
  const prepareOptions = (n, perJob) => {
    const base = { job, ...options, ...(options.protocol === 'tinytable' ? {} : { perJob }) };
    return job === 'aes' ? { ...base, blocks: n } : { ...base, circuit, evaluations: n };
  };
  const run = (n) => {
    const args = { ...jobArgs(n), usePrepared: true };
    return job === 'aes' ? session.aes(args) : session.evaluate(circuit, args);
  };
  /** Prepares one job of `n` instances, then times it; checks its outputs. */
  const preparedJob = async (n) => {
    const t0 = performance.now();
    const made = await session.prepare(prepareOptions(n, n));
    const prepareMs = performance.now() - t0;
    const start = now();
    const result = await run(n);
    const end = now();
    check(result, n);
    return { span: [start, end], prepareMs, prepareBytes: made.stats.bytesSent, result };
  };

  const first = await preparedJob(instances);
  const steady = [];
  for (let i = 0; i < (batch.reps ?? 1); i++) steady.push(await preparedJob(instances));
  const latency = [];
  if (batch.latency) {
    await session.prepare(prepareOptions(batch.latency, 1));
    for (let i = 0; i < batch.latency; i++) {
      const start = now();
      const result = await run(1);
      latency.push([start, now()]);
      check(result, 1);
    }
  }
  const { result } = steady.at(-1);
  return {
    slot,
    first: first.span,
    steady: steady.map((job) => job.span),
    prepareMs: first.prepareMs,
    prepareBytes: first.prepareBytes,
    latency,
    runtime: result.runtime,
    stats: result.stats,
    online: result.onlineStats,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const invite = JSON.parse(process.env.CHORUS_INVITE);
  const session = await connect({
    ...invite,
    secret: process.env.CHORUS_SECRET,
    runtime: process.env.CHORUS_RUNTIME,
    signal: AbortSignal.timeout(1_800_000),
  });
  try {
    const figures = await runBatchMember(session, invite.slot, JSON.parse(process.env.CHORUS_BATCH), process.env.CHORUS_SEED);
    console.log(JSON.stringify(figures));
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    // A dealer's part of a prepared job ends at its agreement: wait for the parties' end markers
    // (past `close`'s default 2 s, which a large WASM job outlasts) before leaving the room.
    await session.close({ lingerMs: 600_000 });
  }
}

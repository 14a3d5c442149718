/**
 * Warming the WASM core up before a session's first job (`Session.warmUp`, `connect`'s `warmUp`).
 *
 * V8 runs a WASM function in its baseline tier until it has run long enough, then optimizes it for
 * its later calls; a call already running never switches. A session's first job would run much of
 * the core unoptimized. A warm-up runs the same job's code first — every member of the session
 * inside this realm's module, over in-memory channels, with zero inputs and at a capped size (the
 * core's `chorus_bindings::warm`) — and drops the result: no frame is sent, nothing of the session
 * (credentials, inputs, prepared material) is used. The native addon's code is compiled ahead of
 * time, so there a warm-up does nothing.
 */
import { ChorusError, ConfigError } from '../errors.js';
import { isMixedCircuit, mixedCircuit, parseLoaded } from './circuits.js';
import { checkError, warmUpJob } from './job-options.js';
import { loadRuntime, type ResolvedRuntime, type Runtime } from './runtime.js';
import type { WarmUpOptions, WarmUpResult } from './session-types.js';
import { initWasm, warmUpWasm, type WasmSource } from './wasm-loader.js';

/** A core failure as the WASM module reports it. */
interface CoreError {
  kind?: string;
  message?: string;
}

/**
 * Runs the warm-up of `options` for a session of `parties` on `runtime` (nothing on `'native'`).
 * Rejects with the {@link ConfigError} or `NotAvailableError` the job of these options would give.
 */
export async function warmUp(runtime: ResolvedRuntime, parties: number, options: WarmUpOptions, wasm?: WasmSource): Promise<WarmUpResult> {
  const start = performance.now();
  if (typeof options !== 'object' || options === null) throw new ConfigError('warmUp', 'expected { job, ...the job\'s options }');
  if (options.job !== 'aes' && options.job !== 'evaluate') throw new ConfigError('job', "job must be 'aes' or 'evaluate'");
  if (runtime !== 'wasm') return { runtime, warmed: false, runs: 0, timeMs: 0 };
  await initWasm(wasm);
  let circuit: Parameters<typeof warmUpJob>[1];
  if (options.job === 'evaluate') {
    const given = options.circuit;
    if (isMixedCircuit(given)) {
      const { parsed, fields } = mixedCircuit(given, (options as { ring?: unknown }).ring);
      circuit = { parsed, mixed: fields };
    } else {
      circuit = { parsed: typeof given === 'object' && given !== null ? parseLoaded(given.text) : parseLoaded(given) };
    }
  }
  const { job, spec } = warmUpJob(options, circuit);
  // V8 optimizes the hot functions over a few runs, not at once: at least MIN_RUNS, then again
  // while a run is clearly faster than the fastest before, within bounds. Between runs the event
  // loop turns (I/O, timers).
  let runs = 0;
  let best = Infinity;
  while (runs < MAX_RUNS && performance.now() - start < BUDGET_MS) {
    const t0 = performance.now();
    try {
      await warmUpWasm(job, parties, spec);
    } catch (error) {
      const e = (typeof error === 'object' && error !== null ? error : {}) as CoreError;
      if (e.kind === 'config' || e.kind === 'not-available') throw checkError(error, spec as Record<string, unknown>);
      throw new ChorusError(e.kind ?? 'internal', `the warm-up failed: ${e.message ?? String(error)}`, { cause: error });
    }
    runs += 1;
    const ms = performance.now() - t0;
    if (runs >= MIN_RUNS && ms > best * CONVERGED) break;
    best = Math.min(best, ms);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { runtime, warmed: true, runs, timeMs: performance.now() - start };
}

/** The fewest runs of a warm-up (within its time budget). */
const MIN_RUNS = 3;
/** The most runs of a warm-up. */
const MAX_RUNS = 10;
/** A warm-up starts no run after this many ms. */
const BUDGET_MS = 3000;
/** A run (past the first MIN_RUNS) that takes more than this share of the fastest before ends the warm-up. */
const CONVERGED = 0.9;

/** Options of {@link warmUpCore}: a job to come, the session's party count and its core. */
export type StandaloneWarmUpOptions = WarmUpOptions & {
  /** The parties of the sessions to come (every member runs inside this realm's module). */
  parties: number;
  /** The core the sessions will use (`'auto'`: the native addon in Node if it loads, else WASM). */
  runtime?: Runtime;
  /** Where to load the WASM module from. */
  wasm?: WasmSource;
};

/**
 * Warms the core up for jobs like `options` before any session exists — at page load, say, while
 * the users have not met yet — as `Session.warmUp` does inside one (the WASM module is shared by
 * every session of this realm). Rejects with `ConfigError` for a bad `parties` or runtime, and
 * with the error the job would give for options it refuses.
 */
export async function warmUpCore(options: StandaloneWarmUpOptions): Promise<WarmUpResult> {
  if (typeof options !== 'object' || options === null) throw new ConfigError('warmUp', 'expected { job, parties, ...the job\'s options }');
  const { parties, runtime, wasm, ...job } = options;
  if (!Number.isInteger(parties) || parties < 2) throw new ConfigError('parties', `expected an integer of at least 2, got ${String(parties)}`);
  const core = await loadRuntime(runtime ?? 'auto', wasm);
  return warmUp(core.name, parties, job as WarmUpOptions, wasm);
}

/** The warm-ups of `connect`'s `warmUp` option, one after the other. */
export async function warmUpAll(
  runtime: ResolvedRuntime,
  parties: number,
  options: WarmUpOptions | WarmUpOptions[] | undefined,
  wasm?: WasmSource,
): Promise<void> {
  if (options === undefined) return;
  for (const one of Array.isArray(options) ? options : [options]) await warmUp(runtime, parties, one, wasm);
}

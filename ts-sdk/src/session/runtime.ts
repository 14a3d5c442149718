/**
 * Which core runs a session's jobs: the WASM module (every platform) or, in Node, the native
 * Node-API addon `@chorus/node` (the Rust core with its native fast paths: PCLMULQDQ, AES-NI, …).
 * Both expose the same `Bridge` calls and read the same arguments with the same Rust code, so the
 * session drives them alike, and parties of different runtimes share one wire format and one spec
 * digest.
 *
 * `runtime: 'auto'` (default) takes the addon in Node when it is installed and loads, else WASM
 * with a one-line notice (once per process); browsers always use WASM. `'native'` rejects with a
 * {@link ConfigError} on `runtime` saying why the addon is unusable; `'wasm'` never tries it.
 */
import { ConfigError } from '../errors.js';
import { Bridge as WasmBridge, initWasm, type WasmSource } from './wasm-loader.js';
import type { NativeRelayFactory, NativeRelayHandle } from '../transport/native-relay.js';

/** The runtime a session asks for. */
export type Runtime = 'auto' | 'native' | 'wasm';
/** The runtime a session uses. */
export type ResolvedRuntime = 'native' | 'wasm';

/** Job statistics as the core reports them. */
interface CoreStats {
  rounds: number;
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
  /** Progress only: the job's phase, once it said. */
  online?: boolean | null;
  /** Progress only: a batched circuit job's instances done and in all. */
  instancesDone?: number | null;
  instancesTotal?: number | null;
}

/**
 * One party's end of a session in the core, as both runtimes expose it (the WASM module's `Bridge`
 * calls): jobs one at a time over the channels its first job opened.
 */
export interface JobBridge {
  deliver(from: number, frame: Uint8Array): void;
  peerLeft(slot: number): void;
  fail(reason: string): void;
  /**
   * Checks a job for this party as `runAes` would before it starts (the only validation of job
   * options): returns what it runs, or throws the core's `config` / `not-available` error.
   */
  checkAes(spec: object, input: object): unknown;
  /** Checks a circuit job like {@link JobBridge.checkAes}. */
  checkCircuit(spec: object, input: object): unknown;
  /** Checks a prepare job like {@link JobBridge.checkAes}. */
  checkPrepare(spec: object): unknown;
  runAes(session: object, spec: object, input: object, onProgress?: ((stats: CoreStats) => void) | null): Promise<unknown>;
  runCircuit(session: object, spec: object, input: object, onProgress?: ((stats: CoreStats) => void) | null): Promise<unknown>;
  /** Makes preprocessing ahead of time for later jobs of the session (kept in the core). */
  prepare(session: object, spec: object, onProgress?: ((stats: CoreStats) => void) | null): Promise<unknown>;
  /**
   * The running job's statistics as of its last received message, read without a progress report
   * (the addon only: there a report wakes the JS thread, so jobs nobody listens to report none).
   */
  liveStats?(): CoreStats | undefined;
  free(): void;
}

/** A loaded runtime: makes a session's bridge. */
export interface CoreRuntime {
  readonly name: ResolvedRuntime;
  /**
   * The bridge of party `party` of `parties`, sending frames through `send(to, frame)` — or, given
   * the addon's relay `link` of the same session, through that link without JS.
   */
  createBridge(party: number, parties: number, send: (to: number, frame: Uint8Array) => void, link?: NativeRelayHandle): JobBridge;
  /** The addon's relay links (native runtime only): the session's connection served in Rust. */
  readonly relayLink?: NativeRelayFactory;
}

/** The addon's module, as `@chorus/node` exports it. */
interface NativeModule {
  Bridge: new (
    party: number,
    parties: number,
    events: (to: number, frame?: Uint8Array | null, stats?: CoreStats | null) => void,
    link?: NativeRelayHandle,
  ) => NativeBridge;
  /** Absent from addons built before the addon served relay connections itself. */
  RelayLink?: new (slot: number, parties: number, events: Parameters<NativeRelayFactory>[2]) => NativeRelayHandle;
  version(): string;
}

interface NativeOutcome {
  error?: { kind: string; message: string; slot?: number; field?: string; check?: string };
}

type NativeCheck = { error?: NativeOutcome['error'] } & Record<string, unknown>;

type NativeBridge = Omit<JobBridge, 'runAes' | 'runCircuit' | 'prepare' | 'checkAes' | 'checkCircuit' | 'checkPrepare' | 'liveStats'> & {
  liveStats(): CoreStats | null | undefined;
  checkAes(spec: object, input: object): NativeCheck;
  checkCircuit(spec: object, input: object): NativeCheck;
  checkPrepare(spec: object): NativeCheck;
  runAes(session: object, spec: object, input: object, progress: boolean): Promise<NativeOutcome>;
  runCircuit(session: object, spec: object, input: object, progress: boolean): Promise<NativeOutcome>;
  prepare(session: object, spec: object, progress: boolean): Promise<NativeOutcome>;
};

/** The addon's package, kept in a variable so browser bundlers leave the import alone. */
const NATIVE_MODULE = '@chorus/node';

const wasmRuntime: CoreRuntime = {
  name: 'wasm',
  createBridge: (party, parties, send) => new WasmBridge(party, parties, send) as unknown as JobBridge,
};

function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

/** A native failure as the WASM module throws it: an `Error` with the same fields. */
function thrown(error: NonNullable<NativeOutcome['error']>): Error {
  const { message, ...fields } = error;
  return Object.assign(new Error(message), Object.fromEntries(Object.entries(fields).filter(([, v]) => v != null)));
}

/** A native check as the WASM module reports it: the labels present, or the thrown error. */
function labels(check: NativeCheck): unknown {
  if (check.error != null) throw thrown(check.error);
  return Object.fromEntries(Object.entries(check).filter(([, v]) => v != null));
}

/** The outcome of a native job as the WASM module reports it: a result, or a thrown `Error` with the same fields. */
function settle(outcome: NativeOutcome): unknown {
  if (outcome.error != null) throw thrown(outcome.error);
  return outcome;
}

function nativeRuntime(module: NativeModule): CoreRuntime {
  const { RelayLink } = module;
  return {
    name: 'native',
    ...(typeof RelayLink === 'function' ? { relayLink: (slot, parties, events) => new RelayLink(slot, parties, events) } : {}),
    createBridge(party, parties, send, link) {
      // The addon reports frames and progress through one callback, on the JS thread after the job
      // queued them, so a throwing `send` cannot reach the job: it fails the bridge instead, as a
      // throw inside the WASM job would. A progress listener's throw is dropped, as in WASM.
      let progress: ((stats: CoreStats) => void) | null | undefined;
      let bridge: NativeBridge | undefined = undefined;
      bridge = new module.Bridge(party, parties, (to, frame, stats) => {
        try {
          if (frame !== undefined && frame !== null) send(to, frame);
          else if (stats !== undefined && stats !== null) progress?.(stats);
        } catch (error) {
          if (frame !== undefined && frame !== null) bridge?.fail(error instanceof Error ? error.message : String(error));
        }
      }, link);
      const native = bridge;
      return {
        deliver: (from, frame) => native.deliver(from, frame),
        peerLeft: (slot) => native.peerLeft(slot),
        fail: (reason) => native.fail(reason),
        checkAes: (spec, input) => labels(native.checkAes(spec, input)),
        checkCircuit: (spec, input) => labels(native.checkCircuit(spec, input)),
        checkPrepare: (spec) => labels(native.checkPrepare(spec)),
        runAes: async (session, spec, input, onProgress) => {
          progress = onProgress;
          return settle(await native.runAes(session, spec, input, typeof onProgress === 'function'));
        },
        runCircuit: async (session, spec, input, onProgress) => {
          progress = onProgress;
          return settle(await native.runCircuit(session, spec, input, typeof onProgress === 'function'));
        },
        prepare: async (session, spec, onProgress) => {
          progress = onProgress;
          return settle(await native.prepare(session, spec, typeof onProgress === 'function'));
        },
        liveStats: () => native.liveStats() ?? undefined,
        free: () => native.free(),
      };
    },
  };
}

let native: Promise<CoreRuntime> | undefined;
let noticeGiven = false;

/** Imports the addon once per realm; rejects with the reason it is unusable. */
function loadNative(): Promise<CoreRuntime> {
  native ??= (async () => {
    if (!isNode()) throw new Error('the native addon runs in Node only; browsers use WASM');
    const module = (await import(/* @vite-ignore */ NATIVE_MODULE)) as NativeModule;
    if (typeof module.Bridge !== 'function') throw new Error(`${NATIVE_MODULE} has no Bridge export`);
    return nativeRuntime(module);
  })();
  return native;
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/**
 * Loads the runtime a session asks for (`wasm` says where the WASM module comes from). Rejects with
 * a {@link ConfigError} on `runtime` for an unknown name, or for `'native'` when the addon cannot
 * be used (not installed, built for another platform, failing to load, or not in Node).
 */
export async function loadRuntime(runtime: Runtime = 'auto', wasm?: WasmSource): Promise<CoreRuntime> {
  switch (runtime) {
    case 'wasm':
      await initWasm(wasm);
      return wasmRuntime;
    case 'native':
      try {
        return await loadNative();
      } catch (error) {
        throw new ConfigError('runtime', `the native addon ${NATIVE_MODULE} cannot be used: ${reason(error)}`);
      }
    case 'auto':
      if (isNode()) {
        try {
          return await loadNative();
        } catch (error) {
          if (!noticeGiven) {
            noticeGiven = true;
            console.warn(`chorus: using the WASM core; the native addon ${NATIVE_MODULE} is unusable (${reason(error)})`);
          }
        }
      }
      await initWasm(wasm);
      return wasmRuntime;
    default:
      throw new ConfigError('runtime', `unknown runtime ${JSON.stringify(runtime)}: 'auto', 'native' or 'wasm'`);
  }
}

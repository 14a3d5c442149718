/**
 * The session API: {@link connect} joins a relay room, or starts a session over a transport the
 * caller brings (`transport`, see `message-link.ts`), and returns a {@link Session} whose jobs run
 * in the Chorus core — the WASM module, or in Node the native addon (`runtime`, see `runtime.ts`).
 * The session sees its transport only as a {@link SessionLink}. Every frame between the parties is
 * encrypted and authenticated end to end by the Noise channels inside the core (session secret:
 * `NNpsk0`; pinned keys: `KK`; over a caller's transport also `unauthenticated`: `NN`); the
 * transport and this file only move opaque frames.
 *
 * One bridge per session: the first job opens the Noise channels to every peer (one handshake per
 * session, under the id of the room's first job, as the Rust runner uses it) and later jobs run
 * over the same channels. Frames that arrive while no job runs (a faster peer already started the
 * next job) wait in the bridge for the next job, so the parties need not call a job at the same
 * instant. A failure of a job (a peer left, a frame failed authentication, a protocol check failed,
 * cancellation) ends the session: the connection is closed, so the peers fail promptly too.
 *
 * Job end marker: after a job succeeds, each party sends every peer one empty data frame (channel
 * frames are never empty). {@link Session.close} waits, up to a bound, for the peers' markers of
 * every finished job before it closes the connection, so a party that finishes first does not
 * leave while a slower one still needs the relay (its departure would break the room for
 * everyone). The marker is not authenticated; forging or dropping it only makes a close earlier or
 * later, which the relay can cause anyway.
 */
import { abortError, ChorusError, ConfigError, IntegrityError, NotAvailableError, PeerLeftError, ProtocolAbortError } from '../errors.js';
import { toBytes, toHex, utf8 } from '../bytes.js';
import { Emitter, type Listener, type Unsubscribe } from '../events.js';
import { RelayConnection } from '../transport/relay-connection.js';
import { NativeRelayLink, nativeRelayFits } from '../transport/native-relay.js';
import { MessageLink } from '../transport/message-link.js';
import type { SessionLink } from '../transport/session-link.js';
import type { TransportStats } from '../transport/connection-types.js';
import { isMixedCircuit, mixedCircuit, outputValue, parseLoaded } from './circuits.js';
import { aesJob, checkError, evaluateJob, prepareJob, type BridgeJob } from './job-options.js';
import { warmUp, warmUpAll } from './warm-up.js';
import type {
  AesOptions,
  AesResult,
  ConnectOptions,
  EvaluateOptions,
  EvaluateResult,
  InstanceOutputs,
  MixedCircuit,
  ParsedCircuit,
  PrepareOptions,
  PrepareResult,
  ProtocolStats,
  ProgressEvent,
  SessionEvents,
  SessionStats,
  TransportConnectOptions,
  WarmUpOptions,
  WarmUpResult,
} from './session-types.js';
import { initWasm, type WasmSource } from './wasm-loader.js';
import { loadRuntime, type CoreRuntime, type JobBridge, type ResolvedRuntime } from './runtime.js';

/** Shortest session secret the channel accepts (bytes). */
export const MIN_SECRET_BYTES = 16;
const KEY_BYTES = 32;
/** Default bound of {@link Session.close}'s wait for the peers to finish. */
const CLOSE_LINGER_MS = 2000;
const END_MARKER = new Uint8Array(0);

type Credentials =
  | { secret: Uint8Array }
  | { privateKey: Uint8Array; publicKeys: Uint8Array[] }
  | { channel: 'unauthenticated' };

function credentials(options: ConnectOptions | TransportConnectOptions): Credentials {
  const { secret, keys } = options;
  const unauthenticated = 'transport' in options && options.unauthenticated === true;
  if (unauthenticated) {
    if (secret !== undefined || keys !== undefined) {
      throw new ConfigError('unauthenticated', 'an unauthenticated session takes neither `secret` nor `keys`');
    }
    return { channel: 'unauthenticated' };
  }
  if ((secret === undefined) === (keys === undefined)) {
    const more = 'transport' in options ? ', or `unauthenticated: true` where the transport authenticates the parties' : '';
    throw new ConfigError('secret', `give exactly one of \`secret\` (session secret) and \`keys\` (pinned keys)${more}`);
  }
  if (secret !== undefined) {
    const bytes = toBytes(secret, 'secret');
    if (bytes.length < MIN_SECRET_BYTES) {
      throw new ConfigError('secret', `must be at least ${MIN_SECRET_BYTES} random bytes, got ${bytes.length}`);
    }
    return { secret: bytes };
  }
  if (typeof keys !== 'object' || keys === null || !Array.isArray(keys.publicKeys)) {
    throw new ConfigError('keys', 'expected { privateKey, publicKeys: [...] }');
  }
  const privateKey = toBytes(keys.privateKey, 'keys.privateKey');
  const publicKeys = keys.publicKeys.map((k) => toBytes(k, 'keys.publicKeys'));
  if (privateKey.length !== KEY_BYTES || publicKeys.some((k) => k.length !== KEY_BYTES)) {
    throw new ConfigError('keys', `keys are ${KEY_BYTES} bytes each`);
  }
  if (publicKeys.length !== options.parties) {
    throw new ConfigError('keys.publicKeys', `expected ${options.parties} public keys, one per party`);
  }
  return { privateKey, publicKeys };
}

/**
 * Connects to the relay room of an invite, waits until every party is connected, and loads the
 * core (`runtime`: the native addon in Node when it loads, else the WASM module). Rejects with
 * {@link ConfigError} for bad options (including a secret under 16 bytes, or `runtime: 'native'`
 * where the addon cannot be used),
 * `RelayError` if the relay refuses or cannot be reached, `CancelledError` (an `AbortError`) if
 * `signal` aborts. `signal` governs the whole session, like `RelayConnection.open`'s.
 */
export async function connect(options: ConnectOptions | TransportConnectOptions): Promise<Session> {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
  if ('transport' in options) return connectTransport(options);
  const creds = credentials(options);
  const core = loadRuntime(options.runtime ?? 'auto', options.wasm);
  core.catch(() => undefined);
  if (options.runtime !== 'wasm' && nativeRelayFits(options)) {
    const runtime = await core;
    if (runtime.relayLink !== undefined) {
      // The addon's code needs no warm-up: the options are only checked.
      await warmUpAll(runtime.name, options.parties, options.warmUp);
      const link = await NativeRelayLink.open(options, runtime.relayLink);
      return new Session(link, creds, runtime, options.wasm);
    }
  }
  const connection = await RelayConnection.open(options);
  let runtime: CoreRuntime;
  try {
    runtime = await core;
    // The warm-ups run while the room fills.
    const warming = warmUpAll(runtime.name, connection.parties, options.warmUp, options.wasm);
    await Promise.all([warming, connection.ready()]);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return new Session(connection, creds, runtime, options.wasm);
}

/**
 * A session over the caller's transport: no relay, no room, no `ready` to wait for (the first
 * job's handshakes wait for the peers). The transport's `listen` is called before this resolves.
 */
async function connectTransport(options: TransportConnectOptions): Promise<Session> {
  const { transport, slot, parties, sessionId, signal } = options;
  MessageLink.check(transport, slot, parties, sessionId);
  const creds = credentials(options);
  if (signal?.aborted) throw abortError(signal, 'connecting');
  const runtime = await loadRuntime(options.runtime ?? 'auto', options.wasm);
  if (signal?.aborted) throw abortError(signal, 'connecting');
  await warmUpAll(runtime.name, parties, options.warmUp, options.wasm);
  if (signal?.aborted) throw abortError(signal, 'connecting');
  const link = new MessageLink(transport, slot, parties, sessionId);
  const session = new Session(link, creds, runtime, options.wasm);
  if (signal !== undefined) {
    signal.addEventListener('abort', () => void session.abort(abortError(signal, 'the session')), { once: true });
  }
  return session;
}

interface WasmError {
  kind?: string;
  message?: string;
  slot?: number;
  field?: string;
  check?: string;
}

/** What the core adds to a progress report: the job's phase and a batch's instances, once said. */
interface CoreProgress {
  online?: boolean | null;
  instancesDone?: number | null;
  instancesTotal?: number | null;
}

/** A circuit job's result from the core (see the bindings' `OutputBatch`). */
interface CoreCircuitOutput {
  /** Instances evaluated (0 at a dealer). */
  outputInstances: number;
  /** The output values revealed to this party. */
  revealed: number[];
  /** Their bits (0 or 1), instance after instance, each instance's revealed values in order. */
  bits: Uint8Array;
  stats: ProtocolStats;
  onlineStats: ProtocolStats;
  preprocessingStats: ProtocolStats;
  transportStats: ProtocolStats;
}

/** Each instance's outputs from the core's batch. */
function instanceOutputs(circuit: ParsedCircuit, output: CoreCircuitOutput): InstanceOutputs[] {
  const revealed = new Set(output.revealed);
  const perInstance = output.revealed.reduce((sum, v) => sum + (circuit.outputWidths[v] ?? 0), 0);
  const instances: InstanceOutputs[] = [];
  for (let i = 0; i < output.outputInstances; i++) {
    let at = i * perInstance;
    const outputs = circuit.outputWidths.map((width, v) => {
      if (!revealed.has(v)) return undefined;
      const bits = output.bits.subarray(at, at + width);
      at += width;
      const values = new Array<boolean>(width);
      for (let k = 0; k < width; k++) values[k] = bits[k] === 1;
      return outputValue(values);
    });
    instances.push({ outputs });
  }
  return instances;
}

function zeroStats(): ProtocolStats {
  return { rounds: 0, bytesSent: 0, bytesReceived: 0, messagesSent: 0, messagesReceived: 0 };
}

/**
 * One party's session (in a relay room, or over the caller's transport); run jobs with
 * {@link Session.aes} and {@link Session.evaluate}.
 */
export class Session {
  /** This party's slot. */
  readonly slot: number;
  /** Number of parties. */
  readonly parties: number;
  /**
   * The room id (or, over the caller's transport, its `sessionId`), from which the session id of
   * the channels is derived.
   */
  readonly room: string;
  /** The core this session's jobs run on: `'native'` (the Node addon) or `'wasm'`. */
  readonly runtime: ResolvedRuntime;
  /**
   * What moves this session's frames: `'relay'` (the relay connection in JavaScript),
   * `'relay-addon'` (the relay connection served by the Node addon, see `nativeRelay`) or
   * `'caller'` (the caller's transport).
   */
  readonly transport: 'relay' | 'relay-addon' | 'caller';

  private readonly events = new Emitter<SessionEvents>();
  /** This party's end of the session in the core; `undefined` once freed. */
  private bridge: JobBridge | undefined;
  private running = false;
  private failure: ChorusError | undefined;
  private jobsDone = 0;
  private readonly totals = { bytesSent: 0, bytesReceived: 0, rounds: 0, timeMs: 0 };
  private live: ProtocolStats = zeroStats();
  private liveStart: number | undefined;
  /** End markers received from each peer (one per finished job). */
  private readonly markers: number[];
  private readonly markerWaiters = new Set<() => void>();

  /** @internal use {@link connect} */
  constructor(
    private readonly connection: SessionLink,
    private readonly creds: Credentials,
    private readonly core: CoreRuntime,
    private readonly wasmSource: WasmSource | undefined,
  ) {
    this.runtime = core.name;
    this.transport = connection instanceof NativeRelayLink ? 'relay-addon' : connection instanceof RelayConnection ? 'relay' : 'caller';
    this.slot = connection.slot;
    this.parties = connection.parties;
    this.room = connection.sessionName;
    this.markers = new Array<number>(this.parties).fill(0);
    const native = connection instanceof NativeRelayLink ? connection.handle : undefined;
    this.bridge = core.createBridge(this.slot, this.parties, (to: number, frame: Uint8Array) => this.connection.send(to, frame), native);
    connection.onFrame((from, frame) => {
      if (frame.length === 0) {
        this.markers[from] = (this.markers[from] ?? 0) + 1;
        for (const check of [...this.markerWaiters]) check();
        return;
      }
      this.bridge?.deliver(from, frame);
    });
    connection.on('peer-left', (event) => {
      this.events.emit('peer-left', event);
      if (event.sessionBroken) this.break(new PeerLeftError(event.slot, event.reason), event.slot);
    });
    connection.on('peer-away', (event) => this.events.emit('peer-away', event));
    connection.on('peer-back', (event) => this.events.emit('peer-back', event));
    let reconnecting = false;
    connection.on('connection', (event) => {
      if (event.state === 'reconnecting') {
        reconnecting = true;
        this.events.emit('reconnecting', { roster: event.roster });
      } else if (event.state === 'ready' && reconnecting) {
        reconnecting = false;
        this.events.emit('reconnected', { roster: event.roster });
      }
      if (event.state === 'broken' || event.state === 'closed') {
        const error = event.error ?? new ChorusError('closed', 'the session was closed');
        this.break(error, error instanceof PeerLeftError ? error.slot : undefined);
      }
    });
  }

  /**
   * Listens to `progress`, `peer-left`, `peer-away`, `peer-back`, `reconnecting` or `reconnected`;
   * returns the unsubscribe function. A job reports `progress` to the listeners registered before
   * it started (on the native addon, a job nobody listens to reports none, which saves a wake-up of
   * this thread per message; {@link Session.stats} stays live either way).
   */
  on<K extends keyof SessionEvents>(name: K, listener: Listener<SessionEvents[K]>): Unsubscribe {
    return this.events.on(name, listener);
  }

  /** Totals over the jobs so far, including the running one. */
  stats(): SessionStats {
    const running = this.liveStart === undefined ? 0 : performance.now() - this.liveStart;
    if (running > 0) this.live = this.bridge?.liveStats?.() ?? this.live;
    return {
      bytesSent: this.totals.bytesSent + this.live.bytesSent,
      bytesReceived: this.totals.bytesReceived + this.live.bytesReceived,
      rounds: this.totals.rounds + this.live.rounds,
      timeMs: this.totals.timeMs + running,
      jobs: this.jobsDone,
    };
  }

  /** Transport counters of the relay connection or transport (encrypted frames, including handshakes). */
  transportStats(): TransportStats {
    return this.connection.stats();
  }

  /**
   * Joint AES. `protocol: 'maestro'` (default): three parties, honest majority, AES-128/192/256,
   * the S-box `variant` of MAESTRO's Table 1 (default malicious `lut16`). `protocol: 'tinytable'`:
   * AES-128 between parties 0 and 1, with `preprocessing: 'ot'` (default: the two parties make
   * it over OT in a session of two, nobody else trusted) or `'dealer'` (a **trusted dealer** in
   * slot 2 deals it; it knows every mask and must not collude with either party). The key is the XOR
   * of the shares of `keyHolders`, the plaintext comes from `plaintextOwner`, the ciphertext goes to
   * `reveal` (defaults in {@link AesOptions}). Every member calls it with the same options, passing
   * only its own inputs; a mismatch rejects with {@link ProtocolAbortError}
   * (`check: 'job spec agreement'`).
   *
   * Rejects with {@link ConfigError} for unknown protocols, variants or security levels and inputs
   * that do not fit this party's roles (`NotAvailableError`, a `ConfigError`, for combinations
   * not implemented), {@link ProtocolAbortError} when a malicious-security check (MAESTRO's
   * verification or hash comparison, TinyTable's MACs) catches a deviating party (`check` names
   * it; no output is revealed), {@link PeerLeftError}, {@link IntegrityError}, `RelayError`, or
   * `CancelledError` when `signal` (or the session's) aborts. Any failure ends the session.
   *
   * `protocol: 'minimac'`: AES between parties 0 and 1 under MiniMac (malicious with abort,
   * ciphertext to `reveal`: both or one), preprocessing over OT or from a trusted dealer in slot 2.
   * `protocol: 'coral'`: likewise under Coral — and over OT among every member of a session of
   * three to eight, no dealer (secure while one member is honest; roles default to MAESTRO's:
   * key shares from parties 0 and 1, the plaintext from the last, the ciphertext to all).
   */
  async aes(options: AesOptions = {}): Promise<AesResult> {
    const job = aesJob(this.checkIdle('aes'), options);
    const { output, timeMs } = await this.runJob<{
      ciphertext?: Uint8Array;
      stats: ProtocolStats;
      onlineStats: ProtocolStats;
      preprocessingStats: ProtocolStats;
      transportStats: ProtocolStats;
    }>(job, options.signal, 'the AES job');
    const { protocol, variant, security, preprocessing } = job.labels;
    const result: AesResult = {
      protocol,
      runtime: this.runtime,
      variant: variant as AesResult['variant'],
      security,
      ...(preprocessing === undefined ? {} : { preprocessing }),
      prepared: job.labels.prepared ?? false,
      stats: { ...output.stats, timeMs },
      roundsStats: output.onlineStats,
      onlineStats: output.onlineStats,
      preprocessingStats: output.preprocessingStats,
      transportStats: output.transportStats,
    };
    if (output.ciphertext !== undefined) {
      result.ciphertext = output.ciphertext;
      result.ciphertextHex = toHex(output.ciphertext);
    }
    return result;
  }

  /**
   * Evaluates a Bristol Fashion circuit (its text, or a {@link ParsedCircuit} from `parseCircuit`)
   * with two-party TinyTable: parties 0 and 1 own the input values (`inputOwners`) and learn the
   * outputs `reveal` gives them. Preprocessing over OT between the two parties in a session of two
   * by default; with `preprocessing: 'dealer'` slot 2 is the **trusted dealer** (no inputs, no
   * outputs; it knows every mask and must not collude with either party). Semi-honest by default;
   * `security: 'malicious'` authenticates every opened table entry. `protocol: 'minimac'` evaluates
   * it under MiniMac instead (malicious with abort, each output to both parties or one). `protocol:
   * 'coral'` too, and over OT among every member of a session of two to eight (each owns any inputs
   * and may receive any output; nobody else is trusted, all but one member may collude). One
   * evaluation per call, or a batch with `instances`.
   *
   * A {@link MixedCircuit} (Summon's `{ bristol, info }` compiled without boolify) runs on Coral's
   * arithmetic shares (`protocol` defaults to `'coral'`, `ring` 32 or 64): each input value is one
   * k-bit integer, each output goes to every party or to one (`reveal`); a session of up to eight
   * members runs it with every member computing.
   *
   * Rejects with `CircuitError` (a {@link ConfigError} on `circuit`, with the `line` of a parse
   * error), {@link ConfigError} for bad inputs (naming `inputs[i]`), and otherwise like
   * {@link Session.aes}.
   */
  async evaluate(circuit: string | ParsedCircuit | MixedCircuit, options: EvaluateOptions = {}): Promise<EvaluateResult> {
    // Circuits are parsed by the WASM module whatever runs the job.
    if (this.core.name !== 'wasm') await initWasm(this.wasmSource);
    const bridge = this.checkIdle('evaluate');
    let parsed: ParsedCircuit;
    let mixed: object | undefined;
    if (isMixedCircuit(circuit)) {
      ({ parsed, fields: mixed } = mixedCircuit(circuit, (options as { ring?: unknown }).ring));
    } else {
      parsed = typeof circuit === 'object' && circuit !== null ? parseLoaded(circuit.text) : parseLoaded(circuit);
    }
    const job = evaluateJob(bridge, parsed, options, mixed);
    const { output, timeMs } = await this.runJob<CoreCircuitOutput>(job, options.signal, 'the circuit job');
    const instances = instanceOutputs(parsed, output);
    const result: EvaluateResult = {
      outputs: instances[0]?.outputs ?? parsed.outputWidths.map(() => undefined),
      protocol: job.labels.protocol,
      runtime: this.runtime,
      preprocessing: job.labels.preprocessing,
      prepared: job.labels.prepared ?? false,
      stats: { ...output.stats, timeMs },
      onlineStats: output.onlineStats,
      preprocessingStats: output.preprocessingStats,
      transportStats: output.transportStats,
    };
    if (options.instances !== undefined) result.instances = instances;
    return result;
  }

  /**
   * Makes preprocessing ahead of time (TinyTable over OT, MiniMac and Coral over OT or from the
   * dealer), while the session is idle, for later `aes` or `evaluate` jobs of the same kind (see
   * {@link PrepareOptions}): those jobs then run their online phase alone, consuming the prepared
   * instances once each (see the jobs' `usePrepared`). Every member calls it with the same
   * options. `progress` events report it like a job (it is the long part; MiniMac and Coral say
   * the instances made so far); `signal` cancels it and closes the session. Options that cannot
   * be prepared (MAESTRO, TinyTable with a dealer) reject with a `NotAvailableError`, bad ones
   * with a `ConfigError`, before anything is sent. The material lives in this session's core and
   * ends with the session.
   */
  async prepare(options: PrepareOptions): Promise<PrepareResult> {
    if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
    let circuit: ParsedCircuit | undefined;
    if (options.job === 'evaluate') {
      // Circuits are parsed by the WASM module whatever runs the job.
      if (this.core.name !== 'wasm') await initWasm(this.wasmSource);
      const given = options.circuit;
      if (isMixedCircuit(given)) {
        throw new NotAvailableError('circuit', 'preparing for a mixed circuit', "a mixed circuit's Spdz2k material is made inside each job");
      }
      circuit = typeof given === 'object' && given !== null ? parseLoaded(given.text) : parseLoaded(given);
    }
    const job = prepareJob(this.checkIdle('prepare'), options, circuit);
    const { output, timeMs } = await this.runJob<{
      instances: number;
      available: number;
      stats: ProtocolStats;
      transportStats: ProtocolStats;
    }>(job, options.signal, 'the preparation');
    return {
      job: options.job,
      protocol: job.labels.protocol as PrepareResult['protocol'],
      runtime: this.runtime,
      security: job.labels.security,
      instances: output.instances,
      available: output.available,
      stats: { ...output.stats, timeMs },
      transportStats: output.transportStats,
    };
  }

  /**
   * Warms the WASM core up for jobs like `options` (the job's options without inputs, and `job`:
   * `'aes'` or `'evaluate'`), so that the first of them runs optimized code: V8 optimizes a WASM
   * function only once it has run a while, and never a call already running. Every member of
   * the session is run inside this party's module on a small job of the same options — at most 16
   * AES blocks or 4 instances, zero inputs, in-memory channels — 3 to 10 times (until a run is no
   * longer clearly faster than the fastest before; none started after 3 s), and the results are
   * dropped; no frame is sent and nothing of the session is used. It costs this party's thread the
   * CPU time of those small jobs for every member (`connect`'s `warmUp` runs it while the room
   * fills). On the
   * native runtime it does nothing (`warmed: false`). Options the job would refuse reject with the
   * same `ConfigError` or `NotAvailableError`. It does not occupy the session: a job started
   * meanwhile runs beside it on the same thread.
   */
  async warmUp(options: WarmUpOptions): Promise<WarmUpResult> {
    if (this.failure !== undefined) throw this.failure;
    return warmUp(this.runtime, this.parties, options, this.wasmSource);
  }

  /** The bridge for a new job: the session has not failed and runs no job. */
  private checkIdle(what: string): JobBridge {
    if (this.failure !== undefined) throw this.failure;
    if (this.running) throw new ConfigError(what, 'a job is already running in this session');
    if (this.bridge === undefined) throw new ChorusError('closed', 'the session was closed');
    return this.bridge;
  }

  /** Runs one bridge job: progress, totals, end markers, errors. */
  private async runJob<T extends { stats: ProtocolStats }>(
    job: BridgeJob,
    signal: AbortSignal | undefined,
    what: string,
  ): Promise<{ output: T; timeMs: number }> {
    if (signal?.aborted) throw abortError(signal, what);
    const bridge = this.bridge;
    if (bridge === undefined) throw this.failure ?? new ChorusError('closed', 'the session was closed');
    // The session id of the channels, which the first job opens: the room's first job's id.
    const sessionId = utf8(`chorus/session/v1\u0000${this.room}\u0000job 0`);
    this.running = true;
    this.live = zeroStats();
    const start = performance.now();
    this.liveStart = start;
    const onAbort = (): void => {
      this.break(abortError(signal as AbortSignal, what));
      void this.connection.close();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let last: ProgressEvent | undefined;
      const onProgress = (stats: ProtocolStats & CoreProgress): void => {
        this.live = stats;
        const event: ProgressEvent = { round: stats.rounds, bytesSent: stats.bytesSent, bytesReceived: stats.bytesReceived };
        if (typeof stats.online === 'boolean') event.phase = stats.online ? 'online' : 'preprocessing';
        if (typeof stats.instancesTotal === 'number' && typeof stats.instancesDone === 'number') {
          event.instances = { done: stats.instancesDone, total: stats.instancesTotal };
        }
        last = event;
        this.events.emit('progress', event);
      };
      // The addon reports progress only to listeners (a report wakes this thread); `stats()` reads
      // its live statistics instead. Listeners registered during a job hear the next one.
      const listened = this.events.listenerCount('progress') > 0 || bridge.liveStats === undefined;
      const output = (await job.run(bridge, { sessionId, ...this.creds }, listened ? onProgress : undefined)) as T;
      // Progress is reported as messages arrive; a job that counts instances ends with an event
      // saying all of them are done, whatever message came last.
      if (last?.instances !== undefined && last.instances.done < last.instances.total) {
        const { rounds, bytesSent, bytesReceived } = output.stats;
        this.events.emit('progress', { ...last, round: rounds, bytesSent, bytesReceived, instances: { done: last.instances.total, total: last.instances.total } });
      }
      const timeMs = performance.now() - start;
      this.totals.bytesSent += output.stats.bytesSent;
      this.totals.bytesReceived += output.stats.bytesReceived;
      this.totals.rounds += output.stats.rounds;
      this.totals.timeMs += timeMs;
      this.jobsDone += 1;
      this.sendEndMarkers();
      return { output, timeMs };
    } catch (error) {
      const mapped = this.mapError(error);
      this.break(mapped);
      void this.connection.close();
      // The job's own verdict (a failed check, a tampered frame) says more than a departure
      // recorded meanwhile: a peer that failed the same check leaves at once, and its leaving can
      // reach this thread before this job's result does.
      const verdict = mapped instanceof ProtocolAbortError || mapped instanceof IntegrityError;
      throw verdict ? mapped : (this.failure ?? mapped);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.live = zeroStats();
      this.liveStart = undefined;
      this.running = false;
      if (this.failure !== undefined) this.release();
    }
  }

  /**
   * Ends the session at once with `error` (a running job rejects with it) and closes the
   * transport. What `signal` of a session over the caller's transport does.
   */
  async abort(error: ChorusError): Promise<void> {
    this.break(error);
    if (!this.running) this.release();
    await this.connection.close();
  }

  /**
   * Closes the session. Unless a job is running or the session already failed, first waits up to
   * `lingerMs` (default 2000) for every peer to finish the jobs this party finished, so that an early
   * departure does not break the room for slower peers. A running job rejects. Idempotent.
   */
  async close(options: { lingerMs?: number } = {}): Promise<void> {
    const lingerMs = options.lingerMs ?? CLOSE_LINGER_MS;
    if (!this.running && this.failure === undefined) await this.waitForPeers(lingerMs);
    this.break(new ChorusError('closed', 'the session was closed'));
    if (!this.running) this.release();
    await this.connection.close();
  }

  private sendEndMarkers(): void {
    for (let peer = 0; peer < this.parties; peer++) {
      if (peer === this.slot) continue;
      try {
        this.connection.send(peer, END_MARKER);
      } catch {
        // The room is already broken; close() will not wait for anyone.
      }
    }
  }

  private peersFinished(): boolean {
    return this.markers.every((count, peer) => peer === this.slot || count >= this.jobsDone);
  }

  private waitForPeers(ms: number): Promise<void> {
    if (this.peersFinished()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.markerWaiters.delete(check);
        resolve();
      };
      const check = (): void => {
        if (this.failure !== undefined || this.peersFinished()) finish();
      };
      const timer = setTimeout(finish, ms);
      this.markerWaiters.add(check);
    });
  }

  /** Frees the bridge (and with it the session's channels) once no job runs on it. */
  private release(): void {
    const bridge = this.bridge;
    this.bridge = undefined;
    bridge?.free();
  }

  /** Records the first failure and tells a running job. */
  private break(error: ChorusError, leftSlot?: number): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    for (const check of [...this.markerWaiters]) check();
    if (this.bridge === undefined) return;
    if (leftSlot !== undefined) this.bridge.peerLeft(leftSlot);
    else this.bridge.fail(error.message);
  }

  private mapError(error: unknown): ChorusError {
    const e = (typeof error === 'object' && error !== null ? error : {}) as WasmError;
    const message = e.message ?? String(error);
    switch (e.kind) {
      case 'peer-left':
        return this.failure ?? new PeerLeftError(e.slot ?? -1, 'closed');
      case 'integrity':
        return new IntegrityError(e.slot ?? -1, message, { cause: error });
      case 'protocol':
        return new ProtocolAbortError(e.check ?? 'protocol', message, { cause: error });
      case 'config':
      case 'not-available':
        return checkError(error, {});
      default:
        return this.failure ?? this.connection.failed?.() ?? new ChorusError('transport', message, { cause: error });
    }
  }
}


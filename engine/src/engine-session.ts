/**
 * One party's run of an mpc-framework circuit on Chorus: the `EngineSession` that `ChorusEngine.run`
 * returns. It is a thin adapter over the SDK: the app's `send(to, bytes)` and `handleMessage(from,
 * bytes)` become a {@link MessageTransport} (party names to slots), the circuit's settings become
 * the options of `Session.evaluate` (`circuit-plan.ts`), and the job's outputs become named
 * outputs. The job itself — channels, spec agreement, preprocessing, online phase — is the SDK's
 * circuit job, unchanged.
 *
 * Messages on the app's transport carry one tag byte:
 * - `1` **hello**: the SHA-256 of the circuit (Bristol text, `info`, `mpcSettings`) and the engine
 *   options, sent to every peer first. Parties that would run different computations fail with
 *   `ProtocolAbortError` (`check: 'circuit agreement'`) before any session starts — the job's own
 *   spec agreement then checks the Bristol text and roles again inside the channels;
 * - `2` **frame**: a frame of the session's encrypted channels;
 * - `3` **abort**: this party's run failed (its error code follows as text), so the peers fail at
 *   once with `PeerLeftError` (reason `aborted: <code>`) instead of waiting. Unauthenticated: a
 *   network attacker can forge it, but it can stop a run by dropping messages anyway.
 *
 * A run that hears nothing from any peer for `timeoutMs` (default 120 s) fails with a
 * `ChorusError` of code `timeout`, so a run whose peer went silent never hangs.
 */
import type { Circuit, EngineSession } from 'mpc-framework-common';
import {
  CancelledError,
  ChorusError,
  connect,
  Emitter,
  parseCircuit,
  PeerLeftError,
  ProtocolAbortError,
  TransportError,
  type EvaluateResult,
  type Listener,
  type MessageReceiver,
  type MessageTransport,
  type ProgressEvent,
  type Session,
  type Unsubscribe,
} from '@chorus/sdk';
import { decodeOutputs, isMixed, partyNames, planJob, type JobPlan } from './circuit-plan.js';
import type { ResolvedEngineOptions } from './engine-options.js';
import { chooseProtocol, jobOptions, type EngineProtocol } from './job-options.js';

const HELLO = 1;
const FRAME = 2;
const ABORT = 3;

/** Events of a {@link ChorusEngineSession}, beyond what mpc-framework's interface has. */
export type ChorusEngineEvents = {
  /** The job's counters after each protocol message (as `Session`'s `progress`). */
  progress: ProgressEvent;
  /** Every peer sent the same circuit; the session starts. */
  agreed: { parties: string[] };
};

/** What a finished run reports besides its outputs. */
export interface ChorusRunReport {
  /** The SDK's result of the circuit job (protocol, runtime, bytes, rounds, time). */
  result: EvaluateResult;
  /** Encrypted frames and bytes on the app's transport, handshakes included. */
  transport: { framesSent: number; bytesSent: number; framesReceived: number; bytesReceived: number };
}

/** One party's run of a circuit (mpc-framework's `EngineSession`). */
export class ChorusEngineSession implements EngineSession {
  private readonly events = new Emitter<ChorusEngineEvents>();
  private readonly controller = new AbortController();
  private readonly outcome: Promise<Record<string, unknown>>;
  private names: string[] = [];
  private slot = -1;
  /** Hellos received, by party name. */
  private readonly hellos = new Map<string, Uint8Array>();
  private helloWaiter: (() => void) | undefined;
  private receiver: MessageReceiver | undefined;
  /** Frames that arrived before the session listened. */
  private readonly early: Array<[number, Uint8Array]> = [];
  /** Why the run failed, once it did (messages are ignored from then on). */
  private failure: Error | undefined;
  private lastHeard = Date.now();
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private session: Session | undefined;
  private finished: ChorusRunReport | undefined;
  private protocol: EngineProtocol = 'tinytable';

  constructor(
    private readonly options: ResolvedEngineOptions,
    private readonly circuit: Circuit,
    private readonly name: string,
    private readonly input: Record<string, unknown>,
    private readonly rawSend: (to: string, msg: Uint8Array) => void,
  ) {
    this.outcome = this.run();
    // The caller may never ask for the output; its failure must not become an unhandled rejection.
    this.outcome.catch(() => undefined);
  }

  /** mpc-framework's entry for every message the app's transport delivers to this party. */
  handleMessage(from: string, msg: Uint8Array): void {
    if (this.failure !== undefined) return;
    const slot = this.names.indexOf(from);
    if (slot === -1 || slot === this.slot) {
      this.fail(new TransportError('bad-message', `a message from "${String(from)}", which is not another party of this circuit`));
      return;
    }
    if (!(msg instanceof Uint8Array) || msg.length === 0) {
      this.fail(new TransportError('bad-message', `a message from "${from}" that is not a non-empty Uint8Array`, { slot }));
      return;
    }
    this.lastHeard = Date.now();
    const body = msg.slice(1);
    switch (msg[0]) {
      case HELLO:
        if (this.hellos.has(from)) {
          this.fail(new TransportError('bad-message', `a second hello from "${from}"`, { slot }));
          return;
        }
        this.hellos.set(from, body);
        this.helloWaiter?.();
        return;
      case FRAME:
        if (this.receiver === undefined) this.early.push([slot, body]);
        else this.receiver.message(slot, body);
        return;
      case ABORT: {
        const code = new TextDecoder().decode(body).slice(0, 64);
        if (this.receiver !== undefined) this.receiver.peerLeft(slot, `aborted: ${code}`);
        else this.fail(new PeerLeftError(slot, `aborted: ${code}`));
        return;
      }
      default:
        this.fail(new TransportError('bad-message', `a message from "${from}" with unknown tag ${msg[0]}`, { slot }));
    }
  }

  /** The named outputs this party learns; rejects with the run's typed error. */
  output(): Promise<Record<string, unknown>> {
    return this.outcome;
  }

  /** Subscribes to `progress` or `agreed`. */
  on<K extends keyof ChorusEngineEvents & string>(name: K, listener: Listener<ChorusEngineEvents[K]>): Unsubscribe {
    return this.events.on(name, listener);
  }

  /** Cancels the run: `output()` rejects with `CancelledError`, the peers fail promptly. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
    if (this.session === undefined) this.fail(new CancelledError('the run was aborted', { cause: reason }));
  }

  /** Bytes, rounds and timings of the finished run (undefined before it finished). */
  report(): ChorusRunReport | undefined {
    return this.finished;
  }

  private async run(): Promise<Record<string, unknown>> {
    try {
      this.names = partyNames(this.circuit);
      this.slot = this.names.indexOf(this.name);
      const shape = isMixed(this.circuit) ? { ring: this.options.ring } : { parsed: await parseCircuit(this.circuit.bristol) };
      const plan = planJob(this.circuit, shape, this.name, this.input);
      this.protocol = chooseProtocol(this.options.protocol, plan);
      this.startWatchdog();
      const digest = await setupDigest(this.circuit, this.options);
      await this.agree(plan, digest);
      return await this.evaluate(plan, digest);
    } catch (error) {
      this.fail(error instanceof Error ? error : new ChorusError('internal', String(error)));
      throw this.failure;
    } finally {
      clearInterval(this.watchdog);
    }
  }

  /** Sends this party's hello and checks every peer's. */
  private async agree(plan: JobPlan, digest: Uint8Array): Promise<void> {
    const peers = plan.names.filter((_, slot) => slot !== plan.slot);
    for (const peer of peers) this.sendTagged(peer, HELLO, digest);
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (this.failure !== undefined) return reject(this.failure);
        if (peers.every((peer) => this.hellos.has(peer))) resolve();
      };
      this.helloWaiter = check;
      check();
    });
    this.helloWaiter = undefined;
    for (const peer of peers) {
      if (!sameBytes(this.hellos.get(peer)!, digest)) {
        throw new ProtocolAbortError('circuit agreement', `party "${peer}" runs another circuit, other settings or other engine options`);
      }
    }
    this.events.emit('agreed', { parties: plan.names });
  }

  /** Runs the SDK circuit job over the app's transport; returns the named outputs. */
  private async evaluate(plan: JobPlan, digest: Uint8Array): Promise<Record<string, unknown>> {
    const transport: MessageTransport = {
      send: (to, bytes) => this.sendTagged(plan.names[to]!, FRAME, bytes),
      listen: (receiver) => {
        this.receiver = receiver;
        for (const [from, bytes] of this.early.splice(0)) receiver.message(from, bytes);
      },
    };
    const { secret, runtime, wasm } = this.options;
    const session = await connect({
      transport,
      slot: plan.slot,
      parties: plan.names.length,
      sessionId: `mpc-framework/${hex(digest)}`,
      ...(secret === undefined ? { unauthenticated: true } : { secret }),
      ...(runtime === undefined ? {} : { runtime }),
      ...(wasm === undefined ? {} : { wasm }),
      signal: this.controller.signal,
    });
    this.session = session;
    session.on('progress', (event) => this.events.emit('progress', event));
    try {
      const options = {
        ...jobOptions(plan, this.protocol, this.options),
        inputs: plan.inputs,
        signal: this.controller.signal,
      } as Parameters<Session['evaluate']>[1];
      const result = await session.evaluate(plan.mixed ?? this.circuit.bristol, options);
      const outputs = decodeOutputs(plan, result.outputs);
      this.finished = { result, transport: session.transportStats() };
      await session.close();
      return outputs;
    } catch (error) {
      await session.close({ lingerMs: 0 });
      throw error;
    }
  }

  private sendTagged(to: string, tag: number, body: Uint8Array): void {
    const message = new Uint8Array(body.length + 1);
    message[0] = tag;
    message.set(body, 1);
    this.rawSend(to, message);
  }

  /** Records the first failure, tells the peers (best effort) and ends what runs. */
  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.helloWaiter?.();
    const code = new TextEncoder().encode((error as { code?: string }).code ?? error.name);
    for (const peer of this.names) {
      if (peer === this.name) continue;
      try {
        this.sendTagged(peer, ABORT, code);
      } catch {
        // The app's transport is gone too; the peers will time out.
      }
    }
    if (this.session !== undefined) void this.session.abort(error instanceof ChorusError ? error : new ChorusError('internal', error.message));
  }

  private startWatchdog(): void {
    const limit = this.options.timeoutMs;
    this.lastHeard = Date.now();
    this.watchdog = setInterval(() => {
      if (Date.now() - this.lastHeard > limit) {
        this.fail(new ChorusError('timeout', `no message from any peer for ${limit} ms`));
      }
    }, Math.min(1000, Math.max(10, limit / 4)));
    (this.watchdog as { unref?: () => void }).unref?.();
  }
}

/** SHA-256 of the circuit and the options every party must share, in a canonical encoding. */
async function setupDigest(circuit: Circuit, options: ResolvedEngineOptions): Promise<Uint8Array> {
  const canonical = JSON.stringify(sortKeys({
    engine: 'chorus/mpc-framework-engine v1',
    protocol: options.protocol,
    ring: options.ring,
    security: options.security,
    authenticated: options.secret !== undefined,
    circuit,
  }));
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical)));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

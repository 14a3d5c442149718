/**
 * One party's connection to a relay room slot: the SDK's transport. It moves opaque byte frames
 * between slots and reports the room's membership; it does not encrypt (the protocol layer runs
 * Noise end to end over it) and it does not interpret payloads.
 *
 * Lifecycle: `open()` resolves once the relay has admitted the party (`welcome`); `ready()` resolves
 * once every slot is connected; then frames flow. A `peer-left` from the relay breaks the session
 * for good: every pending and future receive rejects with {@link PeerLeftError}. The connection is
 * a single-use object; to run another session, open a new one.
 *
 * Resume (relay protocol 2): if the WebSocket drops (closes without a close frame) once the room is
 * ready, the connection turns `reconnecting` and opens new sockets with backoff until the relay
 * resumes the slot or its grace period is over. Data frames are counted and acknowledged in both
 * directions, and each side keeps what the other has not acknowledged (`retransmit.ts`), so on
 * resume exactly the missing frames are sent again. A peer's drop shows as `peer-away`/`peer-back`
 * events; only a `peer-left` (the peer's grace period passed) breaks the session.
 */
import {
  abortError,
  CancelledError,
  ChorusError,
  ConfigError,
  PeerLeftError,
  RelayError,
} from '../errors.js';
import { deferred, reportAsync, withSignal } from '../async.js';
import type {
  ConnectionEvent,
  ConnectionState,
  FrameHandler,
  RelayConnectionEvents,
  RelayConnectionOptions,
  RelayWarningEvent,
  TransportStats,
  WaitOptions,
} from './connection-types.js';
import { Emitter, type Listener, type Unsubscribe } from '../events.js';
import { awaitWelcome, joinUrl, type PendingWelcome, type SocketHandlers } from './join-socket.js';
import { PeerQueues } from './peer-queues.js';
import type { SessionLink } from './session-link.js';
import { ReceivedFrames, SentFrames } from './retransmit.js';
import { ReadyState, resolveWebSocket, type WebSocketConstructor, type WebSocketLike } from './websocket.js';
import {
  encodeAck,
  encodeFrame,
  MalformedMessageError,
  parseControl,
  PROTOCOL_VERSION,
  type ControlMessage,
  type DepartureMessage,
  type ErrorMessage,
  type WelcomeMessage,
} from './wire.js';

/** Default of {@link RelayConnectionOptions.resumeBufferBytes}. */
const DEFAULT_RESUME_BUFFER_BYTES = 64 * 1024 * 1024;
/** Delay before acknowledging frames that did not reach the relay's `ackBytes`. */
const ACK_DELAY_MS = 50;
/** Backoff between resume attempts: first delay, and the cap it doubles up to. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 2000;
/** WebSocket close code of a connection that ended without a close frame (dropped). */
const ABNORMAL_CLOSURE = 1006;

/** State of the resume attempts after a drop. */
interface Reconnecting {
  deadline: number;
  attempts: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  pending: PendingWelcome | undefined;
}

/** A party's WebSocket connection to one room slot of a Chorus relay. */
export class RelayConnection implements SessionLink {
  /** The room id. */
  readonly room: string;
  /** This party's slot. */
  readonly slot: number;
  /** The number of parties in the room. */
  readonly parties: number;
  /** The largest data frame the relay accepts, header byte included (from `welcome`). */
  readonly maxPayloadBytes: number;

  private readonly events = new Emitter<RelayConnectionEvents>();
  private readonly queues: PeerQueues;
  private readonly frameHandlers = new Set<FrameHandler>();
  private readonly readyWait = deferred<void>();
  private readonly counters: TransportStats = { framesSent: 0, bytesSent: 0, framesReceived: 0, bytesReceived: 0 };
  private readonly closed = deferred<void>();
  private currentState: ConnectionState = 'open';
  private currentRoster: number[];
  /** Why sends and receives fail from now on (peer left, closed, aborted). */
  private failure: ChorusError | undefined;
  /** The relay's fatal error frame, waiting for the close that follows it. */
  private fatalError: ErrorMessage | undefined;
  /** The current socket; a resume replaces it. */
  private socket: WebSocketLike;
  private readonly signal: AbortSignal | undefined;
  /** Data frames sent and not yet acknowledged by the relay (kept only when resuming is on). */
  private readonly sentFrames: SentFrames;
  /** Data frames received, and what was acknowledged to the relay. */
  private readonly receivedFrames = new ReceivedFrames();
  private ackTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly ackBytes: number;
  private readonly resumeGraceMs: number;
  /** Whether a dropped connection is resumed (the relay offers it and the caller did not opt out). */
  private readonly resumable: boolean;
  private reconnecting: Reconnecting | undefined;

  private constructor(
    socket: WebSocketLike,
    welcome: WelcomeMessage,
    private readonly joinUrl: URL,
    private readonly Impl: WebSocketConstructor,
    options: RelayConnectionOptions,
    private readonly onAbort: () => void,
  ) {
    this.socket = socket;
    this.signal = options.signal;
    this.room = welcome.room;
    this.slot = welcome.slot;
    this.parties = welcome.parties;
    this.maxPayloadBytes = welcome.maxPayloadBytes;
    this.currentRoster = [...welcome.roster];
    this.queues = new PeerQueues(welcome.parties);
    this.ackBytes = welcome.ackBytes;
    this.resumeGraceMs = welcome.resumeGraceMs;
    this.resumable = options.resume !== false && welcome.resumeGraceMs > 0;
    this.sentFrames = new SentFrames(this.resumable ? (options.resumeBufferBytes ?? DEFAULT_RESUME_BUFFER_BYTES) : 0);
    this.closed.promise.catch(() => undefined);
  }

  /**
   * Connects to the relay and joins `slot` of `room`. Resolves once the relay admitted the party;
   * call {@link ready} to wait for the other parties. Rejects with {@link ConfigError} for invalid
   * options, {@link RelayError} if the relay refuses the join (with the relay's code, e.g.
   * `bad-token`, and close code) or cannot be reached, and {@link CancelledError} if `signal` aborts.
   */
  static async open(options: RelayConnectionOptions): Promise<RelayConnection> {
    const url = joinUrl(options);
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal, 'opening the relay connection');
    const Impl = await resolveWebSocket(options.WebSocketImpl);
    if (signal?.aborted) throw abortError(signal, 'opening the relay connection');
    let socket: WebSocketLike;
    try {
      socket = new Impl(url.toString());
    } catch (error) {
      throw new RelayError('connect-failed', `could not open a WebSocket to ${url.origin}: ${String(error)}`, {
        cause: error,
      });
    }
    socket.binaryType = 'arraybuffer';
    return RelayConnection.admit(socket, url, Impl, options);
  }

  /** Waits for `welcome` on a fresh socket and builds the connection around it. */
  private static admit(
    socket: WebSocketLike,
    url: URL,
    Impl: WebSocketConstructor,
    options: RelayConnectionOptions,
  ): Promise<RelayConnection> {
    const { signal } = options;
    return new Promise<RelayConnection>((resolve, reject) => {
      let connection: RelayConnection | undefined;
      const onAbort = (): void => {
        if (connection !== undefined) connection.terminate(abortError(signal!, 'the relay connection'), 'aborted');
        else {
          pending.cancel('aborted');
          reject(abortError(signal!, 'opening the relay connection'));
        }
      };
      const pending = awaitWelcome(socket, {
        welcome: (message) => {
          const problem = RelayConnection.checkWelcome(message, options);
          if (problem !== undefined) return problem;
          const admitted = new RelayConnection(socket, message, url, Impl, options, onAbort);
          connection = admitted;
          resolve(admitted);
          return admitted.handlersFor(socket);
        },
        failure: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Routes a socket's traffic to this connection while it is the current socket. */
  private handlersFor(socket: WebSocketLike): SocketHandlers {
    return {
      message: (data) => {
        if (socket === this.socket) this.handleMessage(data);
      },
      close: (code, reason) => {
        if (socket === this.socket) this.handleClose(code, reason);
      },
    };
  }

  private static checkWelcome(welcome: WelcomeMessage, options: RelayConnectionOptions): ChorusError | undefined {
    if (welcome.protocol !== PROTOCOL_VERSION) {
      return new RelayError(
        'unsupported-protocol',
        `the relay speaks wire protocol ${welcome.protocol}, this SDK speaks ${PROTOCOL_VERSION}`,
      );
    }
    if (welcome.parties !== options.parties) {
      return new ConfigError('parties', `the room has ${welcome.parties} parties, not ${options.parties}`);
    }
    if (welcome.slot !== options.slot || welcome.room !== options.room) {
      return new RelayError('bad-relay-message', 'welcome names another room or slot than requested');
    }
    if (welcome.resumed) return new RelayError('bad-relay-message', 'a first join cannot resume a session');
    return undefined;
  }

  /** The room id: the name a session over this connection derives its channels' session id from. */
  get sessionName(): string {
    return this.room;
  }

  /** Where the connection is in its life. */
  get state(): ConnectionState {
    return this.currentState;
  }

  /** The connected slots, ascending, as last reported by the relay. */
  get roster(): number[] {
    return [...this.currentRoster];
  }

  /** Bytes handed to the WebSocket and not yet sent (the WebSocket's `bufferedAmount`). */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Subscribes to an event; returns the function that unsubscribes. */
  on<K extends keyof RelayConnectionEvents & string>(name: K, listener: Listener<RelayConnectionEvents[K]>): Unsubscribe {
    return this.events.on(name, listener);
  }

  /** Subscribes to the next occurrence of an event only. */
  once<K extends keyof RelayConnectionEvents & string>(name: K, listener: Listener<RelayConnectionEvents[K]>): Unsubscribe {
    return this.events.once(name, listener);
  }

  /**
   * Resolves once every slot of the room is connected (at once if that already happened). Rejects
   * if the connection closes, breaks or is aborted first.
   */
  ready(options: WaitOptions = {}): Promise<void> {
    return withSignal(this.readyWait.promise, options.signal, 'waiting for ready');
  }

  /**
   * Sends `bytes` to slot `to`. Throws {@link ConfigError} for a bad destination (out of range or
   * this party's own slot) or a frame over `maxPayloadBytes`, and throws the connection's failure
   * ({@link PeerLeftError}, {@link RelayError}, ...) once it is broken or closed. Before `ready` it
   * throws a {@link ChorusError} with code `not-ready`: the relay would drop the frame.
   */
  send(to: number, bytes: Uint8Array): void {
    if (!Number.isInteger(to) || to < 0 || to >= this.parties || to === this.slot) {
      throw new ConfigError('to', `expected a peer slot in 0..${this.parties - 1} other than ${this.slot}, got ${String(to)}`);
    }
    if (!(bytes instanceof Uint8Array)) throw new ConfigError('bytes', 'expected a Uint8Array');
    if (bytes.length + 1 > this.maxPayloadBytes) {
      throw new ConfigError('bytes', `${bytes.length} bytes exceed the relay's limit of ${this.maxPayloadBytes - 1} per frame`);
    }
    if (this.failure !== undefined) throw this.failure;
    if (this.currentState !== 'ready' && this.currentState !== 'reconnecting') {
      throw new ChorusError('not-ready', 'cannot send before every party is connected; await ready() first');
    }
    const frame = encodeFrame(to, bytes);
    // Counted always (the relay's acks count it); kept only when resuming is on.
    this.sentFrames.push(frame);
    // While reconnecting the frame waits in `sentFrames` and goes out on resume.
    if (this.currentState === 'ready') this.socket.send(frame);
    this.counters.framesSent += 1;
    this.counters.bytesSent += bytes.length + 1;
  }

  /**
   * Receives the next frame from slot `from`. Frames from one peer arrive in the order that peer
   * sent them. Rejects with {@link PeerLeftError} once a peer left the ready room, with the close
   * error once the connection closed, and with {@link CancelledError} if `options.signal` aborts.
   * Cannot be used while an {@link onFrame} handler is registered (frames go to the handler).
   */
  recv(from: number, options: WaitOptions = {}): Promise<Uint8Array> {
    if (!Number.isInteger(from) || from < 0 || from >= this.parties || from === this.slot) {
      return Promise.reject(
        new ConfigError('from', `expected a peer slot in 0..${this.parties - 1} other than ${this.slot}, got ${String(from)}`),
      );
    }
    if (this.frameHandlers.size > 0) {
      return Promise.reject(new ChorusError('frame-handler-active', 'recv() cannot be used while an onFrame handler is registered'));
    }
    return this.queues.recv(from, options.signal);
  }

  /**
   * Calls `handler` for every data frame, instead of queueing frames for {@link recv}. Frames queued
   * before the first handler was registered are handed to it at once, during this call, each peer's
   * frames in arrival order. Returns the function that unregisters the handler; with no handler
   * left, frames are queued for `recv` again. Handlers learn of failures (peer left, relay error,
   * close) from the `connection` event, since no frame arrives to tell them.
   */
  onFrame(handler: FrameHandler): Unsubscribe {
    if (typeof handler !== 'function') throw new ConfigError('handler', 'expected a function');
    const entry: FrameHandler = (from, bytes) => handler(from, bytes);
    this.frameHandlers.add(entry);
    if (this.frameHandlers.size === 1 && this.failure === undefined) {
      for (let from = 0; from < this.parties; from += 1) {
        for (const frame of this.queues.drain(from)) this.dispatch(from, frame);
      }
    }
    return () => {
      this.frameHandlers.delete(entry);
    };
  }

  /** Transport-level counters of data frames and bytes in each direction. */
  stats(): TransportStats {
    return { ...this.counters };
  }

  /**
   * Closes the connection. Pending and future waits reject with a {@link ChorusError} of code
   * `closed`. Resolves when the WebSocket has closed. Idempotent.
   */
  close(): Promise<void> {
    this.terminate(new ChorusError('closed', 'the connection was closed'), 'closed by client');
    return this.closed.promise;
  }

  /** Fails every wait with `error` and starts closing the socket. */
  private terminate(error: ChorusError, reason: string): void {
    this.fail(error);
    if (this.reconnecting !== undefined) {
      // No socket to close: stop resuming and finish here.
      this.stopReconnecting(reason);
      this.finish();
      return;
    }
    if (this.socket.readyState === ReadyState.CONNECTING || this.socket.readyState === ReadyState.OPEN) {
      this.socket.close(1000, reason);
    }
  }

  /** Records the first failure and rejects everything that waits. */
  private fail(error: ChorusError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.queues.fail(error);
    this.readyWait.reject(error);
    clearTimeout(this.ackTimer);
    this.sentFrames.clear();
  }

  private setState(state: ConnectionState, error?: ChorusError): void {
    this.currentState = state;
    const event: ConnectionEvent = { state, roster: this.roster };
    if (error !== undefined) event.error = error;
    this.events.emit('connection', event);
  }

  private handleMessage(data: unknown): void {
    if (this.currentState === 'closed') return;
    if (typeof data === 'string') {
      let message: ControlMessage | null;
      try {
        message = parseControl(data);
      } catch (error) {
        const detail = error instanceof MalformedMessageError ? error.message : String(error);
        this.terminate(new RelayError('bad-relay-message', detail), 'bad relay message');
        return;
      }
      if (message !== null) this.handleControl(message);
      return;
    }
    let frame: Uint8Array;
    if (data instanceof ArrayBuffer) frame = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) frame = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else {
      this.terminate(new RelayError('bad-relay-message', 'binary frame of an unexpected type'), 'bad relay message');
      return;
    }
    if (this.receivedFrames.record(frame.length, this.ackBytes)) this.sendAck();
    else this.ackTimer ??= setTimeout(() => this.sendAck(), ACK_DELAY_MS);
    const from = frame[0];
    if (from === undefined || from >= this.parties || from === this.slot) {
      this.terminate(new RelayError('bad-relay-message', 'data frame with an invalid sender slot'), 'bad relay message');
      return;
    }
    this.counters.framesReceived += 1;
    this.counters.bytesReceived += frame.length;
    if (this.failure !== undefined) return;
    const payload = frame.subarray(1);
    if (this.frameHandlers.size > 0) this.dispatch(from, payload);
    else this.queues.push(from, payload);
  }

  private dispatch(from: number, payload: Uint8Array): void {
    for (const handler of [...this.frameHandlers]) {
      try {
        handler(from, payload);
      } catch (error) {
        reportAsync(error);
      }
    }
  }

  private handleControl(message: ControlMessage): void {
    switch (message.type) {
      case 'welcome':
        this.terminate(new RelayError('bad-relay-message', 'a second welcome'), 'bad relay message');
        return;
      case 'joined':
        this.currentRoster = [...message.roster];
        if (message.slot !== this.slot) this.events.emit('peer-joined', { slot: message.slot, roster: this.roster });
        return;
      case 'ready':
        this.currentRoster = [...message.roster];
        // After a peer-left the session stays broken even if the slot is taken again: the relay
        // then starts a new session, which needs a new connection (and a new handshake).
        if (this.currentState !== 'open') return;
        this.readyWait.resolve();
        this.setState('ready');
        return;
      case 'left':
      case 'peer-left':
        this.handleDeparture(message);
        return;
      case 'peer-away':
        this.currentRoster = [...message.roster];
        this.events.emit('peer-away', { slot: message.slot, roster: this.roster, reason: message.reason ?? 'closed' });
        return;
      case 'peer-back':
        this.currentRoster = [...message.roster];
        this.events.emit('peer-back', { slot: message.slot, roster: this.roster });
        return;
      case 'ack':
        if (!this.sentFrames.acknowledge(message.received)) {
          this.terminate(new RelayError('bad-relay-message', 'ack of more frames than were sent'), 'bad relay message');
        }
        return;
      case 'error':
        if (message.fatal) this.fatalError = message;
        else {
          const warning: RelayWarningEvent = { code: message.code, message: message.message };
          if (message.slot !== undefined) warning.slot = message.slot;
          this.events.emit('relay-warning', warning);
        }
        return;
    }
  }

  private handleDeparture(message: DepartureMessage): void {
    this.currentRoster = [...message.roster];
    const sessionBroken = message.type === 'peer-left' && this.currentState === 'ready';
    this.events.emit('peer-left', { slot: message.slot, roster: this.roster, reason: message.reason, sessionBroken });
    if (!sessionBroken) return;
    const error = new PeerLeftError(message.slot, message.reason);
    this.fail(error);
    this.setState('broken', error);
  }

  private handleClose(code: number, reason: string): void {
    if (this.currentState === 'closed') return;
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (
      code === ABNORMAL_CLOSURE &&
      this.resumable &&
      this.currentState === 'ready' &&
      this.failure === undefined &&
      this.fatalError === undefined
    ) {
      this.startReconnecting();
      return;
    }
    const details = { closeCode: code, closeReason: reason };
    this.fail(
      this.fatalError !== undefined
        ? new RelayError(this.fatalError.code, `the relay closed the connection: ${this.fatalError.message}`, details)
        : new RelayError('connection-lost', `the connection to the relay closed (code ${code}${reason ? `, ${reason}` : ''})`, details),
    );
    this.finish();
  }

  /** The connection is over: state `closed`, `close()` resolves. */
  private finish(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.currentRoster = [];
    // The first failure (peer left, abort, relay error) explains the close; a plain close() needs none.
    const failure = this.failure;
    this.setState('closed', failure !== undefined && failure.code !== 'closed' ? failure : undefined);
    this.closed.resolve();
  }

  /** Acknowledges the data frames received so far (protocol 2). */
  private sendAck(): void {
    clearTimeout(this.ackTimer);
    this.ackTimer = undefined;
    if (!this.receivedFrames.behind || this.socket.readyState !== ReadyState.OPEN) return;
    this.socket.send(encodeAck(this.receivedFrames.acknowledge()));
  }

  /** The socket dropped after `ready`: resume the slot within the relay's grace period. */
  private startReconnecting(): void {
    this.reconnecting = { deadline: Date.now() + this.resumeGraceMs, attempts: 0, timer: undefined, pending: undefined };
    this.setState('reconnecting');
    this.attemptResume();
  }

  private stopReconnecting(reason: string): void {
    const state = this.reconnecting;
    if (state === undefined) return;
    this.reconnecting = undefined;
    clearTimeout(state.timer);
    state.pending?.cancel(reason);
  }

  /** Gives up resuming: the connection fails with `error`. */
  private giveUp(error: ChorusError): void {
    this.stopReconnecting('client error');
    this.fail(error);
    this.finish();
  }

  private scheduleResume(): void {
    const state = this.reconnecting!;
    const remaining = state.deadline - Date.now();
    if (remaining <= 0) {
      this.giveUp(new RelayError('connection-lost', `the connection to the relay dropped and could not be resumed within ${this.resumeGraceMs} ms`));
      return;
    }
    const backoff = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** state.attempts);
    const delay = Math.min(remaining, backoff * (0.5 + Math.random() / 2));
    state.attempts += 1;
    state.timer = setTimeout(() => this.attemptResume(), delay);
  }

  /** Opens one new socket asking the relay to resume the slot. */
  private attemptResume(): void {
    const state = this.reconnecting;
    if (state === undefined) return;
    const url = new URL(this.joinUrl.toString());
    url.searchParams.set('resume', String(this.receivedFrames.received));
    let socket: WebSocketLike;
    try {
      socket = new this.Impl(url.toString());
    } catch {
      this.scheduleResume();
      return;
    }
    socket.binaryType = 'arraybuffer';
    state.pending = awaitWelcome(socket, {
      welcome: (message) => {
        const problem = this.checkResume(message);
        if (problem !== undefined) return problem;
        state.pending = undefined;
        this.completeResume(socket, message);
        return this.handlersFor(socket);
      },
      failure: (error, refused) => {
        state.pending = undefined;
        if (this.reconnecting !== state) return;
        if (refused) this.giveUp(error);
        else this.scheduleResume();
      },
    });
  }

  private checkResume(welcome: WelcomeMessage): ChorusError | undefined {
    if (welcome.protocol !== PROTOCOL_VERSION || !welcome.resumed || welcome.slot !== this.slot || welcome.room !== this.room) {
      return new RelayError('bad-relay-message', 'the relay answered a resume with an unexpected welcome');
    }
    if (!this.sentFrames.canResumeAfter(welcome.received)) {
      return new RelayError('resume-failed', 'the relay needs frames this party no longer keeps (resumeBufferBytes)');
    }
    return undefined;
  }

  /** The relay resumed the slot on `socket`: send again what it has not received. */
  private completeResume(socket: WebSocketLike, welcome: WelcomeMessage): void {
    this.stopReconnecting('resumed');
    this.socket = socket;
    this.currentRoster = [...welcome.roster];
    // The resume URL told the relay what was received: that counts as acknowledged.
    this.receivedFrames.acknowledge();
    this.sentFrames.acknowledge(welcome.received);
    for (const frame of this.sentFrames.pending()) socket.send(frame);
    this.setState('ready');
  }
}

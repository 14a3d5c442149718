/**
 * Sessions over a transport the caller brings ({@link MessageTransport}): the caller moves bytes
 * between the parties (its own WebSocket server, a WebRTC data channel, a `BroadcastChannel`,
 * mpc-framework's `send` and `handleMessage`), and {@link MessageLink} turns that into the
 * {@link SessionLink} a session runs on. The bytes are the session's encrypted channel frames (and
 * empty job end markers); the caller never needs to look inside them.
 *
 * What the transport must do: deliver each party's messages to the party they are for, in the
 * order sent, none lost, duplicated or altered — what a WebSocket or an ordered, reliable data
 * channel does. The channels above check it: a message that was dropped, reordered, replayed or
 * altered fails the session with an `IntegrityError` (when the session has a secret or pinned
 * keys, also one that was forged). A message with an impossible sender, or that is not bytes,
 * fails it with a {@link TransportError} (`bad-message`) at once.
 */
import { ChorusError, ConfigError, PeerLeftError, TransportError } from '../errors.js';
import { Emitter, type Listener, type Unsubscribe } from '../events.js';
import type { FrameHandler, TransportStats } from './connection-types.js';
import type { SessionLink, SessionLinkEvents } from './session-link.js';

/** Receives what the caller's transport delivers; handed to {@link MessageTransport.listen}. */
export interface MessageReceiver {
  /** A message from party `from` (a slot index), exactly the bytes that party's `send` was given. */
  message(from: number, bytes: Uint8Array): void;
  /** Party `slot` is gone for good: the session fails with `PeerLeftError` (`reason`, default `closed`). */
  peerLeft(slot: number, reason?: string): void;
  /** The transport failed: the session fails with a `TransportError` (`transport-failed`). */
  failed(error: unknown): void;
}

/** A transport the caller brings to `connect` instead of a relay. */
export interface MessageTransport {
  /**
   * Sends `message` (possibly empty) to party `to`. Messages to one party must arrive in the
   * order sent, none lost or duplicated. Throwing fails the session (`TransportError`,
   * `send-failed`).
   */
  send(to: number, message: Uint8Array): void;
  /**
   * Called once, when the session starts: from then on the caller hands every arriving message to
   * `receiver.message` (messages may already be waiting; the session queues what arrives before
   * its jobs need it). May return a function that stops the delivery; it is called when the
   * session closes.
   */
  listen(receiver: MessageReceiver): void | (() => void);
  /** Called once when the session closes (optional). */
  close?(): void | Promise<void>;
}

/** A session link over a {@link MessageTransport}. */
export class MessageLink implements SessionLink {
  private readonly events = new Emitter<SessionLinkEvents>();
  private readonly handlers = new Set<FrameHandler>();
  /** Frames that arrived while no handler was registered. */
  private readonly early: Array<[number, Uint8Array]> = [];
  private readonly counters: TransportStats = { framesSent: 0, bytesSent: 0, framesReceived: 0, bytesReceived: 0 };
  private failure: ChorusError | undefined;
  private stopListening: (() => void) | undefined;
  private closing: Promise<void> | undefined;

  /**
   * @param transport the caller's transport
   * @param slot this party's index
   * @param parties the number of parties
   * @param sessionName the session id every party gave (the channels bind it)
   */
  constructor(
    private readonly transport: MessageTransport,
    readonly slot: number,
    readonly parties: number,
    readonly sessionName: string,
  ) {
    const receiver: MessageReceiver = {
      message: (from, bytes) => this.receive(from, bytes),
      peerLeft: (peer, reason) => this.peerLeft(peer, reason),
      failed: (error) =>
        this.fail(new TransportError('transport-failed', `the transport failed: ${describe(error)}`, { cause: error })),
    };
    const stop = transport.listen(receiver);
    if (typeof stop === 'function') this.stopListening = stop;
  }

  /** Checks the options of a session over a caller's transport. */
  static check(transport: unknown, slot: unknown, parties: unknown, sessionId: unknown): void {
    if (typeof transport !== 'object' || transport === null) throw new ConfigError('transport', 'expected { send, listen }');
    const t = transport as Partial<MessageTransport>;
    if (typeof t.send !== 'function' || typeof t.listen !== 'function') {
      throw new ConfigError('transport', 'a transport has send(to, bytes) and listen(receiver) methods');
    }
    if (typeof parties !== 'number' || !Number.isInteger(parties) || parties < 2 || parties > 256) {
      throw new ConfigError('parties', `expected an integer in 2..256, got ${String(parties)}`);
    }
    if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= parties) {
      throw new ConfigError('slot', `expected an integer in 0..${parties - 1}, got ${String(slot)}`);
    }
    if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.length > 512) {
      throw new ConfigError('sessionId', 'expected a non-empty string of at most 512 characters, the same at every party');
    }
  }

  send(to: number, bytes: Uint8Array): void {
    if (this.failure !== undefined) throw this.failure;
    try {
      this.transport.send(to, bytes);
    } catch (error) {
      const failure = new TransportError('send-failed', `sending to party ${to} failed: ${describe(error)}`, { cause: error, slot: to });
      this.fail(failure);
      throw failure;
    }
    this.counters.framesSent += 1;
    this.counters.bytesSent += bytes.length;
  }

  onFrame(handler: FrameHandler): Unsubscribe {
    this.handlers.add(handler);
    for (const [from, bytes] of this.early.splice(0)) handler(from, bytes);
    return () => {
      this.handlers.delete(handler);
    };
  }

  on<K extends keyof SessionLinkEvents & string>(name: K, listener: Listener<SessionLinkEvents[K]>): Unsubscribe {
    return this.events.on(name, listener);
  }

  stats(): TransportStats {
    return { ...this.counters };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.failure ??= new ChorusError('closed', 'the session was closed');
      this.stopListening?.();
      this.stopListening = undefined;
      this.events.emit('connection', { state: 'closed', roster: [] });
      await this.transport.close?.();
    })();
    return this.closing;
  }

  private receive(from: unknown, bytes: unknown): void {
    if (this.failure !== undefined) return;
    if (typeof from !== 'number' || !Number.isInteger(from) || from < 0 || from >= this.parties || from === this.slot) {
      this.fail(
        new TransportError('bad-message', `the transport delivered a message from ${String(from)}, not from another party's index (0..${this.parties - 1}, not ${this.slot})`),
      );
      return;
    }
    const payload = bytes instanceof Uint8Array ? bytes : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : undefined;
    if (payload === undefined) {
      this.fail(new TransportError('bad-message', `the transport delivered a message from party ${from} that is not a Uint8Array`, { slot: from }));
      return;
    }
    this.counters.framesReceived += 1;
    this.counters.bytesReceived += payload.length;
    if (this.handlers.size === 0) {
      this.early.push([from, payload]);
      return;
    }
    for (const handler of [...this.handlers]) handler(from, payload);
  }

  private peerLeft(peer: number, reason = 'closed'): void {
    if (this.failure !== undefined) return;
    if (!Number.isInteger(peer) || peer < 0 || peer >= this.parties || peer === this.slot) {
      this.fail(new TransportError('bad-message', `the transport reported the departure of ${String(peer)}, not another party's index`));
      return;
    }
    this.failure = new PeerLeftError(peer, String(reason));
    const roster = Array.from({ length: this.parties }, (_, i) => i).filter((i) => i !== peer);
    this.events.emit('peer-left', { slot: peer, roster, reason: String(reason), sessionBroken: true });
  }

  private fail(error: ChorusError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.events.emit('connection', { state: 'broken', roster: [], error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A session's relay connection served by the Node addon (`@chorus/node`'s `RelayLink`): the
 * addon's Rust relay client (the runner's, wire protocol 2 with resume) joins the slot, and the
 * session's bridge is made on the link, so a job's frames go between the job's thread and the
 * socket without JavaScript. This object is the {@link SessionLink} the session sees: it hears
 * end markers, departures, peers away and back and resumes from the addon, and sends the end
 * markers; it never sees a protocol frame.
 *
 * Used by `connect` in Node with the native runtime for relays at any address — `ws://` or
 * `wss://` (TLS: the addon verifies the relay's certificate against Mozilla's roots and the file
 * of `NODE_EXTRA_CA_CERTS`, as Node does), at the root or under a path prefix — when no
 * `WebSocketImpl` was given, resuming keeps its defaults, and TLS verification is not switched
 * off (`NODE_TLS_REJECT_UNAUTHORIZED=0` leaves TLS relays to the JavaScript connection, which
 * obeys it); see {@link nativeRelayFits}. Otherwise, or with
 * `nativeRelay: false`, the session uses the WebSocket connection in JavaScript
 * ({@link RelayConnection}). The wire is the same either way, so parties of every runtime share
 * a room.
 */
import { abortError, ChorusError, ConfigError, PeerLeftError, RelayError } from '../errors.js';
import { Emitter, type Listener, type Unsubscribe } from '../events.js';
import type { ConnectionState, FrameHandler, RelayConnectionOptions, TransportStats } from './connection-types.js';
import { joinUrl } from './join-socket.js';
import type { SessionLink, SessionLinkEvents } from './session-link.js';

/** The addon's `RelayLink`, as this module uses it. */
export interface NativeRelayHandle {
  open(relay: string, room: string, token: string, timeoutMs: number): Promise<{ maxPayloadBytes?: number | null; error?: { code: string; message: string } | null }>;
  send(to: number, frame: Uint8Array): void;
  stats(): TransportStats;
  /** Why the connection failed for good, once it did: a `RelayError` code and message. */
  failure(): { code: string; message: string } | null;
  close(reason: string, timeoutMs: number): Promise<void>;
}

/** Makes the addon's link of `slot` of `parties`, reporting to `events`. */
export type NativeRelayFactory = (
  slot: number,
  parties: number,
  events: (kind: string, slot: number, detail?: string | null, roster?: number[] | null) => void,
) => NativeRelayHandle;

/** How long `open` waits for the room to be ready: as the JS connection, until aborted. */
const OPEN_TIMEOUT_MS = 2 ** 31 - 1;
/** How long `close` waits for the queued frames and the close frame to be written. */
const CLOSE_TIMEOUT_MS = 2000;
const EMPTY = new Uint8Array(0);

/**
 * Whether the addon can serve this relay connection: the global WebSocket not replaced, resume on
 * with the default buffer, `nativeRelay` not false, and for a TLS relay, certificate checks on.
 */
export function nativeRelayFits(options: RelayConnectionOptions & { nativeRelay?: boolean }): boolean {
  if (options.nativeRelay === false || options.WebSocketImpl !== undefined) return false;
  if (options.resume === false || options.resumeBufferBytes !== undefined) return false;
  const url = joinUrl(options);
  return url.protocol === 'ws:' || (url.protocol === 'wss:' && !tlsUnchecked());
}

/** Whether Node was told not to check TLS certificates (which only Node's own TLS obeys). */
function tlsUnchecked(): boolean {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.NODE_TLS_REJECT_UNAUTHORIZED === '0';
}

/** A relay membership served by the addon; see the module comment. */
export class NativeRelayLink implements SessionLink {
  readonly slot: number;
  readonly parties: number;
  readonly sessionName: string;

  private readonly events = new Emitter<SessionLinkEvents>();
  private readonly handlers = new Set<FrameHandler>();
  /** End markers that arrived before a frame handler was registered. */
  private readonly earlyMarkers: number[] = [];
  private state: ConnectionState = 'open';
  private roster: number[];
  private failure: ChorusError | undefined;
  private closing: Promise<void> | undefined;
  private readonly onAbort = (): void => {
    void this.terminate(abortError(this.signal!, 'the relay connection'));
  };

  private constructor(
    /** The addon's link; the session's bridge is made on it. */
    readonly handle: NativeRelayHandle,
    options: RelayConnectionOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.slot = options.slot;
    this.parties = options.parties;
    this.sessionName = options.room;
    this.roster = Array.from({ length: options.parties }, (_, i) => i);
  }

  /**
   * Joins the slot through the addon and resolves once every party is connected. Rejects with the
   * `ConfigError` of invalid options, a `RelayError` with the relay's code when it refuses the join
   * or cannot be reached, and `CancelledError` if `signal` aborts first.
   */
  static async open(options: RelayConnectionOptions, create: NativeRelayFactory): Promise<NativeRelayLink> {
    // The addon joins the relay's WebSocket endpoint (prefix included) with its own query.
    const endpoint = joinUrl(options);
    endpoint.search = '';
    const { signal } = options;
    if (signal?.aborted) throw abortError(signal, 'opening the relay connection');
    let link: NativeRelayLink | undefined;
    const handle = create(options.slot, options.parties, (kind, slot, detail, roster) => link?.handle_(kind, slot, detail ?? undefined, roster ?? undefined));
    link = new NativeRelayLink(handle, options, signal);
    const joining = handle.open(endpoint.href, options.room, options.token, OPEN_TIMEOUT_MS);
    let stopWaiting: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      stopWaiting = () => reject(abortError(signal!, 'opening the relay connection'));
      signal?.addEventListener('abort', stopWaiting, { once: true });
    });
    let opened: Awaited<typeof joining>;
    try {
      opened = await (signal === undefined ? joining : Promise.race([joining, aborted]));
    } catch (error) {
      await handle.close('the join was cancelled', CLOSE_TIMEOUT_MS);
      throw error;
    } finally {
      // The session's own abort listener takes over from here.
      if (stopWaiting !== undefined) signal?.removeEventListener('abort', stopWaiting);
    }
    if (opened.error != null) {
      await handle.close('the join failed', CLOSE_TIMEOUT_MS);
      const { code, message } = opened.error;
      // As the JavaScript connection reports them: a room of another size is the caller's mistake.
      if (code === 'parties') throw new ConfigError('parties', message);
      throw new RelayError(code, code === 'connect-failed' ? `could not reach the relay: ${message}` : message);
    }
    link.state = 'ready';
    signal?.addEventListener('abort', link.onAbort, { once: true });
    return link;
  }

  send(to: number, bytes: Uint8Array): void {
    if (this.failure !== undefined) throw this.failure;
    this.handle.send(to, bytes);
  }

  onFrame(handler: FrameHandler): Unsubscribe {
    this.handlers.add(handler);
    for (const from of this.earlyMarkers.splice(0)) handler(from, EMPTY);
    return () => {
      this.handlers.delete(handler);
    };
  }

  on<K extends keyof SessionLinkEvents & string>(name: K, listener: Listener<SessionLinkEvents[K]>): Unsubscribe {
    return this.events.on(name, listener);
  }

  stats(): TransportStats {
    return this.handle.stats();
  }

  /**
   * Why the link failed, including a connection failure the addon recorded before its event
   * reached this thread (a job failing on it may settle first).
   */
  failed(): ChorusError | undefined {
    if (this.failure === undefined) {
      const failure = this.handle.failure();
      if (failure != null) this.failure = new RelayError(failure.code, `the relay connection failed: ${failure.message}`);
    }
    return this.failure;
  }

  close(): Promise<void> {
    return this.terminate(new ChorusError('closed', 'the connection was closed'));
  }

  /** Fails with `error` (unless it failed before), closes the addon's connection, reports `closed`. */
  private terminate(error: ChorusError): Promise<void> {
    this.failure ??= error;
    this.closing ??= this.handle.close(this.failure.message, CLOSE_TIMEOUT_MS).then(() => {
      this.signal?.removeEventListener('abort', this.onAbort);
      this.roster = [];
      const failure = this.failure;
      this.setState('closed', failure !== undefined && failure.code !== 'closed' ? failure : undefined);
    });
    return this.closing;
  }

  private setState(state: ConnectionState, error?: ChorusError): void {
    this.state = state;
    this.events.emit('connection', error === undefined ? { state, roster: [...this.roster] } : { state, roster: [...this.roster], error });
  }

  /** An event from the addon (named with a trailing underscore: called by the addon's callback only). */
  private handle_(kind: string, slot: number, detail: string | undefined, roster: number[] | undefined): void {
    if (roster !== undefined) this.roster = [...roster];
    switch (kind) {
      case 'marker':
        if (this.handlers.size === 0) this.earlyMarkers.push(slot);
        for (const handler of [...this.handlers]) handler(slot, EMPTY);
        return;
      case 'peer-away':
        this.events.emit('peer-away', { slot, roster: [...this.roster], reason: detail ?? 'closed' });
        return;
      case 'peer-back':
        this.events.emit('peer-back', { slot, roster: [...this.roster] });
        return;
      case 'peer-left': {
        const reason = detail ?? 'closed';
        const sessionBroken = this.state === 'ready' || this.state === 'reconnecting';
        this.events.emit('peer-left', { slot, roster: [...this.roster], reason, sessionBroken });
        if (!sessionBroken) return;
        const error = new PeerLeftError(slot, reason);
        this.failure ??= error;
        this.setState('broken', error);
        return;
      }
      case 'reconnecting':
        if (this.state === 'ready') this.setState('reconnecting');
        return;
      case 'resumed':
        if (this.state === 'reconnecting') this.setState('ready');
        return;
      case 'broken': {
        const error = this.failed() ?? new RelayError('connection-lost', detail ?? 'the relay connection failed');
        this.setState('broken', error);
        void this.terminate(error);
        return;
      }
    }
  }
}

/**
 * What a {@link Session} needs from the transport beneath it: to send bytes to a party, to be
 * handed the bytes that arrive, to hear when a party is gone, and to close. The relay connection
 * ({@link RelayConnection}) is one implementation; {@link MessageLink}, over a caller-supplied
 * {@link MessageTransport} (an app's WebSocket, a WebRTC data channel, a `BroadcastChannel`,
 * mpc-framework's `send`/`handleMessage`), is the other. Noise runs above either, inside the core,
 * so jobs never know which one they got.
 */
import type { ChorusError } from '../errors.js';
import type { Listener, Unsubscribe } from '../events.js';
import type { FrameHandler, RelayConnectionEvents, TransportStats } from './connection-types.js';

/** The events a session link reports (the relay connection's, minus `peer-joined` and warnings). */
export type SessionLinkEvents = Pick<RelayConnectionEvents, 'connection' | 'peer-left' | 'peer-away' | 'peer-back'>;

/** A session's transport. */
export interface SessionLink {
  /** This party's index. */
  readonly slot: number;
  /** The number of parties. */
  readonly parties: number;
  /**
   * The name the channels' session id is derived from: the relay room id, or the session id the
   * caller gave with its own transport.
   */
  readonly sessionName: string;
  /** Sends `bytes` to party `to`; throws once the link is broken or closed. */
  send(to: number, bytes: Uint8Array): void;
  /** Hands every arriving frame to `handler` (frames that arrived before are handed over at once). */
  onFrame(handler: FrameHandler): Unsubscribe;
  /** Subscribes to a link event. */
  on<K extends keyof SessionLinkEvents & string>(name: K, listener: Listener<SessionLinkEvents[K]>): Unsubscribe;
  /**
   * Why the link failed, if it knows before its events arrived (optional): a job that fails on the
   * same failure is reported with it.
   */
  failed?(): ChorusError | undefined;
  /** Frames and bytes in each direction. */
  stats(): TransportStats;
  /** Closes the link; resolves when it is closed. Idempotent. */
  close(): Promise<void>;
}

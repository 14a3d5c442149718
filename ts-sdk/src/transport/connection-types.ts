/**
 * The public types around {@link RelayConnection}: its options, states, events and counters. Kept
 * apart from the connection logic so that the logic file reads as one state machine.
 */
import type { ChorusError } from '../errors.js';
import type { RelayConnection } from './relay-connection.js';
import type { WebSocketConstructor } from './websocket.js';

/** Options of {@link RelayConnection.open}. */
export interface RelayConnectionOptions {
  /** The relay: `http(s)://host:port[/prefix]` or its WebSocket endpoint `ws(s)://host:port[/prefix]/ws`. */
  relay: string;
  /** The room id from {@link createRoom}. */
  room: string;
  /** This party's slot, `0..parties-1`. */
  slot: number;
  /** This slot's token from {@link createRoom}. */
  token: string;
  /** The number of parties in the room (checked against the relay's `welcome`). */
  parties: number;
  /** Aborting it cancels the open, rejects every pending wait and closes the connection. */
  signal?: AbortSignal;
  /** A WebSocket class to use instead of the global one (or `ws` on Node without one). */
  WebSocketImpl?: WebSocketConstructor;
  /**
   * Whether to resume the slot when the connection drops once the room is ready (default `true`):
   * the connection reconnects by itself, with backoff, within the relay's grace period, and no
   * frame is lost or delivered twice. With `false`, a dropped connection fails at once.
   */
  resume?: boolean;
  /**
   * Bytes of sent frames kept until the relay acknowledges them, for resume (default 64 MiB).
   * Past it the oldest are forgotten; a resume that would need them fails with `resume-failed`.
   */
  resumeBufferBytes?: number;
}

/** Options of a single wait ({@link RelayConnection.ready}, {@link RelayConnection.recv}). */
export interface WaitOptions {
  /** Aborting it cancels this wait only; the connection stays open. */
  signal?: AbortSignal;
}

/** Transport-level counters: binary data frames, with bytes counting the one-byte slot header. */
export interface TransportStats {
  framesSent: number;
  bytesSent: number;
  framesReceived: number;
  bytesReceived: number;
}

/**
 * Where a connection is in its life: `open` (admitted, waiting for the others), `ready` (all slots
 * connected, frames flow), `reconnecting` (the connection dropped after `ready`; resuming the slot,
 * frames sent meanwhile wait and go out on resume), `broken` (a peer left a ready room; still
 * connected to the relay), `closed`.
 */
export type ConnectionState = 'open' | 'ready' | 'reconnecting' | 'broken' | 'closed';

/** Payload of the `connection` event: the connection changed state. */
export interface ConnectionEvent {
  state: ConnectionState;
  /** Connected slots after the change (empty once closed). */
  roster: number[];
  /** Why the connection broke or closed, unless it was closed by {@link RelayConnection.close}. */
  error?: ChorusError;
}

/** Payload of the `peer-joined` event. */
export interface PeerJoinedEvent {
  slot: number;
  roster: number[];
}

/** Payload of the `peer-left` event. */
export interface PeerLeftEvent {
  slot: number;
  roster: number[];
  /** `closed`, `timeout`, `idle` or `error`, as reported by the relay. */
  reason: string;
  /** True when the room was ready: the session is broken ({@link PeerLeftError}). */
  sessionBroken: boolean;
}

/** Payload of the `peer-away` event: a peer's connection dropped; it may come back. */
export interface PeerAwayEvent {
  slot: number;
  roster: number[];
  /** `closed` (the connection dropped) or `timeout` (it stopped answering), as reported by the relay. */
  reason: string;
}

/** Payload of the `peer-back` event: a peer that was away resumed its slot. */
export interface PeerBackEvent {
  slot: number;
  roster: number[];
}

/** Payload of the `relay-warning` event: a non-fatal relay error, e.g. `peer-not-connected`. */
export interface RelayWarningEvent {
  code: string;
  message: string;
  slot?: number;
}

/** Events of a {@link RelayConnection}. */
export type RelayConnectionEvents = {
  /** The connection became `ready`, `reconnecting`, `broken` or `closed`. */
  connection: ConnectionEvent;
  /** Another party joined the room. */
  'peer-joined': PeerJoinedEvent;
  /** Another party left the room. */
  'peer-left': PeerLeftEvent;
  /** Another party's connection dropped; the session waits for it to resume. */
  'peer-away': PeerAwayEvent;
  /** That party resumed. */
  'peer-back': PeerBackEvent;
  /** The relay reported a non-fatal error. */
  'relay-warning': RelayWarningEvent;
};

/** Receives every data frame: the sender's slot and the payload. */
export type FrameHandler = (from: number, bytes: Uint8Array) => void;

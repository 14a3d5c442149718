/**
 * Types of the session API ({@link connect}, `Session`): its statistics and events here, and every
 * other type re-exported from the file of its part (connecting, AES, circuits, preparation).
 */
import type { PeerAwayEvent, PeerBackEvent, PeerLeftEvent } from '../transport/connection-types.js';

export * from './connect-types.js';
export * from './aes-types.js';
export * from './evaluate-types.js';
export * from './prepare-types.js';

/** `Session.stats()`: totals over the jobs of the session so far. */
export interface SessionStats {
  /** Protocol payload bytes sent, including the running job. */
  bytesSent: number;
  /** Protocol payload bytes received, including the running job. */
  bytesReceived: number;
  /** Communication rounds, including the running job. */
  rounds: number;
  /** Milliseconds spent in jobs. */
  timeMs: number;
  /** Jobs completed. */
  jobs: number;
}

/**
 * A `progress` event: the running job's counters after a received protocol message (and, for a job
 * that counts instances, once more when it ends, with every instance done).
 */
export interface ProgressEvent {
  round: number;
  bytesSent: number;
  bytesReceived: number;
  /**
   * `'preprocessing'` or `'online'` when the job says (circuit jobs that stream their instances:
   * after the first chunk's material is made the job alternates; this is the phase of the chunk
   * in progress).
   */
  phase?: 'preprocessing' | 'online';
  /**
   * A job that streams instances (batched circuit jobs, MiniMac and Coral preparations): instances
   * evaluated (or prepared) so far and in all.
   */
  instances?: { done: number; total: number };
}

/**
 * A `reconnecting` or `reconnected` event: this party's own relay connection dropped and is being
 * resumed (relay protocol 2), or was resumed. Jobs keep running meanwhile; nothing is lost.
 */
export interface ReconnectEvent {
  /** The connected slots as last known (this party's own slot is missing while reconnecting). */
  roster: number[];
}

/** Events of a `Session`. */
export type SessionEvents = {
  progress: ProgressEvent;
  /** Another party left: with `sessionBroken`, running and later jobs fail with `PeerLeftError`. */
  'peer-left': PeerLeftEvent;
  /** Another party's connection dropped; the relay keeps its slot while it resumes. */
  'peer-away': PeerAwayEvent;
  /** That party resumed its slot. */
  'peer-back': PeerBackEvent;
  /** This party's connection dropped; the session resumes it by itself. */
  reconnecting: ReconnectEvent;
  /** This party's connection was resumed. */
  reconnected: ReconnectEvent;
};

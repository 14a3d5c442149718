/**
 * The first moments of a relay WebSocket: the join URL built from the connection options, and
 * waiting for `welcome` (or the relay's refusal) on a fresh socket, for a first join and for a
 * resume alike. Once `welcome` arrived, every later message and the close go, synchronously and
 * in order, to the handlers the caller returns: frames the relay sends right behind `welcome` (a
 * resume re-sends frames at once) are never lost or reordered.
 */
import type { RelayConnectionOptions } from './connection-types.js';
import { ConfigError, RelayError, type ChorusError } from '../errors.js';
import { relayWebSocketUrl } from './urls.js';
import { ReadyState, type WebSocketLike } from './websocket.js';
import {
  MAX_PARTIES,
  MIN_PARTIES,
  parseControl,
  PROTOCOL_VERSION,
  type ControlMessage,
  type ErrorMessage,
  type WelcomeMessage,
} from './wire.js';

/** Checks the options of `RelayConnection.open`; returns the join URL (`…/ws?room&slot&token&protocol`). */
export function joinUrl(options: RelayConnectionOptions): URL {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('options', 'expected an options object');
  }
  const url = relayWebSocketUrl(options.relay);
  const { parties, slot, room, token, signal } = options;
  if (!Number.isInteger(parties) || parties < MIN_PARTIES || parties > MAX_PARTIES) {
    throw new ConfigError('parties', `expected an integer in ${MIN_PARTIES}..${MAX_PARTIES}, got ${String(parties)}`);
  }
  if (!Number.isInteger(slot) || slot < 0 || slot >= parties) {
    throw new ConfigError('slot', `expected an integer in 0..${parties - 1}, got ${String(slot)}`);
  }
  if (typeof room !== 'string' || room === '') throw new ConfigError('room', 'expected a non-empty room id');
  if (typeof token !== 'string' || token === '') throw new ConfigError('token', 'expected a non-empty token');
  if (signal !== undefined && (typeof signal !== 'object' || typeof signal.addEventListener !== 'function')) {
    throw new ConfigError('signal', 'expected an AbortSignal');
  }
  if (options.resume !== undefined && typeof options.resume !== 'boolean') {
    throw new ConfigError('resume', 'expected a boolean');
  }
  const { resumeBufferBytes } = options;
  if (resumeBufferBytes !== undefined && (!Number.isSafeInteger(resumeBufferBytes) || resumeBufferBytes < 1)) {
    throw new ConfigError('resumeBufferBytes', `expected a positive integer, got ${String(resumeBufferBytes)}`);
  }
  url.search = new URLSearchParams({ room, slot: String(slot), token, protocol: String(PROTOCOL_VERSION) }).toString();
  return url;
}

/** Where a socket's traffic goes once it is admitted. */
export interface SocketHandlers {
  message(data: unknown): void;
  close(code: number, reason: string): void;
}

/** Callbacks of {@link awaitWelcome}; exactly one of `welcome` and `failure` is called. */
export interface WelcomeCallbacks {
  /** The relay admitted the socket: return its handlers, or an error to refuse the welcome. */
  welcome(message: WelcomeMessage): SocketHandlers | ChorusError;
  /**
   * The socket will never be admitted. `refused` is true when the relay said so with an error frame
   * (retrying will not help), false when the connection failed or closed before `welcome`.
   */
  failure(error: ChorusError, refused: boolean): void;
}

/** Handle of a pending {@link awaitWelcome}. */
export interface PendingWelcome {
  /** Gives up waiting: closes the socket; no callback is called afterwards. */
  cancel(reason: string): void;
}

/** Waits for `welcome` on a fresh `socket` (see the module comment). */
export function awaitWelcome(socket: WebSocketLike, callbacks: WelcomeCallbacks): PendingWelcome {
  let handlers: SocketHandlers | undefined;
  let opened = false;
  let settled = false;
  let errorFrame: ErrorMessage | undefined;

  const closeSocket = (reason: string): void => {
    if (socket.readyState === ReadyState.CONNECTING || socket.readyState === ReadyState.OPEN) {
      socket.close(1000, reason);
    }
  };
  const fail = (error: ChorusError, refused: boolean): void => {
    if (settled) return;
    settled = true;
    closeSocket(error.code === 'aborted' ? 'aborted' : 'client error');
    callbacks.failure(error, refused);
  };

  socket.addEventListener('open', () => {
    opened = true;
  });
  socket.addEventListener('error', () => undefined);
  socket.addEventListener('message', (event) => {
    if (handlers !== undefined) {
      handlers.message(event.data);
      return;
    }
    if (settled) return;
    if (typeof event.data !== 'string') {
      // A protocol violation, not a lost connection: retrying would not help (and this side's
      // close frame has already told the relay that the slot is given up).
      fail(new RelayError('bad-relay-message', 'the relay sent data before welcome'), true);
      return;
    }
    let message: ControlMessage | null;
    try {
      message = parseControl(event.data);
    } catch (error) {
      fail(new RelayError('bad-relay-message', `bad control frame before welcome: ${String(error)}`), true);
      return;
    }
    if (message === null) return;
    if (message.type === 'error') {
      // A refused join: the close frame follows and carries the close code.
      errorFrame = message;
      return;
    }
    if (message.type !== 'welcome') {
      fail(new RelayError('bad-relay-message', `expected welcome, got ${message.type}`), true);
      return;
    }
    const outcome = callbacks.welcome(message);
    if (outcome instanceof Error) {
      fail(outcome, true);
      return;
    }
    settled = true;
    handlers = outcome;
  });
  socket.addEventListener('close', (event) => {
    if (handlers !== undefined) {
      handlers.close(event.code, event.reason);
      return;
    }
    const details = { closeCode: event.code, closeReason: event.reason };
    if (errorFrame !== undefined) {
      fail(new RelayError(errorFrame.code, `relay refused the join: ${errorFrame.message}`, details), true);
    } else if (!opened) {
      fail(new RelayError('connect-failed', `could not connect to the relay (close code ${event.code})`, details), false);
    } else {
      fail(new RelayError('connection-lost', `the relay closed the connection before welcome (close code ${event.code})`, details), false);
    }
  });
  return {
    cancel(reason: string): void {
      if (settled) return;
      settled = true;
      closeSocket(reason);
    },
  };
}

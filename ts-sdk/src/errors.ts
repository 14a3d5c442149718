/**
 * Typed errors of the Chorus SDK. Every error the SDK raises on purpose is a {@link ChorusError}
 * with a machine-readable `code`, so callers can branch on `instanceof` or on `code` without parsing
 * messages. Cancellation is the one exception to "branch on the class": {@link CancelledError} has
 * `name === 'AbortError'`, the convention `fetch` and other web APIs use for aborted operations.
 */
import type { ErrorCode } from './transport/relay-protocol.js';

/** Options shared by the error constructors. */
export interface ChorusErrorOptions {
  /** The underlying error, when this one wraps another. */
  cause?: unknown;
}

/** Base class of every error the SDK raises. */
export class ChorusError extends Error {
  /** Machine-readable error code; each subclass documents its codes. */
  readonly code: string;

  /**
   * @param code machine-readable code, see the subclasses
   * @param message human-readable description
   */
  constructor(code: string, message: string, options: ChorusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChorusError';
    this.code = code;
  }
}

/**
 * Error codes a {@link RelayError} can carry that originate in the SDK rather than in the relay:
 *
 * - `connect-failed`: the relay could not be reached (WebSocket or HTTP request failed);
 * - `connection-lost`: the connection closed without an error frame from the relay (relay shutdown
 *   with close code 1001, ...), or it dropped and could not be resumed within the relay's grace
 *   period;
 * - `bad-relay-message`: the relay sent something that does not follow the wire protocol;
 * - `unsupported-protocol`: the relay speaks a wire-protocol version this SDK does not know;
 * - `http-<status>`: an HTTP error response without a Chorus error body.
 *
 * All other codes are the relay's own (`bad-token`, `unknown-room`, `slot-taken`, `idle-timeout`,
 * `resume-failed`, `rate-limited`, ...; see the relay's PROTOCOL.md). `resume-failed` is also
 * raised by the SDK itself when the relay asks for frames it no longer keeps.
 */
export type ClientRelayErrorCode =
  | 'connect-failed'
  | 'connection-lost'
  | 'bad-relay-message'
  | 'unsupported-protocol';

/**
 * The codes a {@link RelayError} carries: the relay's own (its `ErrorCode`, from the relay's
 * protocol definitions) and the SDK's {@link ClientRelayErrorCode}s. `http-<status>` codes and codes
 * of newer relays are plain strings beyond this union.
 */
export type RelayErrorCode = ErrorCode | ClientRelayErrorCode;

/** Details carried by a {@link RelayError}. */
export interface RelayErrorDetails extends ChorusErrorOptions {
  /** WebSocket close code, when the error ended a WebSocket connection. */
  closeCode?: number;
  /** WebSocket close reason, when there was one. */
  closeReason?: string;
  /** HTTP status, when the error came from the relay's HTTP API. */
  httpStatus?: number;
}

/**
 * The relay refused a request or closed the connection. `code` is the relay's error code (for
 * example `bad-token`) or one of the {@link ClientRelayErrorCode}s.
 */
export class RelayError extends ChorusError {
  /** WebSocket close code, when the error ended a WebSocket connection. */
  readonly closeCode: number | undefined;
  /** WebSocket close reason, when there was one. */
  readonly closeReason: string | undefined;
  /** HTTP status, when the error came from the relay's HTTP API. */
  readonly httpStatus: number | undefined;

  constructor(code: string, message: string, details: RelayErrorDetails = {}) {
    super(code, message, details);
    this.name = 'RelayError';
    this.closeCode = details.closeCode;
    this.closeReason = details.closeReason;
    this.httpStatus = details.httpStatus;
  }
}

/**
 * A caller-supplied transport ({@link MessageTransport}) failed or delivered something it cannot
 * have received. Codes:
 *
 * - `transport-failed`: the caller reported a failure of its transport (`receiver.failed`), with
 *   the caller's error as `cause`;
 * - `send-failed`: the transport's `send` threw (its error is the `cause`);
 * - `bad-message`: the transport delivered a message with an impossible sender (not another
 *   party's index) or a payload that is not bytes; `slot` names the sender when it is one.
 */
export class TransportError extends ChorusError {
  /** The party the problem concerns, when there is one. */
  readonly slot: number | undefined;

  constructor(code: 'transport-failed' | 'send-failed' | 'bad-message', message: string, options: ChorusErrorOptions & { slot?: number } = {}) {
    super(code, message, options);
    this.name = 'TransportError';
    this.slot = options.slot;
  }
}

/**
 * Another party left a room that was ready: the running session is broken and cannot continue.
 * Code `peer-left`.
 */
export class PeerLeftError extends ChorusError {
  /** The slot of the party that left. */
  readonly slot: number;
  /** Why it left, as reported by the relay (`closed`, `timeout`, `idle`, `error`). */
  readonly reason: string;

  constructor(slot: number, reason: string) {
    super('peer-left', `party ${slot} left the session (${reason})`);
    this.name = 'PeerLeftError';
    this.slot = slot;
    this.reason = reason;
  }
}

/**
 * A frame from a peer failed authentication: it was altered, replayed, reordered or forged on the
 * way. Raised by the encrypted channel of the protocol layer. Code `integrity`.
 */
export class IntegrityError extends ChorusError {
  /** The slot the bad frame claimed to come from. */
  readonly slot: number;

  constructor(slot: number, message: string, options: ChorusErrorOptions = {}) {
    super('integrity', `frame from party ${slot} failed authentication: ${message}`, options);
    this.name = 'IntegrityError';
    this.slot = slot;
  }
}

/**
 * A protocol check failed (for example a MAC check on opened values): some party deviated from the
 * protocol or sent inconsistent data, and the computation was aborted. Code `protocol-abort`.
 */
export class ProtocolAbortError extends ChorusError {
  /** Which check failed, in a few words (for example `MAC check on output`). */
  readonly check: string;

  constructor(check: string, message: string, options: ChorusErrorOptions = {}) {
    super('protocol-abort', `protocol aborted, ${check} failed: ${message}`, options);
    this.name = 'ProtocolAbortError';
    this.check = check;
  }
}

/** An argument was invalid. `field` names it. Code `config`. */
export class ConfigError extends ChorusError {
  /** The name of the invalid argument or option. */
  readonly field: string;

  constructor(field: string, message: string) {
    super('config', `invalid ${field}: ${message}`);
    this.name = 'ConfigError';
    this.field = field;
  }
}

/**
 * The options ask for a protocol, variant or security level that the SDK names but does not
 * implement yet (for example `security: 'malicious'`). A {@link ConfigError} (code `config`), so
 * existing `instanceof ConfigError` checks keep working; `feature` says what is missing.
 */
export class NotAvailableError extends ConfigError {
  /** What is not available, e.g. `malicious MAESTRO`. */
  readonly feature: string;

  constructor(field: string, feature: string, message: string) {
    super(field, `${feature} is not available yet: ${message}`);
    this.name = 'NotAvailableError';
    this.feature = feature;
  }
}

/**
 * Bristol Fashion text that does not parse, or a circuit that does not fit the options. A
 * {@link ConfigError} on `circuit`; `line` is the 1-based line of a parse error, when there is one.
 */
export class CircuitError extends ConfigError {
  /** The 1-based line of the Bristol text the problem is on, if it is a parse error. */
  readonly line: number | undefined;

  constructor(message: string, line?: number) {
    super('circuit', message);
    this.name = 'CircuitError';
    this.line = line;
  }
}

/**
 * The operation was cancelled through an `AbortSignal`. Its `name` is `'AbortError'`, like the
 * `DOMException` that `fetch` rejects with, so `err.name === 'AbortError'` checks work unchanged.
 * `cause` holds the signal's `reason`. Code `aborted`.
 */
export class CancelledError extends ChorusError {
  constructor(message: string, options: ChorusErrorOptions = {}) {
    super('aborted', message, options);
    this.name = 'AbortError';
  }
}

/** The {@link CancelledError} for an aborted `signal`: says what was cancelled, carries the reason. */
export function abortError(signal: AbortSignal, what: string): CancelledError {
  return new CancelledError(`${what} was aborted`, { cause: signal.reason });
}

/** Whether `error` is a cancellation: a {@link CancelledError} or any error named `AbortError`. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

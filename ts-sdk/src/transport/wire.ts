/**
 * The relay wire protocol (version 2) as seen by a party: validation of the JSON control frames the
 * relay sends, the `ack` text frames the party sends, and the one-byte slot header of binary data
 * frames. Its constants and message shapes come from the relay's own definitions
 * (`relay-protocol.ts`, copied from `server/src/protocol.ts` at build), so SDK and relay cannot
 * drift; the relay's `PROTOCOL.md` is the normative description. This module checks what arrives
 * so the connection logic can trust it.
 */
import {
  MAX_PARTIES,
  PROTOCOL_VERSION,
  type AckMessage,
  type JoinedMessage,
  type ReadyMessage,
  type WelcomeMessage as RelayWelcome,
} from './relay-protocol.js';

export { CloseCode, MAX_PARTIES, MIN_PARTIES, PROTOCOL_VERSION, WS_PATH } from './relay-protocol.js';
export type { AckMessage, ErrorCode, JoinedMessage, LeaveReason, ReadyMessage } from './relay-protocol.js';

/**
 * `welcome` as this SDK accepts it: version 2, so the resume fields the relay adds for version-2
 * clients are present.
 */
export type WelcomeMessage = RelayWelcome & Required<Pick<RelayWelcome, 'resumeGraceMs' | 'ackBytes' | 'resumed' | 'received'>>;

/**
 * `left` (room not ready) or `peer-left` (ready room, session broken): a party left. `reason` is
 * one of the relay's `LeaveReason`s, read as a string so reasons of newer relays pass through.
 */
export interface DepartureMessage {
  type: 'left' | 'peer-left';
  slot: number;
  roster: number[];
  reason: string;
}

/** `peer-away` (a peer's connection dropped; it may resume) or `peer-back` (it resumed). */
export interface AwayMessage {
  type: 'peer-away' | 'peer-back';
  slot: number;
  roster: number[];
  /** Why the connection dropped (`peer-away` only). */
  reason?: string;
}

/**
 * `error`: a refused join or a protocol violation; `fatal` errors are followed by a close. `code`
 * is one of the relay's `ErrorCode`s, read as a string so codes of newer relays pass through.
 */
export interface ErrorMessage {
  type: 'error';
  code: string;
  message: string;
  fatal: boolean;
  slot?: number;
}

/** A control message the SDK understands; `null` from {@link parseControl} means "ignore it". */
export type ControlMessage =
  | WelcomeMessage
  | JoinedMessage
  | ReadyMessage
  | DepartureMessage
  | AwayMessage
  | AckMessage
  | ErrorMessage;

/** A control frame that does not follow the wire protocol. */
export class MalformedMessageError extends Error {}

function isSlot(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < MAX_PARTIES;
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isRoster(value: unknown): value is number[] {
  return Array.isArray(value) && value.every(isSlot);
}

function malformed(what: string): never {
  throw new MalformedMessageError(what);
}

/**
 * Parses one JSON text frame from the relay. Returns `null` for message types this SDK does not know
 * (the protocol requires clients to ignore them); throws {@link MalformedMessageError} for frames
 * that are not JSON objects or lack the fields of their type.
 */
export function parseControl(text: string): ControlMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return malformed('control frame is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return malformed('control frame is not a JSON object');
  }
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'welcome':
      if (
        !Number.isInteger(m.protocol) ||
        typeof m.room !== 'string' ||
        !isSlot(m.slot) ||
        !Number.isInteger(m.parties) ||
        !isRoster(m.roster) ||
        !Number.isInteger(m.maxPayloadBytes) ||
        (m.maxPayloadBytes as number) < 1
      ) {
        return malformed('welcome message lacks its fields');
      }
      // Version 2 fields; a welcome of another version is refused by the version check later.
      if (
        m.protocol === PROTOCOL_VERSION &&
        (!isCount(m.resumeGraceMs) || !isCount(m.ackBytes) || (m.ackBytes as number) < 1 ||
          typeof m.resumed !== 'boolean' || !isCount(m.received))
      ) {
        return malformed('welcome message lacks its resume fields');
      }
      return m as unknown as WelcomeMessage;
    case 'joined':
      if (!isSlot(m.slot) || !isRoster(m.roster)) return malformed('joined message lacks its fields');
      return m as unknown as JoinedMessage;
    case 'ready':
      if (!isRoster(m.roster)) return malformed('ready message lacks its roster');
      return m as unknown as ReadyMessage;
    case 'left':
    case 'peer-left':
      if (!isSlot(m.slot) || !isRoster(m.roster) || typeof m.reason !== 'string') {
        return malformed(`${m.type} message lacks its fields`);
      }
      return m as unknown as DepartureMessage;
    case 'peer-away':
    case 'peer-back':
      if (!isSlot(m.slot) || !isRoster(m.roster) || (m.type === 'peer-away' && typeof m.reason !== 'string')) {
        return malformed(`${m.type} message lacks its fields`);
      }
      return m as unknown as AwayMessage;
    case 'ack':
      if (!isCount(m.received)) return malformed('ack message lacks its count');
      return m as unknown as AckMessage;
    case 'error':
      if (typeof m.code !== 'string' || typeof m.message !== 'string' || typeof m.fatal !== 'boolean') {
        return malformed('error message lacks its fields');
      }
      if (m.slot !== undefined && !isSlot(m.slot)) return malformed('error message has a bad slot');
      return m as unknown as ErrorMessage;
    default:
      if (typeof m.type !== 'string') return malformed('control frame has no type');
      return null;
  }
}

/** Builds an outgoing data frame: the destination slot, then the payload. */
export function encodeFrame(to: number, payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(payload.length + 1);
  frame[0] = to;
  frame.set(payload, 1);
  return frame;
}

/** The `ack` text frame a party sends: it has received `received` data frames in the session. */
export function encodeAck(received: number): string {
  return JSON.stringify({ type: 'ack', received });
}

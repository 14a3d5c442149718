/**
 * The relay wire protocol's one source of constants and message shapes: version, party limits,
 * WebSocket close codes, error codes, leave reasons and the JSON control messages. The relay's
 * modules import it, and the SDK compiles a copy made at its build (`ts-sdk/scripts/relay-protocol.mjs`),
 * so the two cannot drift; keep this file free of imports. `PROTOCOL.md` is the normative
 * description; keep the two in step.
 */

/**
 * Newest version of the relay wire protocol. A client names the version it speaks in the join URL
 * (`protocol=2`; absent means 1) and the `welcome` message echoes it. Version 2 adds resume and
 * `ack` messages; version-1 clients are still admitted unless `minProtocol` is 2.
 */
export const PROTOCOL_VERSION = 2;

/** Path of the WebSocket endpoint. */
export const WS_PATH = "/ws";

/** Smallest and largest number of party slots a room may have. */
export const MIN_PARTIES = 2;
/** Largest number of party slots a room may have (slot numbers must fit the one-byte header). */
export const MAX_PARTIES = 16;

/** WebSocket close codes the relay uses. 1xxx are RFC 6455 codes, 4xxx are relay-specific. */
export const CloseCode = {
  /** The relay is shutting down. */
  GoingAway: 1001,
  /** A frame exceeded `maxPayloadBytes` (closed by the `ws` frame parser). */
  MessageTooBig: 1009,
  /** Join query parameters missing or malformed. */
  BadRequest: 4000,
  /** No room with this id (never existed, expired, or emptied). */
  UnknownRoom: 4001,
  /** Slot number outside `0..parties`. */
  BadSlot: 4002,
  /** Token does not belong to this room slot. */
  BadToken: 4003,
  /** Another connection already holds this slot. */
  SlotTaken: 4004,
  /** An empty binary frame (no destination byte). */
  EmptyFrame: 4005,
  /** Destination byte outside `0..parties` or equal to the sender's own slot. */
  BadDestination: 4006,
  /** A text frame from a party (parties send binary data frames only). */
  UnexpectedText: 4007,
  /** No data frame to or from this party for `idleTimeoutMs`. */
  IdleTimeout: 4008,
  /** The client address already holds `maxConnectionsPerAddress` connections. */
  TooManyConnections: 4009,
  /** The client asked for a protocol version the relay does not speak (or no longer admits). */
  UnsupportedProtocol: 4010,
  /** A resume the relay cannot honour: the slot's session ended, or frames it needs are gone. */
  ResumeFailed: 4011,
  /** An `ack` acknowledging more frames than the relay sent. */
  BadAck: 4012,
  /** Frames waited for this party and it read none of them for `stallTimeoutMs`. */
  Stalled: 4013,
} as const;

/** Machine-readable error codes carried in `{type:"error"}` frames and HTTP error bodies. */
export type ErrorCode =
  | "bad-request"
  | "unknown-room"
  | "bad-slot"
  | "bad-token"
  | "slot-taken"
  | "empty-frame"
  | "bad-destination"
  | "unexpected-text"
  | "idle-timeout"
  | "frame-too-large"
  | "peer-not-connected"
  | "too-many-rooms"
  | "too-many-pending-rooms"
  | "too-many-connections"
  | "rate-limited"
  | "unsupported-protocol"
  | "resume-failed"
  | "bad-ack"
  | "stalled"
  | "admission-required"
  | "bad-admission-token"
  | "not-found"
  | "method-not-allowed"
  | "payload-too-large"
  | "upgrade-required"
  | "shutting-down"
  | "internal-error";

/**
 * Why a party's connection ended or it left, as reported to the remaining parties. `stalled`: frames
 * waited for the party and it read none of them for `stallTimeoutMs`. The last three end an away
 * party's slot (protocol 2): its grace period passed, frames held for it outgrew
 * `resumeBufferBytes`, or its resume could not be honoured.
 */
export type LeaveReason =
  | "closed"
  | "timeout"
  | "idle"
  | "error"
  | "stalled"
  | "grace-expired"
  | "buffer-full"
  | "resume-failed";

/** Sent to a party right after it joined, before any other message. */
export interface WelcomeMessage {
  type: "welcome";
  protocol: number;
  room: string;
  slot: number;
  parties: number;
  roster: number[];
  maxPayloadBytes: number;
  /** Protocol 2: how long the slot waits for a resume after the connection drops (0: never). */
  resumeGraceMs?: number;
  /** Protocol 2: acknowledge received data frames at least every this many bytes. */
  ackBytes?: number;
  /** Protocol 2: whether this join resumed the slot's running session. */
  resumed?: boolean;
  /** Protocol 2: data frames the relay has received from this slot in its session so far. */
  received?: number;
}

/** Sent to every connected party (the new one included) when a party joins. */
export interface JoinedMessage {
  type: "joined";
  slot: number;
  roster: number[];
}

/** Sent to every party when all slots are connected. */
export interface ReadyMessage {
  type: "ready";
  roster: number[];
}

/** Sent when a party leaves a room whose slots were not all connected since the last `ready`. */
export interface LeftMessage {
  type: "left";
  slot: number;
  roster: number[];
  reason: LeaveReason;
}

/** Sent when a party leaves a room that was `ready`: the running session is broken. */
export interface PeerLeftMessage {
  type: "peer-left";
  slot: number;
  roster: number[];
  reason: LeaveReason;
}

/** Protocol 2: a party of the ready room lost its connection; it may come back (`peer-back`). */
export interface PeerAwayMessage {
  type: "peer-away";
  slot: number;
  roster: number[];
  reason: LeaveReason;
}

/** Protocol 2: an away party resumed its slot. */
export interface PeerBackMessage {
  type: "peer-back";
  slot: number;
  roster: number[];
}

/** Protocol 2, both directions: the sender has received `received` data frames in this session. */
export interface AckMessage {
  type: "ack";
  received: number;
}

/** An error; `fatal: true` means the relay closes the connection right after this frame. */
export interface ErrorMessage {
  type: "error";
  code: ErrorCode;
  message: string;
  fatal: boolean;
  /** The slot an error is about, when there is one (e.g. `peer-not-connected`). */
  slot?: number;
}

/** Every JSON text frame the relay may send. */
export type ControlMessage =
  | WelcomeMessage
  | JoinedMessage
  | ReadyMessage
  | LeftMessage
  | PeerLeftMessage
  | PeerAwayMessage
  | PeerBackMessage
  | AckMessage
  | ErrorMessage;

/**
 * Wire-protocol constants shared by the relay modules: WebSocket close codes, error codes and the
 * shapes of the JSON control messages. `PROTOCOL.md` is the normative description; keep the two in
 * step.
 */

/** Version of the relay wire protocol, sent in the `welcome` message. */
export const PROTOCOL_VERSION = 1;

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
  | "admission-required"
  | "bad-admission-token"
  | "not-found"
  | "method-not-allowed"
  | "payload-too-large"
  | "upgrade-required"
  | "shutting-down"
  | "internal-error";

/** Why a party's connection ended, as reported to the remaining parties. */
export type LeaveReason = "closed" | "timeout" | "idle" | "error";

/** Sent to a party right after it joined, before any other message. */
export interface WelcomeMessage {
  type: "welcome";
  protocol: number;
  room: string;
  slot: number;
  parties: number;
  roster: number[];
  maxPayloadBytes: number;
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
  | ErrorMessage;

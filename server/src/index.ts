/**
 * `@chorus/server`: the Chorus WebSocket relay. It routes end-to-end encrypted frames between the
 * parties of a room and never parses payloads. See README.md and PROTOCOL.md.
 */
export { startRelay, type RelayHandle, type RelayHooks } from "./relay.js";
export { ConfigError, DEFAULTS, resolveConfig, type LogLevel, type RelayConfig, type RelayOptions } from "./config.js";
export type { ConnectionStats } from "./ws/connections.js";
export {
  CloseCode,
  MAX_PARTIES,
  MIN_PARTIES,
  PROTOCOL_VERSION,
  WS_PATH,
  type AckMessage,
  type ControlMessage,
  type ErrorCode,
  type ErrorMessage,
  type JoinedMessage,
  type LeaveReason,
  type LeftMessage,
  type PeerAwayMessage,
  type PeerBackMessage,
  type PeerLeftMessage,
  type ReadyMessage,
  type WelcomeMessage,
} from "./protocol.js";
export type { CreatedRoom } from "./rooms.js";

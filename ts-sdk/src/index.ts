/**
 * The Chorus TypeScript SDK.
 *
 * What is here today is the transport: creating relay rooms ({@link createRoom}), joining a room
 * slot and moving opaque byte frames between parties ({@link RelayConnection}), typed errors and a
 * small event emitter. The protocol calls (`session.aes`, `session.evaluate`) arrive with the WASM
 * bindings, which run the MPC protocols and their Noise channels over this transport.
 *
 * @packageDocumentation
 */

/** The SDK version, kept equal to the package version. */
export const VERSION = '0.1.0';

export {
  CancelledError,
  ChorusError,
  ConfigError,
  IntegrityError,
  isAbortError,
  PeerLeftError,
  ProtocolAbortError,
  RelayError,
  type ChorusErrorOptions,
  type ClientRelayErrorCode,
  type RelayErrorDetails,
} from './errors.js';
export { Emitter, type EventMap, type Listener, type Unsubscribe } from './events.js';
export { createRoom, type CreateRoomOptions, type Invite, type Room } from './rooms.js';
export { RelayConnection } from './relay-connection.js';
export type {
  ConnectionEvent,
  ConnectionState,
  FrameHandler,
  PeerJoinedEvent,
  PeerLeftEvent,
  RelayConnectionEvents,
  RelayConnectionOptions,
  RelayWarningEvent,
  TransportStats,
  WaitOptions,
} from './connection-types.js';
export { relayWebSocketUrl } from './urls.js';
export type { WebSocketConstructor, WebSocketEventMapLike, WebSocketLike } from './websocket.js';
export { MAX_PARTIES, MIN_PARTIES, PROTOCOL_VERSION } from './wire.js';

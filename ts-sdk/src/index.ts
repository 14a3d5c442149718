/**
 * The Chorus TypeScript SDK.
 *
 * Sessions ({@link connect}, {@link Session}) run MPC jobs — joint AES with MAESTRO, TinyTable,
 * MiniMac or Coral, and Bristol circuits — in the Chorus core (WASM, or the native addon in Node),
 * whose Noise channels encrypt and authenticate every frame end to end. Beneath them is the
 * transport: the Chorus relay (creating rooms with {@link createRoom}, joining a room slot and
 * moving opaque byte frames between parties with {@link RelayConnection}), or any transport the
 * caller brings ({@link MessageTransport}). Typed errors and a small event emitter.
 *
 * @packageDocumentation
 */

/** The SDK version, kept equal to the package version. */
export const VERSION = '0.1.0';

export {
  CancelledError,
  ChorusError,
  CircuitError,
  ConfigError,
  NotAvailableError,
  IntegrityError,
  isAbortError,
  PeerLeftError,
  ProtocolAbortError,
  RelayError,
  TransportError,
  type ChorusErrorOptions,
  type ClientRelayErrorCode,
  type RelayErrorCode,
  type RelayErrorDetails,
} from './errors.js';
export { Emitter, type EventMap, type Listener, type Unsubscribe } from './events.js';
export { createRoom, type CreateRoomOptions, type Invite, type Room } from './transport/rooms.js';
export { RelayConnection } from './transport/relay-connection.js';
export type { MessageReceiver, MessageTransport } from './transport/message-link.js';
export type {
  ConnectionEvent,
  ConnectionState,
  FrameHandler,
  PeerJoinedEvent,
  PeerAwayEvent,
  PeerBackEvent,
  PeerLeftEvent,
  RelayConnectionEvents,
  RelayConnectionOptions,
  RelayWarningEvent,
  TransportStats,
  WaitOptions,
} from './transport/connection-types.js';
export { connect, MIN_SECRET_BYTES, Session } from './session/session.js';
export { parseCircuit } from './session/circuits.js';
export { MAX_INSTANCES } from './session/session-types.js';
export type {
  AesOptions,
  AesProtocol,
  AesResult,
  AesRoleOptions,
  MaestroAesOptions,
  TinyTableAesOptions,
  MiniMacAesOptions,
  CoralAesOptions,
  CoralEvaluateOptions,
  CoralPacking,
  CoralPreprocessingOptions,
  TinyOtAesOptions,
  TinyOtEvaluateOptions,
  TinyOtOptions,
  MiniMacCode,
  MiniMacEvaluateOptions,
  MiniMacPreprocessingOptions,
  CircuitProtocol,
  TinyTableEvaluateOptions,
  TinyTablePreprocessing,
  TinyTablePreprocessingOptions,
  TinyTableSecurityOptions,
  EvaluateIoOptions,
  CircuitValue,
  CircuitValueInput,
  EvaluateOptions,
  EvaluateResult,
  MaestroVariant,
  AesDirection,
  ParsedCircuit,
  MixedCircuit,
  PreparedUseOption,
  PrepareOptions,
  PrepareResult,
  SecurityLevel,
  TinyTablePath,
  ConnectOptions,
  TransportConnectOptions,
  PinnedKeys,
  ProgressEvent,
  ReconnectEvent,
  InstanceOutputs,
  ProtocolStats,
  SessionEvents,
  SessionStats,
  WarmUpOptions,
  WarmUpResult,
} from './session/session-types.js';
export { toBytes, toHex, type BytesLike } from './bytes.js';
export { initWasm, type WasmSource } from './session/wasm-loader.js';
export { warmUpCore, type StandaloneWarmUpOptions } from './session/warm-up.js';
export { loadRuntime, type Runtime, type ResolvedRuntime } from './session/runtime.js';
export { relayWebSocketUrl } from './transport/urls.js';
export type { WebSocketConstructor, WebSocketEventMapLike, WebSocketLike } from './transport/websocket.js';
export { MAX_PARTIES, MIN_PARTIES, PROTOCOL_VERSION, type ErrorCode, type LeaveReason } from './transport/wire.js';

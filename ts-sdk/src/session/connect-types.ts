/** Types of {@link connect}'s options: through the relay or over the caller's transport. */
import type { BytesLike } from '../bytes.js';
import type { RelayConnectionOptions } from '../transport/connection-types.js';
import type { MessageTransport } from '../transport/message-link.js';
import type { WasmSource } from './wasm-loader.js';
import type { Runtime } from './runtime.js';
import type { WarmUpOptions } from './prepare-types.js';

/** Pinned static X25519 keys (Noise `KK`): this party's private key, every party's public key. */
export interface PinnedKeys {
  /** This party's 32-byte private key. */
  privateKey: BytesLike;
  /** The 32-byte public key of every party, in slot order (this party's included). */
  publicKeys: BytesLike[];
}

/** Options of {@link connect}: a relay invite plus the channel credentials. */
export interface ConnectOptions extends RelayConnectionOptions {
  /**
   * The session secret shared by all parties (Noise `NNpsk0`): at least 16 uniformly random bytes
   * (32 recommended), never a passphrase. Give either `secret` or `keys`.
   */
  secret?: BytesLike;
  /** Pinned static keys (Noise `KK`), instead of `secret`. */
  keys?: PinnedKeys;
  /** Where to load the WASM module from (default: beside the SDK, see `initWasm`). */
  wasm?: WasmSource;
  /**
   * Which core runs the jobs: `'auto'` (default: the native addon `@chorus/node` in Node when it is
   * installed and loads, else WASM with a one-line notice; browsers always WASM), `'native'`
   * (the addon or a `ConfigError` on `runtime` saying why not) or `'wasm'`. Parties of different
   * runtimes share a session.
   */
  runtime?: Runtime;
  /**
   * With the native runtime, whether the addon serves the relay connection itself (default
   * `true`): a job's frames then go between the core and the socket without JavaScript, which
   * makes every round cheaper. It applies with no `WebSocketImpl` and resuming at its defaults, for
   * any relay URL (`wss://` too: the addon checks the certificate against Mozilla's roots and the
   * file of `NODE_EXTRA_CA_CERTS`, as Node does, unless `NODE_TLS_REJECT_UNAUTHORIZED=0`, which
   * leaves TLS relays to JavaScript); otherwise, or with `false`, the connection runs in
   * JavaScript. The wire is the same either way.
   */
  nativeRelay?: boolean;
  /**
   * Jobs to warm the WASM core up for while the session joins (see `Session.warmUp`); `connect`
   * resolves once the room is ready and the warm-ups are done. Nothing happens on the native
   * runtime.
   */
  warmUp?: WarmUpOptions | WarmUpOptions[];
}

/**
 * Options of {@link connect} over a transport the caller brings instead of the relay: the
 * caller's {@link MessageTransport}, this party's index, the party count and a session id every
 * party gives alike, plus the channel credentials as with the relay — or, where the transport
 * itself authenticates the parties, `unauthenticated: true` (Noise `NN`: the channels are
 * encrypted, but an active attacker on the transport can sit between the parties and act as the
 * other party towards each; see the README's security model).
 */
export interface TransportConnectOptions {
  /** The caller's transport. */
  transport: MessageTransport;
  /** This party's index, `0..parties-1`. */
  slot: number;
  /** The number of parties. */
  parties: number;
  /**
   * Names the session: every party passes the same string, and the channels bind it, so frames of
   * one session cannot be replayed into another. Use a fresh one per session where possible.
   */
  sessionId: string;
  /** The session secret (Noise `NNpsk0`), as for relay sessions. */
  secret?: BytesLike;
  /** Pinned static keys (Noise `KK`), instead of `secret`. */
  keys?: PinnedKeys;
  /** No secret and no keys: the unauthenticated Noise `NN` (see above). */
  unauthenticated?: boolean;
  /** Where to load the WASM module from. */
  wasm?: WasmSource;
  /** Which core runs the jobs (as for relay sessions). */
  runtime?: Runtime;
  /** Jobs to warm the WASM core up for before `connect` resolves (as for relay sessions). */
  warmUp?: WarmUpOptions | WarmUpOptions[];
  /** Aborting it closes the session. */
  signal?: AbortSignal;
}

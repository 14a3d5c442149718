/** Types of the session API ({@link connect}, `Session`). */
import type { BytesLike } from './bytes.js';
import type { RelayConnectionOptions } from './connection-types.js';
import type { PeerLeftEvent } from './connection-types.js';
import type { WasmSource } from './wasm-loader.js';

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
}

/** Options of `Session.aes`. Every party must pass the same roles, `blocks` and `keyBits`. */
export interface AesOptions {
  /** This party's XOR share of the key (hex or bytes); required exactly for the key holders. */
  key?: BytesLike;
  /** The plaintext, `16 · blocks` bytes (hex or bytes); required exactly for the plaintext owner. */
  plaintext?: BytesLike;
  /** Number of 16-byte blocks (default 1). */
  blocks?: number;
  /** AES key size in bits: 128 (default), 192 or 256. */
  keyBits?: 128 | 192 | 256;
  /** The parties that each input a key share (default `[0, 1]`); the key is the XOR of the shares. */
  keyHolders?: number[];
  /** The party that inputs the plaintext (default `2`). */
  plaintextOwner?: number;
  /** The parties that learn the ciphertext (default all). */
  reveal?: number[];
  /** Aborting it cancels the job and closes the session. */
  signal?: AbortSignal;
}

/** Protocol communication of this party (payload bytes inside the encrypted channel). */
export interface ProtocolStats {
  rounds: number;
  bytesSent: number;
  bytesReceived: number;
  messagesSent: number;
  messagesReceived: number;
}

/** The result of `Session.aes`. */
export interface AesResult {
  /** The ciphertext, if this party is in `reveal`. */
  ciphertext?: Uint8Array;
  /** The ciphertext as lower-case hex, if this party is in `reveal`. */
  ciphertextHex?: string;
  /** The whole job: spec agreement, setup, inputs, key schedule, rounds, reveal. */
  stats: ProtocolStats & { timeMs: number };
  /** The AES rounds alone (what MAESTRO's Table 1 counts). */
  roundsStats: ProtocolStats;
  /** Encrypted frames and handshakes, as the channel below the protocol counts them. */
  transportStats: ProtocolStats;
}

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

/** A `progress` event: the running job's counters after a received protocol message. */
export interface ProgressEvent {
  round: number;
  bytesSent: number;
  bytesReceived: number;
}

/** Events of a `Session`. */
export type SessionEvents = {
  progress: ProgressEvent;
  'peer-left': PeerLeftEvent;
};

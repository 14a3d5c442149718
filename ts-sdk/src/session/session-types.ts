/** Types of the session API ({@link connect}, `Session`). */
import type { BytesLike } from '../bytes.js';
import type { RelayConnectionOptions } from '../transport/connection-types.js';
import type { PeerAwayEvent, PeerBackEvent, PeerLeftEvent } from '../transport/connection-types.js';
import type { MessageTransport } from '../transport/message-link.js';
import type { WasmSource } from './wasm-loader.js';
import type { ResolvedRuntime, Runtime } from './runtime.js';

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

/** The AES protocols of `Session.aes`. */
export type AesProtocol = 'maestro' | 'tinytable' | 'minimac' | 'coral' | 'tinyot';
/** The protocols of `Session.evaluate` (two computing parties). */
export type CircuitProtocol = 'tinytable' | 'minimac' | 'coral' | 'tinyot';
/** Coral's packing: 14 boolean lanes per element of GF(2^42) (the (14, 42)-RMFE of its Table 1). */
export type CoralPacking = 'rmfe-14-42';
/**
 * MiniMac's Reed-Solomon code over GF(2^8): (256, 120) with matrix encoding (default; 960
 * instances per codeword batch) or (255, 85) with FFT encoding (680 instances).
 */
export type MiniMacCode = 'rs256-120-matrix' | 'rs255-85-fft';
/** MAESTRO's S-box variants (MAESTRO Table 1). */
export type MaestroVariant = 'gf256-circuit' | 'gf16-circuit' | 'lut16' | 'lut256' | 'lut256-33';
/** Encrypt (default) or decrypt the blocks (MAESTRO only). */
export type AesDirection = 'encrypt' | 'decrypt';
/** TinyTable's AES paths: the boolean circuit, or 256-entry S-box tables. */
export type TinyTablePath = 'circuit' | 'sbox-tables';
/** Security levels (default `malicious` for MAESTRO, `semi-honest` for TinyTable); both protocols run both. */
export type SecurityLevel = 'semi-honest' | 'malicious';

/**
 * Where TinyTable's preprocessing comes from:
 * - `'ot'` (default): parties 0 and 1 make it between themselves over oblivious transfer (the
 *   paper's Fig. 8 from TinyOT-style authenticated bits and AND triples). Nobody but the two
 *   parties is trusted, and the session has exactly **two** members. Circuit path only.
 * - `'dealer'`: a **trusted dealer** in slot 2 deals it — a weaker trust model: the dealer knows
 *   every mask, so privacy holds only if it is honest and colludes with neither party. The session
 *   has three members; the dealer calls the same method with the same options and no inputs.
 */
export type TinyTablePreprocessing = 'ot' | 'dealer';

/** The parts of `Session.aes`'s options that every protocol shares. */
export interface AesRoleOptions {
  /** This party's XOR share of the key (hex or bytes); required exactly for the key holders. */
  key?: BytesLike;
  /** The plaintext, `16 · blocks` bytes (hex or bytes); required exactly for the plaintext owner. */
  plaintext?: BytesLike;
  /** Number of 16-byte blocks (default 1). */
  blocks?: number;
  /**
   * The parties that each input a key share (MAESTRO default `[0, 1]`, TinyTable default `[0]`);
   * the key is the XOR of the shares.
   */
  keyHolders?: readonly number[];
  /** The party that inputs the plaintext (MAESTRO default `2`, TinyTable default `1`). */
  plaintextOwner?: number;
  /** The parties that learn the ciphertext (default all computing parties). */
  reveal?: readonly number[];
  /** Aborting it cancels the job and closes the session. */
  signal?: AbortSignal;
}

/** MAESTRO's options of `Session.aes` (three parties, honest majority). */
export interface MaestroAesOptions extends AesRoleOptions {
  /** The protocol: `maestro` (default). */
  protocol?: 'maestro';
  /** The S-box variant (default `lut16`). */
  variant?: MaestroVariant;
  /** Encrypt (default) or decrypt. */
  direction?: AesDirection;
  /** The security level (default `malicious`). */
  security?: SecurityLevel;
  /** AES key size in bits: 128 (default), 192 or 256. */
  keyBits?: 128 | 192 | 256;
  path?: never;
  macBits?: never;
  preprocessing?: never;
  code?: never;
}

/** TinyTable's preprocessing and the paths it supports. */
export type TinyTablePreprocessingOptions =
  | {
      /** Preprocessing over OT between the two parties (default; a two-member session). */
      preprocessing?: 'ot';
      /**
       * The S-box path (default `circuit`; on `sbox-tables` the tables, built by the two parties
       * with the paper's §4 construction, cost about six times the circuit's preprocessing per
       * block, for an online phase of 12 rounds instead of the circuit's 60 AND layers — 22 with
       * `keyHolders: [0, 1]`, whose key schedule runs on 40 more tables per block; both security
       * levels then run the authenticated online phase).
       */
      path?: TinyTablePath;
    }
  | {
      /** A trusted dealer in slot 2 (weaker trust model; a three-member session). */
      preprocessing: 'dealer';
      /**
       * The S-box path (default `circuit`; `sbox-tables` with `keyHolders: [0, 1]` runs the
       * dealer's authenticated tables and online phase at either security level).
       */
      path?: TinyTablePath;
    };

/** TinyTable's security level and, with malicious security, its MAC width. */
export type TinyTableSecurityOptions =
  | {
      /** Semi-honest (default). */
      security?: 'semi-honest';
      macBits?: never;
    }
  | {
      /** Every opened table entry is MAC-checked before any output is revealed. */
      security: 'malicious';
      /** MAC width in bits, 64 (default) or 32 (circuit path). */
      macBits?: 64 | 32;
    };

/**
 * Whether a TinyTable, MiniMac or Coral job consumes material prepared ahead of time with
 * `Session.prepare`: absent (default) — yes if a preparation of this job's kind (protocol and its
 * options, circuit, roles, outputs) still covers the job, else the job makes its own; `true` — it
 * must, else the job rejects with a `ConfigError` on `usePrepared` saying what was prepared,
 * before anything is sent; `false` — never. Every member must decide alike (their plans are
 * agreed on).
 */
export interface PreparedUseOption {
  usePrepared?: boolean;
}

/**
 * TinyTable's options of `Session.aes` (two computing parties). The circuit path runs every key
 * size in both directions (the AES circuit of the key size and direction); the S-box-table path
 * AES-128 in both directions (decryption on inverse S-box tables; other key sizes are a
 * `NotAvailableError` naming `keyBits`).
 */
export type TinyTableAesOptions = AesRoleOptions & PreparedUseOption & {
  /** The protocol. */
  protocol: 'tinytable';
  variant?: never;
  /** Encrypt (default) or decrypt (either path). */
  direction?: AesDirection;
  /** AES key size in bits: 128 (default), 192 or 256 (the circuit path). */
  keyBits?: 128 | 192 | 256;
  code?: never;
} & TinyTablePreprocessingOptions &
  TinyTableSecurityOptions;

/**
 * MiniMac's options (two computing parties, malicious with abort, outputs to both or one). Its
 * material is made by the two parties over OT (`preprocessing: 'ot'`, the default; a session of
 * two: nobody else is trusted; a whole batch of the code's width — 960 or 680 instances — is made
 * per job, so it pays off for large batches), or by a **trusted dealer** in slot 2 (`'dealer'`, a
 * session of three, a weaker trust model: the dealer knows the MAC key and every triple, so it
 * must be honest and collude with neither party; it calls the same method with the same options
 * and no inputs).
 */
export type MiniMacPreprocessingOptions = {
  /** The two parties over OT (default), or a trusted dealer in slot 2. */
  preprocessing?: TinyTablePreprocessing;
  /** The code (default `rs256-120-matrix`). */
  code?: MiniMacCode;
  /** MiniMac runs malicious with abort only. */
  security?: 'malicious';
  macBits?: never;
};

/**
 * MiniMac's options of `Session.aes` (every key size, both directions: the AES circuit of the key size
 * and direction; ciphertext to both parties or one).
 */
export type MiniMacAesOptions = AesRoleOptions &
  PreparedUseOption &
  MiniMacPreprocessingOptions & {
    /** The protocol. */
    protocol: 'minimac';
    variant?: never;
    path?: never;
    /** Encrypt (default) or decrypt. */
    direction?: AesDirection;
    /** AES key size in bits: 128 (default), 192 or 256. */
    keyBits?: 128 | 192 | 256;
    /** Who learns the ciphertext: both parties (default) or one; checked before it is revealed. */
    reveal?: readonly [0, 1] | readonly [0] | readonly [1];
  };

/**
 * Options of `Session.aes`. Every party must pass the same protocol, variant, roles, `blocks` and
 * `keyBits`.
 *
 * - `protocol: 'maestro'` (default): three parties, honest majority. `variant` picks the S-box
 *   (default `lut16`) and `security` the adversary (default `malicious`: every multiplication is
 *   verified and every opening hash-compared before the output is revealed, so a deviating party
 *   makes the others reject with a `ProtocolAbortError` and learn nothing; `semi-honest` is
 *   faster and trusts every party to follow the protocol).
 *   Every variant runs at both levels (malicious `lut256` verifies its one-hot preprocessing,
 *   8 checked triples per S-box, and keeps the semi-honest online cost). `direction: 'decrypt'` decrypts (the
 *   `plaintext` option then carries the ciphertext).
 * - `protocol: 'tinytable'`: two computing parties (slots 0 and 1); the circuit path runs
 *   `keyBits` 128, 192 or 256 in both directions, `sbox-tables` AES-128 in both directions. `preprocessing`
 *   (see {@link TinyTablePreprocessing}): `'ot'` (default) — the two parties alone, in a session
 *   of two, nobody else trusted; or `'dealer'` — a trusted dealer in slot 2 (a weaker trust
 *   model; see the README's security model), which calls `aes` with the same options and no
 *   inputs. `path` picks the S-box evaluation (default `circuit`; on `sbox-tables` one key
 *   holder expands the key itself and the other party owns the plaintext, or both hold key
 *   shares and the key schedule runs on 40 more tables per block (10 more rounds); over OT its
 *   tables come from the paper's §4 construction, always authenticated, so both levels run the
 *   malicious online phase).
 *   Role defaults: `keyHolders: [0]`, `plaintextOwner: 1`, `reveal: [0, 1]`.
 *   `security: 'malicious'` authenticates every opened table entry (MAC width `macBits`, 64 or
 *   32 on the circuit path, 64 on `sbox-tables`): a party that deviates makes the honest party's
 *   job reject with `ProtocolAbortError` (its `check` names the MAC check) before any output is
 *   revealed. With OT preprocessing, a party that deviates in the preprocessing makes the
 *   honest party reject with `ProtocolAbortError` naming the OT check at either security level.
 *
 * Combinations not implemented (AES-192/256 on TinyTable's S-box path, `macBits: 32` there) reject with `NotAvailableError` (a `ConfigError`); the option types
 * rule most of them out already.
 */
/**
 * Coral's options (malicious with abort, RMFE-packed, outputs to every party or to one). Its
 * material is made by the parties over OT (`preprocessing: 'ot'`, the default; nobody else is
 * trusted, and security holds against all parties but one colluding): `Session.aes` in a session
 * of two; `Session.evaluate` among every member of a session of two to eight, each computing. Or
 * by a **trusted dealer** in slot 2 (`'dealer'`, parties 0 and 1 compute in a session of three, a
 * weaker trust model: the dealer knows the MAC key and all material, so it must be honest and
 * collude with neither party; it calls the same method with the same options and no inputs).
 */
export type CoralPreprocessingOptions = {
  /** The parties over OT (default), or a trusted dealer in slot 2. */
  preprocessing?: TinyTablePreprocessing;
  /** Coral runs malicious with abort only. */
  security?: 'malicious';
  macBits?: never;
  code?: never;
};

/**
 * Coral's options of `Session.aes` (every key size, both directions: the AES circuit of the key size
 * and direction; ciphertext to both parties or one).
 */
export type CoralAesOptions = AesRoleOptions &
  PreparedUseOption &
  CoralPreprocessingOptions & {
    /** The protocol. */
    protocol: 'coral';
    variant?: never;
    path?: never;
    /** Encrypt (default) or decrypt. */
    direction?: AesDirection;
    /** AES key size in bits: 128 (default), 192 or 256. */
    keyBits?: 128 | 192 | 256;
    /** Who learns the ciphertext: both parties (default) or one; checked before it is revealed. */
    reveal?: readonly [0, 1] | readonly [0] | readonly [1];
  };

/**
 * Multi-party TinyOT's options (malicious with abort against all members but one colluding,
 * outputs to every member or to one): every member of a session of two to eight computes, on
 * material the members make among themselves over OT (n-party TinyOT triples, nobody else
 * trusted). One instance costs one AND triple per AND gate, so it is the protocol for one or a few
 * instances among three or more members, where MiniMac and Coral pay for a whole batch or pack.
 * Its material is made inside each job: it takes no prepared material.
 */
export type TinyOtOptions = {
  /** Over OT among the members (the only choice). */
  preprocessing?: 'ot';
  /** TinyOT runs malicious with abort only. */
  security?: 'malicious';
  macBits?: never;
  code?: never;
  usePrepared?: never;
};

/**
 * TinyOT's options of `Session.aes` (every key size, both directions: the AES circuit of the key
 * size and direction). Among three or more members the roles default to MAESTRO's layout (key
 * shares from parties 0 and 1, the plaintext from the last member, the ciphertext to everyone).
 */
export type TinyOtAesOptions = AesRoleOptions &
  TinyOtOptions & {
    /** The protocol. */
    protocol: 'tinyot';
    variant?: never;
    path?: never;
    /** Encrypt (default) or decrypt. */
    direction?: AesDirection;
    /** AES key size in bits: 128 (default), 192 or 256. */
    keyBits?: 128 | 192 | 256;
    /** Who learns the ciphertext: every member (default) or one. */
    reveal?: readonly number[];
  };

export type AesOptions =
  | MaestroAesOptions
  | TinyTableAesOptions
  | MiniMacAesOptions
  | CoralAesOptions
  | TinyOtAesOptions;

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
  /** The protocol that ran. */
  protocol: AesProtocol;
  /** The core it ran on: the native Node addon or the WASM module. */
  runtime: ResolvedRuntime;
  /** The MAESTRO variant, TinyTable path, MiniMac code or Coral packing that ran. */
  variant: MaestroVariant | TinyTablePath | MiniMacCode | CoralPacking;
  /** The security level the job ran at. */
  security: SecurityLevel;
  /** The ciphertext, if this party is in `reveal`. */
  ciphertext?: Uint8Array;
  /** The ciphertext as lower-case hex, if this party is in `reveal`. */
  ciphertextHex?: string;
  /** Two-party protocols: where the preprocessing came from. */
  preprocessing?: TinyTablePreprocessing;
  /** Whether the job consumed material prepared ahead with `Session.prepare`. */
  prepared: boolean;
  /** The whole job: spec agreement, setup or preprocessing, inputs, key schedule, rounds, reveal. */
  stats: ProtocolStats & { timeMs: number };
  /**
   * The online phase as the protocol's paper counts it — MAESTRO: the AES rounds alone (its
   * Table 1); TinyTable and MiniMac: inputs, AND layers and output opening (zero at the dealer).
   * The same as `onlineStats` (this name is kept for existing callers).
   */
  roundsStats: ProtocolStats;
  /** The online phase (see `roundsStats`), under the name every job result uses. */
  onlineStats: ProtocolStats;
  /**
   * The making of input-independent material — MAESTRO: the S-box preprocessing; TinyTable and
   * MiniMac: spec agreement with OT and Fig. 8, or the dealing.
   */
  preprocessingStats: ProtocolStats;
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

/**
 * A `progress` event: the running job's counters after a received protocol message (and, for a job
 * that counts instances, once more when it ends, with every instance done).
 */
export interface ProgressEvent {
  round: number;
  bytesSent: number;
  bytesReceived: number;
  /**
   * `'preprocessing'` or `'online'` when the job says (circuit jobs that stream their instances:
   * after the first chunk's material is made the job alternates; this is the phase of the chunk
   * in progress).
   */
  phase?: 'preprocessing' | 'online';
  /**
   * A job that streams instances (batched circuit jobs, MiniMac and Coral preparations): instances
   * evaluated (or prepared) so far and in all.
   */
  instances?: { done: number; total: number };
}

/**
 * A `reconnecting` or `reconnected` event: this party's own relay connection dropped and is being
 * resumed (relay protocol 2), or was resumed. Jobs keep running meanwhile; nothing is lost.
 */
export interface ReconnectEvent {
  /** The connected slots as last known (this party's own slot is missing while reconnecting). */
  roster: number[];
}

/** Events of a `Session`. */
export type SessionEvents = {
  progress: ProgressEvent;
  /** Another party left: with `sessionBroken`, running and later jobs fail with `PeerLeftError`. */
  'peer-left': PeerLeftEvent;
  /** Another party's connection dropped; the relay keeps its slot while it resumes. */
  'peer-away': PeerAwayEvent;
  /** That party resumed its slot. */
  'peer-back': PeerBackEvent;
  /** This party's connection dropped; the session resumes it by itself. */
  reconnecting: ReconnectEvent;
  /** This party's connection was resumed. */
  reconnected: ReconnectEvent;
};

/**
 * One input value of a circuit, in any of three shapes:
 * - `boolean[]`: the value's bits in wire order (bit `i` on the value's `i`-th wire);
 * - `bigint`: an integer whose bit `i` (least significant first) goes on wire `i`, below 2^width;
 * - `Uint8Array` or hex string: bytes read as a big-endian integer, the convention of the
 *   published Bristol AES circuits (so a 16-byte AES key is passed as is); exactly width/8 bytes.
 */
export type CircuitValueInput = boolean[] | bigint | BytesLike;

/** One output value of a circuit, revealed to this party. */
export interface CircuitValue {
  /** The bits in wire order. */
  bits: boolean[];
  /** The value as an integer (wire `i` is bit `i`). */
  value: bigint;
  /** Big-endian bytes (the Bristol AES convention), when the width is a multiple of 8. */
  bytes?: Uint8Array;
  /** `bytes` as lower-case hex, when the width is a multiple of 8. */
  hex?: string;
}

/** A parsed Bristol Fashion circuit (`parseCircuit`); `Session.evaluate` takes it or the text. */
export interface ParsedCircuit {
  /** The Bristol Fashion text. */
  text: string;
  /** Width in bits of each input value. */
  inputWidths: number[];
  /** Width in bits of each output value. */
  outputWidths: number[];
  andGates: number;
  xorGates: number;
  invGates: number;
  andDepth: number;
  wires: number;
}

/**
 * Options of `Session.evaluate` (parties 0 and 1 compute, or — Coral over OT — every member).
 * Every member passes the same circuit,
 * `protocol`, `inputOwners`, `reveal`, `preprocessing` and `security`.
 *
 * - `protocol: 'tinytable'` (default): `preprocessing` `'ot'` (default; a two-member session,
 *   nobody else trusted) or `'dealer'` (a trusted dealer in slot 2, a weaker trust model; a
 *   three-member session; see {@link TinyTablePreprocessing}); semi-honest by default.
 * - `protocol: 'minimac'`: malicious with abort, each output to both parties or one, preprocessing
 *   over OT in a session of two or from a trusted dealer in slot 2 (see
 *   {@link MiniMacPreprocessingOptions}).
 * - `protocol: 'coral'`: malicious with abort, each output to every party or one, preprocessing over
 *   OT among every member of a session of two to eight (no dealer: n-party TinyOT and COPE between
 *   every pair) or from a trusted dealer in slot 2 (see {@link CoralPreprocessingOptions}).
 * - `protocol: 'tinyot'`: malicious with abort, each output to every party or one, among every
 *   member of a session of two to eight over OT, one AND triple per gate and instance (see
 *   {@link TinyOtOptions}).
 */
export type EvaluateOptions =
  | TinyTableEvaluateOptions
  | MiniMacEvaluateOptions
  | CoralEvaluateOptions
  | TinyOtEvaluateOptions;

/** TinyOT's options of `Session.evaluate` (see {@link TinyOtOptions}). */
export type TinyOtEvaluateOptions = EvaluateIoOptions &
  TinyOtOptions & {
    /** The protocol. */
    protocol: 'tinyot';
  };

/** TinyTable's options of `Session.evaluate`. */
export type TinyTableEvaluateOptions = EvaluateIoOptions &
  PreparedUseOption &
  TinyTableSecurityOptions & {
    /** The protocol (default). */
    protocol?: 'tinytable';
    /** Where the preprocessing comes from (default `'ot'`). */
    preprocessing?: TinyTablePreprocessing;
    code?: never;
  };

/** Coral's options of `Session.evaluate`. */
export type CoralEvaluateOptions = EvaluateIoOptions &
  PreparedUseOption &
  CoralPreprocessingOptions & {
    /** The protocol (the default for a {@link MixedCircuit}). */
    protocol: 'coral';
    /**
     * A {@link MixedCircuit}'s ring: its values are integers of 32 (default) or 64 bits, arithmetic
     * modulo 2^k. Not for Bristol circuits.
     */
    ring?: 32 | 64;
  };

/**
 * A mixed circuit: Summon's compiler output without boolify (`summon.compile(...)` with no
 * `boolifyWidth`), as `{ bristol, info }` — arithmetic gates (`AAdd`, `AMul`, `AGt`, `AXor`, …) on
 * k-bit integers, its constants and output wires listed in `info`. `Session.evaluate` runs it on
 * Coral's Spdz2k shares (malicious with abort, material over OT among the parties: two, or up to
 * eight in a larger session, every member computing): each input value is one k-bit integer
 * (`ring`), each output goes to every party or to one (`reveal`). Additions are free, a
 * multiplication costs one triple, comparisons and shifts by constants a few dozen; gates that
 * need every bit of a shared value (bitwise operations of full values, shifts by a shared amount,
 * powers) a few hundred, division by a shared or non-power-of-two divisor a few thousand.
 */
export interface MixedCircuit {
  /** Bristol Fashion text with Summon's arithmetic gates; every value is one wire. */
  bristol: string;
  /**
   * Summon's circuit info: the constants, the outputs' wires, and the inputs' types — a `bool`
   * input holds 0 or 1 (its owner gives `0n` or `1n`; the protocol checks it), so it may be a
   * condition (other fields are ignored).
   */
  info: {
    constants?: ReadonlyArray<{ address: number; value: number | bigint }>;
    outputs: ReadonlyArray<{ address: number }>;
    inputs?: ReadonlyArray<{ address: number; type?: unknown }>;
  };
}

/** MiniMac's options of `Session.evaluate`. */
export type MiniMacEvaluateOptions = EvaluateIoOptions &
  PreparedUseOption &
  MiniMacPreprocessingOptions & {
    /** The protocol. */
    protocol: 'minimac';
  };

/** The inputs and outputs of `Session.evaluate`. */
export interface EvaluateIoOptions {
  /**
   * Owner of each input value: 0 or 1, or any member where every member computes (Coral over OT);
   * default `[0, 1]` for a circuit with two input values.
   */
  inputOwners?: readonly number[];
  /**
   * This party's input values, by input index (an array with holes or an object `{ 1: 5n }`): exactly
   * the values it owns. The dealer passes none.
   */
  inputs?: Array<CircuitValueInput | undefined> | Record<number, CircuitValueInput>;
  /**
   * Many evaluations of the circuit in one job, each with its own inputs (this party's, as
   * `inputs` takes them): `result.instances[i]` is instance `i`'s outputs. Every member passes the
   * same number of instances; a member without inputs (the dealer, or a party that owns none) may
   * pass the count instead. At most {@link MAX_INSTANCES}. Large batches stream through
   * protocol-sized chunks, so memory stays bounded; `progress` events then carry the instances
   * done. Give either `inputs` (one evaluation) or `instances`.
   */
  instances?: ReadonlyArray<{ inputs?: EvaluateIoOptions['inputs'] }> | number;
  /**
   * Who learns each output value: `'both'` (default: every party) or one party's index — `0` or
   * `1` for a boolean circuit with two computing parties, any member of the session where every
   * member computes (Coral over OT, mixed circuits).
   */
  reveal?: ReadonlyArray<'both' | number>;
  /** Aborting it cancels the job and closes the session. */
  signal?: AbortSignal;
}

/** Most instances one `Session.evaluate` job takes. */
export const MAX_INSTANCES = 100_000;

/** One instance's outputs in a batched `Session.evaluate`. */
export interface InstanceOutputs {
  /** Per output value: the value if revealed to this party, else `undefined`. */
  outputs: Array<CircuitValue | undefined>;
}

/** The result of `Session.evaluate`. */
export interface EvaluateResult {
  /**
   * Per output value: the value if revealed to this party, else `undefined` (all at the dealer).
   * For a batched job (`instances`), the first instance's.
   */
  outputs: Array<CircuitValue | undefined>;
  /** A batched job's outputs, one entry per instance (absent without `instances`). */
  instances?: InstanceOutputs[];
  /** The protocol that ran. */
  protocol: CircuitProtocol;
  /** The core it ran on: the native Node addon or the WASM module. */
  runtime: ResolvedRuntime;
  /** Where the preprocessing came from. */
  preprocessing: TinyTablePreprocessing;
  /** Whether the job consumed material prepared ahead with `Session.prepare`. */
  prepared: boolean;
  /** The whole job: agreement, preprocessing (OT and Fig. 8, or the dealing), online phase. */
  stats: ProtocolStats & { timeMs: number };
  /** The online phase alone (zero at the dealer). */
  onlineStats: ProtocolStats;
  /** Agreement and preprocessing (OT and Fig. 8, or the dealing). */
  preprocessingStats: ProtocolStats;
  /** Encrypted frames and handshakes. */
  transportStats: ProtocolStats;
}

/** `Omit` applied to each member of a union. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Options of `Session.prepare`: the options of the job to prepare for, without inputs, and `job`.
 * Every member passes the same options (TinyTable: the two parties of a session of two, over OT —
 * its dealer deals per job; MiniMac and Coral: over OT among every member of a session of two to
 * eight, or with the trusted dealer in slot 2, which calls `prepare` with the same options).
 * - `job: 'aes'`: material for `blocks` future blocks of `aes` jobs with these options (protocol,
 *   `path`, roles, `reveal`, `security`, `macBits`, `code`, `preprocessing`);
 * - `job: 'evaluate'`: material for `evaluations` (default 1) future evaluations of `circuit` with
 *   these options (`inputOwners`, `reveal`, protocol options).
 *
 * TinyTable's material is per instance: a job takes any number of the prepared instances. MiniMac
 * and Coral are SIMD protocols: their material comes in units (a codeword batch of up to 960 or
 * 680 instances, a chunk of 14-instance packs) that are opened once, so a unit a job fills only
 * in part is spent with it. `perJob` says how many instances each job to come will run (default:
 * all the prepared ones in one job); the material is made in units that fit jobs of that size, so
 * `prepare({ job: 'aes', protocol: 'minimac', blocks: 10, perJob: 1 })` serves ten one-block jobs
 * with nothing wasted. A session keeps at most 1 GiB of prepared material (a MiniMac AES batch is
 * tens of MB per party); a preparation past it rejects with a `ConfigError` before anything is
 * sent.
 */
export type PrepareOptions =
  | (OmitEach<TinyTableAesOptions, 'key' | 'plaintext' | 'usePrepared'> & { job: 'aes'; perJob?: never })
  | (OmitEach<MiniMacAesOptions | CoralAesOptions, 'key' | 'plaintext' | 'usePrepared'> & {
      job: 'aes';
      /** Blocks each future job runs (default `blocks`). */
      perJob?: number;
    })
  | (OmitEach<TinyTableEvaluateOptions, 'inputs' | 'instances' | 'usePrepared'> & {
      job: 'evaluate';
      /** The circuit, as `Session.evaluate` takes it. */
      circuit: string | ParsedCircuit;
      /** Future evaluations to prepare for (default 1). */
      evaluations?: number;
      perJob?: never;
    })
  | (OmitEach<MiniMacEvaluateOptions | CoralEvaluateOptions, 'inputs' | 'instances' | 'usePrepared'> & {
      job: 'evaluate';
      /** The circuit, as `Session.evaluate` takes it. */
      circuit: string | ParsedCircuit;
      /** Future evaluations to prepare for (default 1). */
      evaluations?: number;
      /** Evaluations each future job runs (default `evaluations`). */
      perJob?: number;
    });

/**
 * Options of `Session.warmUp` (and of `connect`'s `warmUp`): the job to come, as `job` and its
 * options without inputs — `job: 'aes'` with `Session.aes`'s options, `job: 'evaluate'` with the
 * `circuit` and `Session.evaluate`'s options (`instances` as a count, if any).
 */
export type WarmUpOptions =
  | (OmitEach<AesOptions, 'key' | 'plaintext' | 'usePrepared' | 'signal'> & { job: 'aes' })
  | (OmitEach<EvaluateOptions, 'inputs' | 'instances' | 'usePrepared' | 'signal'> & {
      job: 'evaluate';
      /** The circuit, as `Session.evaluate` takes it. */
      circuit: string | ParsedCircuit | MixedCircuit;
      /** The instances the jobs to come evaluate (a count). */
      instances?: number;
    });

/** The result of `Session.warmUp`. */
export interface WarmUpResult {
  /** The core of the session. */
  runtime: ResolvedRuntime;
  /** Whether a warm-up ran: WASM only (the native addon's code is compiled ahead of time). */
  warmed: boolean;
  /** How many times the small job ran: until a run was no longer clearly faster than the fastest before. */
  runs: number;
  /** How long it took, ms. */
  timeMs: number;
}

/** The result of `Session.prepare`. */
export interface PrepareResult {
  /** The job prepared for. */
  job: 'aes' | 'evaluate';
  /** The protocol. */
  protocol: 'tinytable' | 'minimac' | 'coral';
  /** The core it ran on. */
  runtime: ResolvedRuntime;
  /** The security level of the prepared material. */
  security: SecurityLevel;
  /** Instances (AES blocks or evaluations) this call prepared. */
  instances: number;
  /** Instances of this kind now prepared and not yet consumed. */
  available: number;
  /** The preparation's communication (all of it preprocessing: spec agreement, OT, Fig. 8). */
  stats: ProtocolStats & { timeMs: number };
  /** Encrypted frames and handshakes. */
  transportStats: ProtocolStats;
}

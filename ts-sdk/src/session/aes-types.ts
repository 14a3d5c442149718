/** Types of `Session.aes`: the protocols' options, the result and the protocol statistics. */
import type { BytesLike } from '../bytes.js';
import type { ResolvedRuntime } from './runtime.js';

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
 * The fields of `Session.aes` for the protocols that run the AES circuit (MiniMac, Coral, TinyOT):
 * no MAESTRO variant or TinyTable path; every key size in both directions.
 */
type CircuitAesFields = {
  variant?: never;
  path?: never;
  /** Encrypt (default) or decrypt. */
  direction?: AesDirection;
  /** AES key size in bits: 128 (default), 192 or 256. */
  keyBits?: 128 | 192 | 256;
};

/**
 * MiniMac's options of `Session.aes` (every key size, both directions: the AES circuit of the key size
 * and direction; ciphertext to both parties or one).
 */
export type MiniMacAesOptions = AesRoleOptions &
  PreparedUseOption &
  MiniMacPreprocessingOptions &
  CircuitAesFields & {
    /** The protocol. */
    protocol: 'minimac';
    /** Who learns the ciphertext: both parties (default) or one; checked before it is revealed. */
    reveal?: readonly [0, 1] | readonly [0] | readonly [1];
  };

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
  CoralPreprocessingOptions &
  CircuitAesFields & {
    /** The protocol. */
    protocol: 'coral';
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
  TinyOtOptions &
  CircuitAesFields & {
    /** The protocol. */
    protocol: 'tinyot';
    /** Who learns the ciphertext: every member (default) or one. */
    reveal?: readonly number[];
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
 * - `protocol: 'minimac' | 'coral' | 'tinyot'`: the AES circuit of the key size and direction on
 *   those protocols ({@link MiniMacAesOptions}, {@link CoralAesOptions}, {@link TinyOtAesOptions}).
 *
 * Combinations not implemented (AES-192/256 on TinyTable's S-box path, `macBits: 32` there) reject with `NotAvailableError` (a `ConfigError`); the option types
 * rule most of them out already.
 */
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

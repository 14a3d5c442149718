/** Types of `Session.evaluate`: circuit values, parsed circuits, the protocols' options and the result. */
import type { BytesLike } from '../bytes.js';
import type { ResolvedRuntime } from './runtime.js';
import type {
  CircuitProtocol,
  CoralPreprocessingOptions,
  MiniMacPreprocessingOptions,
  PreparedUseOption,
  ProtocolStats,
  TinyOtOptions,
  TinyTablePreprocessing,
  TinyTableSecurityOptions,
} from './aes-types.js';

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

/** Types of `Session.prepare` and of warm-ups (`Session.warmUp`, `connect`'s `warmUp`). */
import type { ResolvedRuntime } from './runtime.js';
import type {
  AesOptions,
  CoralAesOptions,
  MiniMacAesOptions,
  ProtocolStats,
  SecurityLevel,
  TinyTableAesOptions,
} from './aes-types.js';
import type {
  CoralEvaluateOptions,
  EvaluateOptions,
  MiniMacEvaluateOptions,
  MixedCircuit,
  ParsedCircuit,
  TinyTableEvaluateOptions,
} from './evaluate-types.js';

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

/**
 * The job options of `Session.aes`, `Session.evaluate` and `Session.prepare`, turned into the spec
 * and input objects of the core's bridge. The options are checked once, in Rust: the spec is the
 * caller's options passed through (inputs and `signal` aside, `usePrepared` as the core's
 * `prepared`), and the bridge's `checkAes` / `checkCircuit` / `checkPrepare` validate it with this
 * party's inputs, the session size and the session's prepared material exactly as the job will,
 * fill in the defaults and say what runs. This module only converts JavaScript values the core
 * cannot read (hex keys and plaintexts, circuit values in their JS forms) and turns the core's
 * verdict into typed errors, so a bad option is a {@link ConfigError} naming it before any frame is
 * sent.
 */
import { toBytes } from '../bytes.js';
import { valueBits } from './circuits.js';
import { ChorusError, CircuitError, ConfigError, NotAvailableError } from '../errors.js';
import type { JobBridge } from './runtime.js';
import { MAX_INSTANCES } from './session-types.js';
import type {
  AesOptions,
  AesProtocol,
  CircuitProtocol,
  CircuitValueInput,
  EvaluateOptions,
  ParsedCircuit,
  PrepareOptions,
  SecurityLevel,
  TinyTablePreprocessing,
  WarmUpOptions,
} from './session-types.js';

/** What a checked job runs, with the core's defaults filled in. */
export interface JobLabels {
  protocol: string;
  /** AES only: MAESTRO's S-box variant, TinyTable's path, MiniMac's code or Coral's packing. */
  variant?: string;
  security: SecurityLevel;
  /** A two-party protocol's preprocessing. */
  preprocessing?: TinyTablePreprocessing;
  /** Whether the job consumes material prepared ahead of time. */
  prepared?: boolean;
}

/** Progress reports of a running job, as the core sends them. */
type OnProgress = Parameters<JobBridge['runAes']>[3];

/** One checked job: its spec and input, what it runs, and how to run it on a session's bridge. */
export interface BridgeJob {
  spec: object;
  input: object;
  labels: JobLabels;
  /** Runs the job on `bridge` (the session's channels are opened under `session` by its first job). */
  run(bridge: JobBridge, session: object, onProgress: OnProgress): Promise<unknown>;
}

/** A core failure as the bridge reports it. */
interface CoreError {
  kind?: string;
  message?: string;
  field?: string;
}

const NOT_AVAILABLE_PREFIX = 'not available yet: ';

/**
 * The typed error of a failed check: `config` → {@link ConfigError} (a {@link CircuitError} on
 * `circuit`), `not-available` → {@link NotAvailableError} naming the option to change.
 */
export function checkError(error: unknown, spec: Record<string, unknown>): ChorusError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as CoreError;
  const message = e.message ?? String(error);
  const field = e.field ?? 'options';
  if (e.kind === 'not-available') {
    const value = spec[field];
    const shown = JSON.stringify(value);
    // A circuit's text (or any long value) is named, not quoted.
    const feature = value === undefined ? `the default ${field}` : shown.length > 40 ? `this ${field}` : `${field} ${shown}`;
    const reason = message.startsWith(NOT_AVAILABLE_PREFIX) ? message.slice(NOT_AVAILABLE_PREFIX.length) : message;
    return new NotAvailableError(field, feature, reason);
  }
  if (field === 'circuit') {
    const line = /line (\d+)/.exec(message);
    return new CircuitError(message, line ? Number(line[1]) : undefined);
  }
  return new ConfigError(field, message);
}

/** Runs a bridge check; its failure becomes the typed error. */
function checked(check: () => unknown, spec: Record<string, unknown>): JobLabels {
  try {
    return check() as JobLabels;
  } catch (error) {
    throw checkError(error, spec);
  }
}

/** The options object without the fields that are not part of the spec. */
function specOf(options: unknown, omit: readonly string[]): Record<string, unknown> {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
  return Object.fromEntries(Object.entries(options).filter(([name, value]) => !omit.includes(name) && value !== undefined));
}

/** `usePrepared` as the core's `prepared` field: absent, `'require'` or `'never'`. */
function withPreparedUse(spec: Record<string, unknown>, usePrepared: unknown): Record<string, unknown> {
  if (usePrepared === undefined) return spec;
  if (typeof usePrepared !== 'boolean') throw new ConfigError('usePrepared', 'usePrepared must be true, false or absent');
  return { ...spec, prepared: usePrepared ? 'require' : 'never' };
}

/** The bridge job of `Session.aes`, checked for this party by `bridge`. */
export function aesJob(bridge: Pick<JobBridge, 'checkAes'>, options: AesOptions): BridgeJob & { labels: { protocol: AesProtocol } } {
  const spec = withPreparedUse(specOf(options, ['key', 'plaintext', 'signal', 'usePrepared']), (options as { usePrepared?: unknown }).usePrepared);
  const input: { keyShare?: Uint8Array; plaintext?: Uint8Array } = {};
  if (options.key !== undefined) input.keyShare = toBytes(options.key, 'key');
  if (options.plaintext !== undefined) input.plaintext = toBytes(options.plaintext, 'plaintext');
  const labels = checked(() => bridge.checkAes(spec, input), spec) as JobLabels & { protocol: AesProtocol };
  return { spec, input, labels, run: (b, session, onProgress) => b.runAes(session, spec, input, onProgress) };
}

/** This party's circuit input values by index, each as its bits (one byte, 0 or 1, per bit). */
function inputBits(circuit: ParsedCircuit, given: unknown): Array<Uint8Array | undefined> {
  if (given === undefined) return [];
  if (typeof given !== 'object' || given === null) throw new ConfigError('inputs', 'expected an array or object of input values by index');
  const values: Array<Uint8Array | undefined> = [];
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const index = Number(key);
    const width = circuit.inputWidths[index];
    if (!Number.isInteger(index) || width === undefined) {
      throw new ConfigError('inputs', `input index ${key} is not one of the circuit's ${circuit.inputWidths.length} input values`);
    }
    values[index] = valueBits(value as CircuitValueInput, width, index);
  }
  return values;
}

/**
 * The core's input and instance count of an evaluation: `{ values }` for one instance, or
 * `{ instances: [{ values }] }` with the count for a batch (`options.instances`).
 */
function evaluateInput(circuit: ParsedCircuit, options: EvaluateOptions): { input: object; instances?: number } {
  const { instances } = options;
  if (instances === undefined) return { input: { values: inputBits(circuit, options.inputs) } };
  if (options.inputs !== undefined) {
    throw new ConfigError('inputs', 'give one evaluation\'s inputs, or instances: [{ inputs }, ...], not both');
  }
  if (typeof instances === 'number') {
    if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES) {
      throw new ConfigError('instances', `expected an integer in 1..${MAX_INSTANCES} or an array of instances, got ${instances}`);
    }
    return { input: { instances: new Array(instances).fill(null) }, instances };
  }
  if (!Array.isArray(instances)) throw new ConfigError('instances', 'expected an array of { inputs } or a count');
  if (instances.length === 0) throw new ConfigError('instances', 'a batch needs at least one instance');
  if (instances.length > MAX_INSTANCES) {
    throw new ConfigError('instances', `${instances.length} instances exceed the limit of ${MAX_INSTANCES} per job`);
  }
  const batch = instances.map((entry: unknown, i) => {
    if (typeof entry !== 'object' || entry === null) throw new ConfigError(`instances[${i}]`, 'expected { inputs }');
    try {
      return inputBits(circuit, (entry as { inputs?: unknown }).inputs);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(`instances[${i}].${error.field}`, error.message.replace(/^invalid [^:]*: /, ''));
      throw error;
    }
  });
  return { input: { instances: batch }, instances: batch.length };
}

/**
 * A circuit job's spec: the caller's options `given` (inputs and the like left out) with the
 * circuit's text, a mixed circuit's fields and the instance count of a batch.
 */
function circuitSpec(given: Record<string, unknown>, circuit: ParsedCircuit, mixed: object | undefined, instances: number | undefined): Record<string, unknown> {
  if (mixed === undefined && 'ring' in given) {
    throw new ConfigError('ring', 'ring is the value width of a mixed circuit (Summon\'s { bristol, info }); a Bristol circuit has bit wires');
  }
  // A mixed circuit runs on Coral: the protocol defaults to it.
  const protocol = mixed !== undefined && given.protocol === undefined ? { protocol: 'coral' } : {};
  const count = instances === undefined ? {} : { instances };
  return { ...given, ...protocol, ...count, ...mixed, circuit: circuit.text };
}

/** The bridge job of `Session.evaluate`, checked for this party by `bridge`. */
export function evaluateJob(
  bridge: Pick<JobBridge, 'checkCircuit'>,
  circuit: ParsedCircuit,
  options: EvaluateOptions,
  mixed?: object,
): BridgeJob & { labels: { protocol: CircuitProtocol; preprocessing: TinyTablePreprocessing } } {
  const { input, instances } = evaluateInput(circuit, options);
  const given = specOf(options, ['inputs', 'instances', 'signal', 'usePrepared']);
  const spec = withPreparedUse(circuitSpec(given, circuit, mixed, instances), (options as { usePrepared?: unknown }).usePrepared);
  const labels = checked(() => bridge.checkCircuit(spec, input), spec) as JobLabels & {
    protocol: CircuitProtocol;
    preprocessing: TinyTablePreprocessing;
  };
  return { spec, input, labels, run: (b, session, onProgress) => b.runCircuit(session, spec, input, onProgress) };
}

/**
 * The bridge job of `Session.prepare`, checked for this party by `bridge`; `circuit` is the parsed
 * circuit of a `job: 'evaluate'` preparation.
 */
export function prepareJob(
  bridge: Pick<JobBridge, 'checkPrepare'>,
  options: PrepareOptions,
  circuit: ParsedCircuit | undefined,
): BridgeJob {
  const spec = specOf(options, ['signal', 'circuit']);
  if ('usePrepared' in spec) {
    throw new ConfigError('usePrepared', 'a preparation makes material; usePrepared is an option of the jobs that consume it');
  }
  if (circuit !== undefined) spec.circuit = circuit.text;
  const labels = checked(() => bridge.checkPrepare(spec), spec);
  return { spec, input: {}, labels, run: (b, session, onProgress) => b.prepare(session, spec, onProgress) };
}

/**
 * The core's warm-up of `Session.warmUp`: the job (`'aes'` or `'circuit'`) and its spec, as the
 * job of these options would have it; `circuit` is the parsed circuit of a `job: 'evaluate'`
 * warm-up (with a mixed circuit's fields).
 */
export function warmUpJob(options: WarmUpOptions, circuit?: { parsed: ParsedCircuit; mixed?: object }): { job: 'aes' | 'circuit'; spec: object } {
  const omit = ['job', 'circuit', 'key', 'plaintext', 'inputs', 'instances', 'signal', 'usePrepared'];
  const given = specOf(options, omit);
  if (options.job === 'aes') return { job: 'aes', spec: given };
  if (options.job !== 'evaluate' || circuit === undefined) throw new ConfigError('job', "job must be 'aes' or 'evaluate'");
  const { instances } = options;
  if (instances !== undefined && (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES)) {
    throw new ConfigError('instances', `expected an integer in 1..${MAX_INSTANCES}, got ${String(instances)}`);
  }
  return { job: 'circuit', spec: circuitSpec(given, circuit.parsed, circuit.mixed, instances) };
}

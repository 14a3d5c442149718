/**
 * The options of {@link ChorusEngine} and their defaults. Every party of a run must use the same
 * protocol, security level and credentials (the engine checks the first two with its hello).
 */
import { ConfigError, type BytesLike, type Runtime, type WasmSource } from '@chorus/sdk';

/** Options of `new ChorusEngine(...)`. */
export interface ChorusEngineOptions {
  /**
   * The protocol: `'tinytable'` (the default for boolified programs of two parties: the fastest
   * dealer-free one for two parties on circuits of this size), `'tinyot'`, `'minimac'` or
   * `'coral'`. All four make their preprocessing among the parties over OT; nobody else is
   * trusted. Boolified programs of three or more parties (up to eight) run on `'tinyot'` (their
   * default), `'coral'` or `'minimac'`; programs compiled without boolify (arithmetic gates) run
   * on `'coral'` only.
   */
  protocol?: 'tinytable' | 'tinyot' | 'minimac' | 'coral';
  /**
   * The value width of programs compiled without boolify: Summon's numbers are integers of 32
   * (default) or 64 bits, arithmetic modulo 2^k. Ignored for boolified programs (their widths
   * are in the circuit).
   */
  ring?: 32 | 64;
  /**
   * TinyTable's security level (default `'malicious'`, like emp-wasm-engine's authenticated
   * garbling: a deviating party makes the other's `output()` reject with `ProtocolAbortError`
   * before any output is revealed). MiniMac and Coral are always malicious with abort.
   */
  security?: 'semi-honest' | 'malicious';
  /**
   * A secret shared by the parties (at least 16 random bytes): the channels then authenticate
   * every party (Noise `NNpsk0`). Without one the channels are encrypted but unauthenticated
   * (Noise `NN`): an active attacker on the app's transport can sit between the parties and act
   * as the other party towards each — supply inputs of its choosing and learn what that party
   * would learn. emp-wasm-engine and mpz-ts trust the transport in the same way.
   */
  secret?: BytesLike;
  /** Which Chorus core runs the job (`'auto'`: the native addon in Node if it loads, else WASM). */
  runtime?: Runtime;
  /** Where to load the WASM module from (browsers: see the SDK's `initWasm`). */
  wasm?: WasmSource;
  /** A run that hears nothing from any peer this long fails (`timeout`). Default 120000 ms. */
  timeoutMs?: number;
}

/** Options with their defaults filled in. */
export interface ResolvedEngineOptions {
  /** `'auto'`: TinyTable for boolean circuits of two parties, TinyOT for more, Coral for mixed ones. */
  protocol: 'tinytable' | 'tinyot' | 'minimac' | 'coral' | 'auto';
  ring: 32 | 64;
  security: 'semi-honest' | 'malicious';
  secret: BytesLike | undefined;
  runtime: Runtime | undefined;
  wasm: WasmSource | undefined;
  timeoutMs: number;
}

/** Checks `options` and fills in the defaults; throws `ConfigError` naming the option. */
export function resolveEngineOptions(options: ChorusEngineOptions = {}): ResolvedEngineOptions {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
  const protocol = options.protocol ?? 'auto';
  if (!['tinytable', 'tinyot', 'minimac', 'coral', 'auto'].includes(protocol)) {
    throw new ConfigError('protocol', `expected 'tinytable', 'tinyot', 'minimac' or 'coral', got ${String(protocol)}`);
  }
  const ring = options.ring ?? 32;
  if (ring !== 32 && ring !== 64) throw new ConfigError('ring', `expected 32 or 64, got ${String(ring)}`);
  const security = options.security ?? 'malicious';
  if (security !== 'malicious' && security !== 'semi-honest') {
    throw new ConfigError('security', `expected 'malicious' or 'semi-honest', got ${String(security)}`);
  }
  if (protocol !== 'tinytable' && protocol !== 'auto' && security !== 'malicious') {
    throw new ConfigError('security', `${protocol} runs malicious with abort only`);
  }
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new ConfigError('timeoutMs', 'expected a positive integer');
  return { protocol, ring, security, secret: options.secret, runtime: options.runtime, wasm: options.wasm, timeoutMs };
}

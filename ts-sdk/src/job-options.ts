/**
 * Validation of the job options of `Session.aes` and `Session.evaluate`, turning them into the
 * spec and input objects the WASM bridge takes. Everything that can be checked locally is checked
 * here, so a bad option is a {@link ConfigError} naming it before any frame is sent.
 */
import { toBytes } from './bytes.js';
import { CircuitError, ConfigError, NotAvailableError } from './errors.js';
import { valueBits } from './circuits.js';
import type {
  AesOptions,
  AesProtocol,
  CircuitProtocol,
  CoralPacking,
  CircuitValueInput,
  EvaluateOptions,
  MaestroVariant,
  MiniMacCode,
  ParsedCircuit,
  SecurityLevel,
  TinyTablePath,
  TinyTablePreprocessing,
} from './session-types.js';

const MAESTRO_VARIANTS: readonly MaestroVariant[] = ['gf256-circuit', 'gf16-circuit', 'lut16', 'lut256', 'lut256-33'];
const TINYTABLE_PATHS: readonly TinyTablePath[] = ['circuit', 'sbox-tables'];
const MINIMAC_CODES: readonly MiniMacCode[] = ['rs256-120-matrix', 'rs255-85-fft'];
/** MiniMac's default code, (256, 120) over GF(2^8) with matrix encoding. */
export const DEFAULT_MINIMAC_CODE: MiniMacCode = 'rs256-120-matrix';
/** MAESTRO's default S-box: LUT-16 has the fewest online rounds of the variants with a malicious form. */
export const DEFAULT_MAESTRO_VARIANT: MaestroVariant = 'lut16';
/** The default security level: malicious for MAESTRO, MiniMac and Coral (their only level), semi-honest for TinyTable. */
export function defaultSecurity(protocol: AesProtocol): SecurityLevel {
  return protocol === 'tinytable' ? 'semi-honest' : 'malicious';
}
/** The TinyTable session member that deals the preprocessing with `preprocessing: 'dealer'`. */
export const DEALER_SLOT = 2;
/** TinyTable's default preprocessing: the two parties alone, over OT. */
export const DEFAULT_TINYTABLE_PREPROCESSING: TinyTablePreprocessing = 'ot';

/**
 * TinyTable's `preprocessing` option, checked against the session size: 2 members for `'ot'`, 3
 * (the dealer in slot 2) for `'dealer'`.
 */
function tinyTablePreprocessing(value: unknown, parties: number, what: string): TinyTablePreprocessing {
  const preprocessing = value ?? DEFAULT_TINYTABLE_PREPROCESSING;
  if (preprocessing !== 'ot' && preprocessing !== 'dealer') {
    throw new ConfigError('preprocessing', `unknown TinyTable preprocessing ${JSON.stringify(preprocessing)}: 'ot' or 'dealer'`);
  }
  const members = preprocessing === 'ot' ? 2 : 3;
  if (parties !== members) {
    const hint =
      preprocessing === 'ot'
        ? "parties 0 and 1, no dealer; for a trusted dealer in slot 2 pass preprocessing: 'dealer'"
        : 'parties 0, 1 and the trusted dealer in slot 2';
    throw new ConfigError('parties', `${what} with preprocessing '${preprocessing}' runs in a session of ${members} (${hint}), this one has ${parties}`);
  }
  return preprocessing;
}

/** A bridge call and its arguments for one job: the bridge has one method per job kind, and the protocol is a field of the spec. */
export interface BridgeJob {
  method: 'runAes' | 'runCircuit';
  spec: object;
  input: object;
}

/** Coral's only packing. */
export const CORAL_PACKING: CoralPacking = 'rmfe-14-42';

/**
 * Coral's options (`preprocessing`, `security`), checked against the session size: its material is
 * made over OT by the two parties, in a session of two.
 */
function coralOptions(loose: Partial<Record<string, unknown>>, parties: number, what: string): { preprocessing: 'ot' } {
  for (const foreign of ['path', 'variant', 'macBits', 'code'] as const) {
    if (loose[foreign] !== undefined) throw new ConfigError(foreign, `${foreign} is not an option of protocol 'coral'`);
  }
  if (loose.security !== undefined && loose.security !== 'malicious') {
    throw new ConfigError('security', "Coral is malicious with abort only: drop security or pass 'malicious'");
  }
  const preprocessing = loose.preprocessing ?? 'ot';
  if (preprocessing === 'dealer') {
    throw new NotAvailableError('preprocessing', "Coral with preprocessing: 'dealer'", "Coral jobs make their material over OT between the two parties; drop preprocessing (a session of two)");
  }
  if (preprocessing !== 'ot') throw new ConfigError('preprocessing', `unknown preprocessing ${JSON.stringify(preprocessing)}: 'ot'`);
  if (parties !== 2) throw new ConfigError('parties', `${what} runs in a session of 2 (parties 0 and 1, no dealer), this one has ${parties}`);
  return { preprocessing };
}

/**
 * MiniMac's options (`code`, `preprocessing`, `security`), checked against the session size: today
 * only the trusted dealer in slot 2 makes its material, so the session has three members.
 */
function miniMacOptions(loose: Partial<Record<string, unknown>>, parties: number, what: string): { code: MiniMacCode; preprocessing: 'dealer' } {
  for (const foreign of ['path', 'variant', 'macBits'] as const) {
    if (loose[foreign] !== undefined) throw new ConfigError(foreign, `${foreign} is not an option of protocol 'minimac'`);
  }
  const code = (loose.code ?? DEFAULT_MINIMAC_CODE) as MiniMacCode;
  if (!MINIMAC_CODES.includes(code)) {
    throw new ConfigError('code', `unknown MiniMac code ${JSON.stringify(code)}: ${MINIMAC_CODES.map((c) => `'${c}'`).join(' or ')}`);
  }
  if (loose.security !== undefined && loose.security !== 'malicious') {
    throw new ConfigError('security', "MiniMac is malicious with abort only: drop security or pass 'malicious'");
  }
  const preprocessing = loose.preprocessing ?? 'ot';
  if (preprocessing === 'ot') {
    throw new NotAvailableError('preprocessing', "MiniMac with preprocessing: 'ot'", "its OT-based preprocessing is not implemented yet; pass preprocessing: 'dealer' (a trusted dealer in slot 2 of a session of three)");
  }
  if (preprocessing !== 'dealer') {
    throw new ConfigError('preprocessing', `unknown preprocessing ${JSON.stringify(preprocessing)}: 'dealer' (or 'ot', not yet available for MiniMac)`);
  }
  if (parties !== 3) {
    throw new ConfigError('parties', `${what} with preprocessing 'dealer' runs in a session of 3 (parties 0, 1 and the trusted dealer in slot 2), this one has ${parties}`);
  }
  return { code, preprocessing };
}

function partyList(value: unknown, field: string, parties: number): number[] {
  if (!Array.isArray(value) || value.some((p) => !Number.isInteger(p) || p < 0 || p >= parties)) {
    throw new ConfigError(field, `expected an array of party indices in 0..${parties - 1}`);
  }
  return [...(value as number[])];
}

function ascending(list: number[], field: string, what: string): void {
  if (list.length === 0 || list.some((p, i) => i > 0 && p <= (list[i - 1] as number))) {
    throw new ConfigError(field, `expected ${what} in ascending order`);
  }
}

function checkSecurity(security: unknown): void {
  if (security === undefined || security === 'semi-honest' || security === 'malicious') return;
  throw new ConfigError('security', `unknown security level ${JSON.stringify(security)}: 'semi-honest' or 'malicious'`);
}

/** TinyTable's `macBits` (64 default, or 32): only meaningful, and only accepted, with malicious security. */
function checkMacBits(macBits: unknown, security: unknown): 64 | 32 {
  if (macBits === undefined) return 64;
  if (macBits !== 64 && macBits !== 32) throw new ConfigError('macBits', `expected 64 or 32, got ${JSON.stringify(macBits)}`);
  if (security !== 'malicious') throw new ConfigError('macBits', "macBits sets the MAC width of security: 'malicious'");
  return macBits;
}

/** The bridge job of `Session.aes` for party `slot` of `parties`. */
export function aesJob(
  options: AesOptions,
  slot: number,
  parties: number,
): BridgeJob & {
  protocol: AesProtocol;
  variant: MaestroVariant | TinyTablePath | MiniMacCode | CoralPacking;
  security: SecurityLevel;
  preprocessing?: TinyTablePreprocessing;
} {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
  // Read through a loose view: the option types rule out most bad combinations, but JavaScript
  // callers (and casts) can still pass anything.
  const loose = options as Partial<Record<'path' | 'macBits' | 'preprocessing' | 'variant' | 'code' | 'security', unknown>>;
  const protocol = options.protocol ?? 'maestro';
  if (protocol !== 'maestro' && protocol !== 'tinytable' && protocol !== 'minimac' && protocol !== 'coral') {
    throw new ConfigError('protocol', `unknown protocol ${JSON.stringify(protocol)}: 'maestro', 'tinytable', 'minimac' or 'coral'`);
  }
  const tinytable = protocol === 'tinytable';
  const minimac = protocol === 'minimac';
  const coral = protocol === 'coral';
  const twoParty = tinytable || minimac || coral;
  const name = { maestro: 'MAESTRO', tinytable: 'TinyTable', minimac: 'MiniMac', coral: 'Coral' }[protocol];
  let preprocessing: TinyTablePreprocessing | undefined;
  let code: MiniMacCode | undefined;
  if (coral) {
    ({ preprocessing } = coralOptions(loose, parties, 'Coral AES'));
  } else if (minimac) {
    ({ code, preprocessing } = miniMacOptions(loose, parties, 'MiniMac AES'));
  } else if (tinytable) {
    if (loose.code !== undefined) throw new ConfigError('code', "code is MiniMac's option");
    preprocessing = tinyTablePreprocessing(loose.preprocessing, parties, 'TinyTable AES');
  } else {
    if (loose.code !== undefined) throw new ConfigError('code', "code is MiniMac's option");
    if (loose.preprocessing !== undefined) throw new ConfigError('preprocessing', "preprocessing is TinyTable's option");
    if (parties !== 3) throw new ConfigError('parties', `maestro AES runs in a session of 3 (three parties), this one has ${parties}`);
  }
  checkSecurity(options.security);
  const direction = options.direction ?? 'encrypt';
  if (direction !== 'encrypt' && direction !== 'decrypt') {
    throw new ConfigError('direction', `unknown direction ${JSON.stringify(direction)}: 'encrypt' or 'decrypt'`);
  }
  if (twoParty && direction === 'decrypt') {
    throw new NotAvailableError('direction', `${name} decryption`, `${name} runs AES encryption only; use protocol: 'maestro' to decrypt`);
  }
  let variant: MaestroVariant | TinyTablePath | MiniMacCode | CoralPacking;
  if (coral) {
    variant = CORAL_PACKING;
  } else if (minimac) {
    variant = code as MiniMacCode;
  } else if (tinytable) {
    if (loose.variant !== undefined) throw new ConfigError('variant', "variant is MAESTRO's option; TinyTable takes path");
    variant = (loose.path ?? 'circuit') as TinyTablePath;
    if (!TINYTABLE_PATHS.includes(variant)) {
      throw new ConfigError('path', `unknown TinyTable path ${JSON.stringify(variant)}: 'circuit' or 'sbox-tables'`);
    }
    if (variant === 'sbox-tables' && preprocessing === 'ot') {
      throw new NotAvailableError(
        'preprocessing',
        "the S-box-table path with preprocessing: 'ot'",
        "its two-party table construction is not wired up yet; use path: 'circuit' (OT preprocessing), or preprocessing: 'dealer' in a session of 3 for the S-box tables",
      );
    }
  } else {
    if (loose.path !== undefined) throw new ConfigError('path', "path is TinyTable's option; MAESTRO takes variant");
    if (loose.macBits !== undefined) throw new ConfigError('macBits', "macBits is TinyTable's option");
    variant = (loose.variant ?? DEFAULT_MAESTRO_VARIANT) as MaestroVariant;
    if (!MAESTRO_VARIANTS.includes(variant)) {
      throw new ConfigError('variant', `unknown MAESTRO variant ${JSON.stringify(variant)}: ${MAESTRO_VARIANTS.map((v) => `'${v}'`).join(', ')}`);
    }
    const security = options.security ?? defaultSecurity(protocol);
    if (security !== 'semi-honest' && security !== 'malicious') {
      throw new ConfigError('security', `unknown security level ${JSON.stringify(security)}: 'semi-honest' or 'malicious'`);
    }
    if (variant === 'lut256' && security === 'malicious') {
      throw new NotAvailableError('variant', 'malicious MAESTRO with the (2,3) LUT-256 S-box', "use 'lut256-33', 'lut16', 'gf16-circuit' or 'gf256-circuit' for malicious security");
    }
  }
  const computing = twoParty ? 2 : 3;
  const keyHolders = partyList(options.keyHolders ?? (twoParty ? [0] : [0, 1]), 'keyHolders', computing);
  ascending(keyHolders, 'keyHolders', `1 to ${computing} distinct parties`);
  const plaintextOwner = options.plaintextOwner ?? (twoParty ? 1 : 2);
  if (!Number.isInteger(plaintextOwner) || plaintextOwner < 0 || plaintextOwner >= computing) {
    throw new ConfigError('plaintextOwner', `expected a party index in 0..${computing - 1}`);
  }
  const revealTo = partyList(options.reveal ?? Array.from({ length: computing }, (_, i) => i), 'reveal', computing);
  if (twoParty) ascending(revealTo, 'reveal', 'party 0, party 1 or both');
  if ((minimac || coral) && revealTo.length !== 2) {
    throw new NotAvailableError('reveal', `${name} outputs for one party only`, `${name} opens every output to both parties; use reveal: [0, 1]`);
  }
  const blocks = options.blocks ?? 1;
  if (!Number.isInteger(blocks) || blocks < 1) throw new ConfigError('blocks', 'expected a positive integer');
  const keyBits = options.keyBits ?? 128;
  if (keyBits !== 128 && keyBits !== 192 && keyBits !== 256) throw new ConfigError('keyBits', 'expected 128, 192 or 256');
  if (twoParty && keyBits !== 128) throw new ConfigError('keyBits', `${name} AES is AES-128 only`);
  const macBits = tinytable ? checkMacBits(loose.macBits, options.security) : 64;
  if (variant === 'sbox-tables') {
    if (keyHolders.length !== 1) {
      throw new ConfigError('keyHolders', "the S-box-table path expands the whole key at one party: keyHolders must name exactly one party (use path: 'circuit' for an XOR-shared key)");
    }
    if (plaintextOwner === keyHolders[0]) {
      throw new ConfigError('plaintextOwner', 'the S-box-table path needs the plaintext owner to be the other party than the key holder');
    }
    if (macBits !== 64) {
      throw new NotAvailableError('macBits', 'macBits: 32 on the S-box-table path', 'its linear MACs use k = 64; use macBits: 64 or path: \'circuit\'');
    }
  }

  const input: { keyShare?: Uint8Array; plaintext?: Uint8Array } = {};
  const holdsKey = keyHolders.includes(slot);
  const role = twoParty && preprocessing === 'dealer' && slot === DEALER_SLOT ? 'the trusted dealer has no inputs' : undefined;
  if (holdsKey !== (options.key !== undefined)) {
    throw new ConfigError('key', holdsKey ? `party ${slot} is a key holder and must pass its key share` : role ?? `party ${slot} is not a key holder (keyHolders: ${keyHolders.join(', ')})`);
  }
  if (options.key !== undefined) {
    input.keyShare = toBytes(options.key, 'key');
    if (input.keyShare.length !== keyBits / 8) {
      throw new ConfigError('key', `expected ${keyBits / 8} bytes for AES-${keyBits}, got ${input.keyShare.length}`);
    }
  }
  const ownsPlaintext = plaintextOwner === slot;
  if (ownsPlaintext !== (options.plaintext !== undefined)) {
    throw new ConfigError('plaintext', ownsPlaintext ? `party ${slot} owns the plaintext and must pass it` : role ?? `party ${slot} is not the plaintext owner (party ${plaintextOwner})`);
  }
  if (options.plaintext !== undefined) {
    input.plaintext = toBytes(options.plaintext, 'plaintext');
    if (input.plaintext.length !== 16 * blocks) {
      throw new ConfigError('plaintext', `expected ${16 * blocks} bytes (${blocks} blocks), got ${input.plaintext.length}`);
    }
  }
  const security = options.security ?? defaultSecurity(protocol);
  const roles = { blocks, keyHolders, plaintextOwner, revealTo };
  const spec = coral
    ? { protocol, preprocessing, ...roles }
    : minimac
    ? { protocol, code, preprocessing, ...roles }
    : tinytable
      ? { protocol, path: variant, preprocessing, security, macBits, ...roles }
      : { protocol, variant, security, direction, keyBits, ...roles };
  const job = { method: 'runAes', spec, input, protocol, variant, security } as const;
  return preprocessing === undefined ? job : { ...job, preprocessing };
}

/** The bridge job of `Session.evaluate` for member `slot` (2 = the dealer with `preprocessing: 'dealer'`). */
export function evaluateJob(
  circuit: ParsedCircuit,
  options: EvaluateOptions,
  slot: number,
  parties: number,
): BridgeJob & { protocol: CircuitProtocol; preprocessing: TinyTablePreprocessing } {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an object');
  const loose = options as Partial<Record<'macBits' | 'preprocessing' | 'code' | 'security' | 'protocol', unknown>>;
  const protocol = (loose.protocol ?? 'tinytable') as CircuitProtocol;
  if (protocol !== 'tinytable' && protocol !== 'minimac' && protocol !== 'coral') {
    throw new ConfigError('protocol', `unknown circuit protocol ${JSON.stringify(protocol)}: 'tinytable', 'minimac' or 'coral'`);
  }
  const minimac = protocol === 'minimac';
  const coral = protocol === 'coral';
  let preprocessing: TinyTablePreprocessing;
  let protocolOptions: object;
  if (coral) {
    ({ preprocessing } = coralOptions(loose, parties, 'evaluate (Coral)'));
    protocolOptions = { protocol, preprocessing };
  } else if (minimac) {
    const { code, preprocessing: p } = miniMacOptions(loose, parties, 'evaluate (MiniMac)');
    preprocessing = p;
    protocolOptions = { protocol, code, preprocessing };
  } else {
    if (loose.code !== undefined) throw new ConfigError('code', "code is MiniMac's option");
    preprocessing = tinyTablePreprocessing(options.preprocessing, parties, 'evaluate (TinyTable)');
    checkSecurity(options.security);
    const macBits = checkMacBits(loose.macBits, options.security);
    protocolOptions = { protocol, preprocessing, security: options.security ?? 'semi-honest', macBits };
  }
  const dealer = preprocessing === 'dealer' && slot === DEALER_SLOT;
  const values = circuit.inputWidths.length;
  const outputs = circuit.outputWidths.length;
  const inputOwners = options.inputOwners ?? (values === 2 ? [0, 1] : undefined);
  if (inputOwners === undefined) {
    throw new ConfigError('inputOwners', `the circuit has ${values} input values: say which party (0 or 1) owns each`);
  }
  partyList(inputOwners, 'inputOwners', 2);
  if (inputOwners.length !== values) {
    throw new CircuitError(`inputOwners names ${inputOwners.length} owners, the circuit has ${values} input values`);
  }
  const reveal = (options.reveal ?? new Array<'both'>(outputs).fill('both')).map((r, i) => {
    if (r === 'both') return 2;
    if (r === 0 || r === 1) return r;
    throw new ConfigError('reveal', `reveal[${i}] must be 'both', 0 or 1`);
  });
  if (reveal.length !== outputs) {
    throw new CircuitError(`reveal has ${reveal.length} entries, the circuit has ${outputs} output values`);
  }
  if ((minimac || coral) && reveal.some((r) => r !== 2)) {
    const name = minimac ? 'MiniMac' : 'Coral';
    throw new NotAvailableError('reveal', `${name} outputs for one party only`, `${name} opens every output to both parties; reveal every output to 'both'`);
  }
  const given = options.inputs ?? {};
  if (typeof given !== 'object' || given === null) throw new ConfigError('inputs', 'expected an array or object of input values by index');
  const supplied = new Map<number, CircuitValueInput>();
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= values) {
      throw new ConfigError('inputs', `input index ${key} is not one of the circuit's ${values} input values`);
    }
    supplied.set(index, value as CircuitValueInput);
  }
  const bits: Uint8Array[] = [];
  for (let index = 0; index < values; index++) {
    const mine = inputOwners[index] === slot;
    const value = supplied.get(index);
    if (mine && value === undefined) throw new ConfigError(`inputs[${index}]`, `party ${slot} owns input value ${index} and must pass it`);
    if (!mine && value !== undefined) {
      throw new ConfigError(`inputs[${index}]`, dealer ? 'the trusted dealer has no inputs' : `input value ${index} belongs to party ${inputOwners[index]}`);
    }
    if (mine) bits.push(Uint8Array.from(valueBits(value as CircuitValueInput, circuit.inputWidths[index]!, index), (b) => (b ? 1 : 0)));
  }
  return {
    method: 'runCircuit',
    spec: { ...protocolOptions, circuit: circuit.text, inputOwners, reveal },
    input: dealer ? {} : { values: bits },
    protocol,
    preprocessing,
  };
}

/**
 * Bristol Fashion circuits in the SDK: {@link parseCircuit} (parsed and checked by the Rust core in
 * WASM, so errors name the line), and the conversions between the value shapes of
 * `Session.evaluate` and the bit lists the core works on.
 */
import { toBytes, toHex } from '../bytes.js';
import { CircuitError, ConfigError } from '../errors.js';
import type { CircuitValue, CircuitValueInput, MixedCircuit, ParsedCircuit } from './session-types.js';
import { initWasm, parseCircuitWasm } from './wasm-loader.js';

/** What a parse tells about a circuit, besides its text. */
type CircuitInfo = Omit<ParsedCircuit, 'text'>;

/**
 * The circuits parsed last, by text (oldest first): a session evaluates the same circuit job after
 * job, and parsing an AES-sized circuit in WASM takes milliseconds of the caller's thread. At most
 * {@link PARSED_MAX} entries and {@link PARSED_MAX_CHARS} characters of text are kept.
 */
const parsed = new Map<string, CircuitInfo>();
const PARSED_MAX = 8;
const PARSED_MAX_CHARS = 32 << 20;
let parsedChars = 0;

function remember(text: string, info: CircuitInfo): void {
  if (text.length > PARSED_MAX_CHARS) return;
  parsed.set(text, info);
  parsedChars += text.length;
  for (const oldest of parsed.keys()) {
    if (parsed.size <= PARSED_MAX && parsedChars <= PARSED_MAX_CHARS) break;
    parsed.delete(oldest);
    parsedChars -= oldest.length;
  }
}

/** Parses Bristol text with the loaded module; throws {@link CircuitError} naming the line. */
export function parseLoaded(text: unknown): ParsedCircuit {
  if (typeof text !== 'string') throw new CircuitError('expected Bristol Fashion text (a string)');
  let info = parsed.get(text);
  if (info === undefined) {
    try {
      info = parseCircuitWasm(text) as CircuitInfo;
    } catch (error) {
      const message = (error as { message?: string }).message ?? String(error);
      const line = /line (\d+)/.exec(message);
      throw new CircuitError(message, line ? Number(line[1]) : undefined);
    }
    remember(text, info);
  }
  // Fresh arrays: a caller that changes its result does not change the next one.
  return { text, ...info, inputWidths: [...info.inputWidths], outputWidths: [...info.outputWidths] };
}

/**
 * Parses and checks a Bristol Fashion circuit (loading the WASM module first if needed). Rejects
 * with {@link CircuitError} (a `ConfigError` on `circuit`) whose `line` names the bad line.
 */
export async function parseCircuit(text: string): Promise<ParsedCircuit> {
  await initWasm();
  return parseLoaded(text);
}

/**
 * The bits (wire order, one byte 0 or 1 per bit, as the core takes them) of input value `index`
 * of width `width`; errors name `inputs[index]`. Plain loops into a typed array: a batch converts
 * thousands of values per job.
 */
export function valueBits(value: CircuitValueInput, width: number, index: number): Uint8Array {
  const field = `inputs[${index}]`;
  if (Array.isArray(value)) {
    if (value.length !== width || value.some((b) => typeof b !== 'boolean')) {
      throw new ConfigError(field, `expected ${width} booleans (the value's bits in wire order), got ${value.length} items`);
    }
    const bits = new Uint8Array(width);
    for (let i = 0; i < width; i++) bits[i] = value[i] ? 1 : 0;
    return bits;
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value >> BigInt(width) !== 0n) {
      throw new ConfigError(field, `the integer does not fit in ${width} bits`);
    }
    // Through its big-endian bytes: one conversion instead of a BigInt shift per bit.
    if (width === 0) return new Uint8Array(0);
    return bytesBits(toBytes(value.toString(16).padStart(2 * Math.ceil(width / 8), '0'), field), width);
  }
  const bytes = toBytes(value, field);
  if (bytes.length * 8 !== width) {
    throw new ConfigError(field, `expected ${width / 8} bytes for a ${width}-bit value, got ${bytes.length}`);
  }
  return bytesBits(bytes, width);
}

/** The low `width` bits (wire order) of the big-endian integer `bytes`: wire 8j + b is bit b of byte n − 1 − j. */
function bytesBits(bytes: Uint8Array, width: number): Uint8Array {
  const bits = new Uint8Array(width);
  for (let i = 0; i < width; i++) bits[i] = (bytes[bytes.length - 1 - (i >> 3)]! >> (i & 7)) & 1;
  return bits;
}

/** An output value from its bits (wire order). */
export function outputValue(bits: boolean[]): CircuitValue {
  // The big-endian bytes first (padded to whole bytes), the integer from their hex: one BigInt
  // parse instead of a BigInt shift per bit (results can hold thousands of values).
  const n = Math.ceil(bits.length / 8);
  const bytes = new Uint8Array(n);
  for (let i = 0; i < bits.length; i++) if (bits[i]) bytes[n - 1 - (i >> 3)]! |= 1 << (i & 7);
  const hex = toHex(bytes);
  const out: CircuitValue = { bits, value: n === 0 ? 0n : BigInt(`0x${hex}`) };
  if (bits.length % 8 === 0) {
    out.bytes = bytes;
    out.hex = hex;
  }
  return out;
}

/** Most wires of a circuit (the core's bound). */
const MAX_MIXED_WIRES = 1 << 26;

/** Whether `circuit` is a {@link MixedCircuit} (Summon's `{ bristol, info }`) rather than Bristol text or a parse. */
export function isMixedCircuit(circuit: unknown): circuit is MixedCircuit {
  return typeof circuit === 'object' && circuit !== null && 'bristol' in circuit;
}

/**
 * A mixed circuit's shape for the value conversions (every value `ring` bits wide; the input count
 * from the Bristol header, the core parses the rest) and the spec fields the core reads it with.
 */
export function mixedCircuit(
  circuit: MixedCircuit,
  ring: unknown,
): {
  parsed: ParsedCircuit;
  fields: { ring: 32 | 64; constants: Array<[number, string]>; outputWires: number[]; bitInputs: number[] };
} {
  const k = ring ?? 32;
  if (k !== 32 && k !== 64) throw new ConfigError('ring', `expected 32 or 64, got ${String(ring)}`);
  const { bristol, info } = circuit as Partial<MixedCircuit>;
  if (typeof bristol !== 'string') throw new CircuitError('a mixed circuit\'s bristol must be Bristol Fashion text');
  if (typeof info !== 'object' || info === null || !Array.isArray(info.outputs)) {
    throw new CircuitError('a mixed circuit needs Summon\'s info with its outputs ({ bristol, info: { constants, outputs } })');
  }
  const header = /^\s*\d+\s+(\d+)\s*\n\s*(\d+)/.exec(bristol);
  if (header === null) throw new CircuitError('the Bristol header must give the gate and wire counts, then the input values', 1);
  const address = (entry: unknown, what: string): number => {
    const a = (entry as { address?: unknown } | null)?.address;
    if (!Number.isSafeInteger(a) || (a as number) < 0) throw new CircuitError(`${what} has no wire address: ${JSON.stringify(entry)}`);
    return a as number;
  };
  const constants = (info.constants ?? []).map((c, i): [number, string] => {
    const value = (c as { value?: unknown } | null)?.value;
    if (!((typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint')) {
      throw new CircuitError(`constant ${i} has no integer value: ${JSON.stringify(c, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
    }
    // Negative constants as k-bit two's complement (Summon writes -1 for ~0).
    const modulus = 1n << BigInt(k);
    const reduced = ((BigInt(value) % modulus) + modulus) % modulus;
    return [address(c, `constant ${i}`), reduced.toString()];
  });
  const outputWires = info.outputs.map((o, i) => address(o, `output ${i}`));
  // Inputs are the first wires: a `bool` input's index is its address.
  const bitInputs = (Array.isArray(info.inputs) ? info.inputs : [])
    .filter((input) => (input as { type?: unknown } | null)?.type === 'bool')
    .map((input, i) => address(input, `boolean input ${i}`));
  // The core parses and bounds the rest; the input count must fit the wires before it sizes anything.
  const inputs = Number(header[2]);
  if (inputs > Number(header[1]) || inputs > MAX_MIXED_WIRES) {
    throw new CircuitError(`the header declares ${inputs} input values for ${header[1]} wires`, 2);
  }
  const parsed: ParsedCircuit = {
    text: bristol,
    inputWidths: new Array<number>(inputs).fill(k),
    outputWidths: outputWires.map(() => k),
    andGates: 0,
    xorGates: 0,
    invGates: 0,
    andDepth: 0,
    wires: 0,
  };
  return { parsed, fields: { ring: k, constants, outputWires, bitInputs } };
}

/**
 * Bristol Fashion circuits in the SDK: {@link parseCircuit} (parsed and checked by the Rust core in
 * WASM, so errors name the line), and the conversions between the value shapes of
 * `Session.evaluate` and the bit lists the core works on.
 */
import { toBytes, toHex } from '../bytes.js';
import { CircuitError, ConfigError } from '../errors.js';
import type { CircuitValue, CircuitValueInput, ParsedCircuit } from './session-types.js';
import { initWasm, parseCircuitWasm } from './wasm-loader.js';

/** Parses Bristol text with the loaded module; throws {@link CircuitError} naming the line. */
export function parseLoaded(text: unknown): ParsedCircuit {
  if (typeof text !== 'string') throw new CircuitError('expected Bristol Fashion text (a string)');
  try {
    const info = parseCircuitWasm(text) as Omit<ParsedCircuit, 'text'>;
    return { text, ...info };
  } catch (error) {
    const message = (error as { message?: string }).message ?? String(error);
    const line = /line (\d+)/.exec(message);
    throw new CircuitError(message, line ? Number(line[1]) : undefined);
  }
}

/**
 * Parses and checks a Bristol Fashion circuit (loading the WASM module first if needed). Rejects
 * with {@link CircuitError} (a `ConfigError` on `circuit`) whose `line` names the bad line.
 */
export async function parseCircuit(text: string): Promise<ParsedCircuit> {
  await initWasm();
  return parseLoaded(text);
}

/** The bits (wire order) of input value `index` of width `width`; errors name `inputs[index]`. */
export function valueBits(value: CircuitValueInput, width: number, index: number): boolean[] {
  const field = `inputs[${index}]`;
  if (Array.isArray(value)) {
    if (value.length !== width || value.some((b) => typeof b !== 'boolean')) {
      throw new ConfigError(field, `expected ${width} booleans (the value's bits in wire order), got ${value.length} items`);
    }
    return [...value];
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value >> BigInt(width) !== 0n) {
      throw new ConfigError(field, `the integer does not fit in ${width} bits`);
    }
    return Array.from({ length: width }, (_, i) => ((value >> BigInt(i)) & 1n) === 1n);
  }
  const bytes = toBytes(value, field);
  if (bytes.length * 8 !== width) {
    throw new ConfigError(field, `expected ${width / 8} bytes for a ${width}-bit value, got ${bytes.length}`);
  }
  // Big-endian integer: wire 8j + b is bit b of byte n - 1 - j.
  return Array.from({ length: width }, (_, i) => ((bytes[bytes.length - 1 - (i >> 3)]! >> (i & 7)) & 1) === 1);
}

/** An output value from its bits (wire order). */
export function outputValue(bits: boolean[]): CircuitValue {
  let value = 0n;
  for (let i = bits.length - 1; i >= 0; i--) value = (value << 1n) | (bits[i] ? 1n : 0n);
  const out: CircuitValue = { bits, value };
  if (bits.length % 8 === 0) {
    const n = bits.length / 8;
    const bytes = new Uint8Array(n);
    for (let i = 0; i < bits.length; i++) if (bits[i]) bytes[n - 1 - (i >> 3)]! |= 1 << (i & 7);
    out.bytes = bytes;
    out.hex = toHex(bytes);
  }
  return out;
}

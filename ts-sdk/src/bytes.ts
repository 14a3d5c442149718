/** Byte helpers of the session API: hex strings or `Uint8Array`s in, `Uint8Array`s out. */
import { ConfigError } from './errors.js';

/** Bytes given as a `Uint8Array` or a hex string (upper or lower case, no prefix, even length). */
export type BytesLike = Uint8Array | string;

/** Parses `value` into a fresh `Uint8Array`; a malformed value is a {@link ConfigError} naming `field`. */
export function toBytes(value: unknown, field: string): Uint8Array {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (typeof value === 'string') {
    if (value.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(value)) {
      throw new ConfigError(field, 'expected a hex string of even length or a Uint8Array');
    }
    const out = new Uint8Array(value.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(value.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  throw new ConfigError(field, 'expected a hex string or a Uint8Array');
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Node's `Buffer`, where there is one (its hex codec is native). */
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBuffer, offset: number, length: number): { toString(encoding: 'hex'): string } } }).Buffer;

/**
 * Lower-case hex of `bytes`: Node's native codec where there is one, else a table per byte and
 * one join (results can be megabytes; a batch's ciphertext is converted inside the timed job).
 */
export function toHex(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined && bytes.buffer instanceof ArrayBuffer) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  }
  const parts = new Array<string>(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = HEX[bytes[i]!]!;
  return parts.join('');
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Deterministic benchmark inputs from a seed: the key, its two XOR shares and `blocks` plaintext blocks. */
import { createCipheriv, createHash } from 'node:crypto';

function stream(seed, label, length) {
  const key = createHash('sha256').update(`${seed}/${label}`).digest().subarray(0, 16);
  return createCipheriv('aes-128-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(length));
}

export function benchInputs(seed, blocks) {
  const shares = [stream(seed, 'share0', 16), stream(seed, 'share1', 16)];
  const key = Buffer.from(shares[0].map((b, i) => b ^ shares[1][i]));
  return { keyShares: shares.map((s) => s.toString('hex')), key, plaintext: stream(seed, 'plaintext', 16 * blocks) };
}

/** Inputs of a batch of `instances` from a seed: a key per instance and a plaintext block per instance. */
export function batchInputs(seed, instances) {
  const keys = stream(seed, 'keys', 16 * instances);
  const blocks = stream(seed, 'blocks', 16 * instances);
  const split = (buf) => Array.from({ length: instances }, (_, i) => buf.subarray(16 * i, 16 * i + 16));
  return { keys: split(keys), blocks: split(blocks) };
}

/** AES-128 in ECB mode (the blocks encrypted one by one under `key`), the outputs' reference. */
export function aesEcb(key, data) {
  const cipher = createCipheriv('aes-128-ecb', key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

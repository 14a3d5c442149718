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

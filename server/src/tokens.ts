/**
 * Room ids and slot tokens: random url-safe strings, and a constant-time token check.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Bytes of randomness in a room id (128 bits: unguessable, but not a secret by itself). */
const ROOM_ID_BYTES = 16;
/** Bytes of randomness in a slot token (256 bits: the credential for a slot). */
const TOKEN_BYTES = 32;

/**
 * A fresh random room id, base64url without padding, after `prefix` (a cluster instance's name and
 * a dot, e.g. `r1.`, so a load balancer can route joins by the id alone; empty for a lone relay).
 */
export function newRoomId(prefix = ""): string {
  return prefix + randomBytes(ROOM_ID_BYTES).toString("base64url");
}

/** A fresh random slot token, base64url without padding. */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

/**
 * SHA-256 of a token. The relay keeps only digests, and compares digests so the comparison takes
 * the same time whatever the length or content of the presented token.
 */
export function tokenDigest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Whether `presented` is the token whose digest is `expected`, in constant time. */
export function tokenMatches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(tokenDigest(presented), expected);
}

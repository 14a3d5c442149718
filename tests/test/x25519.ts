/** X25519 key pairs from Node's crypto, as raw 32-byte values (for the pinned-key mode). */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto";

function raw(der: Buffer): Uint8Array {
  // PKCS#8 and SPKI encodings of X25519 end with the 32 raw key bytes.
  return new Uint8Array(der.subarray(der.length - 32));
}

export const x25519 = {
  randomPrivate(): Uint8Array {
    const { privateKey } = generateKeyPairSync("x25519");
    return raw(privateKey.export({ format: "der", type: "pkcs8" }));
  },
  publicOf(privateKey: Uint8Array): Uint8Array {
    // The PKCS#8 prefix of an X25519 private key (RFC 8410).
    const prefix = Buffer.from("302e020100300506032b656e04220420", "hex");
    const key = createPrivateKey({ key: Buffer.concat([prefix, privateKey]), format: "der", type: "pkcs8" });
    return raw(createPublicKey(key).export({ format: "der", type: "spki" }));
  },
};

/**
 * Test helpers: an in-process relay on loopback, rooms filled with SDK connections, deterministic
 * payloads and bounded waits (a broken transport fails a test instead of hanging it).
 */
import { createCipheriv } from "node:crypto";
import { startRelay, type RelayHandle, type RelayOptions } from "@chorus/server";
import { createRoom, RelayConnection, type AesResult, type MessageReceiver, type MessageTransport, type Room, type Session } from "../src/index.js";

/** Default bound of every wait in the tests. */
export const WAIT_MS = 5000;

/**
 * Per-address limits far above what a test file needs: every test party shares 127.0.0.1, which the
 * relay's defaults would treat as one busy client.
 */
export const GENEROUS_LIMITS: RelayOptions = {
  roomRatePerMinute: 100_000,
  roomBurst: 10_000,
  upgradeRatePerMinute: 1_000_000,
  upgradeBurst: 100_000,
  maxPendingRoomsPerAddress: 10_000,
  maxConnectionsPerAddress: 100_000,
};

/** Starts a relay on 127.0.0.1 with a free port. */
export function loopbackRelay(options: RelayOptions = {}): Promise<RelayHandle> {
  return startRelay({ host: "127.0.0.1", port: 0, ...GENEROUS_LIMITS, ...options });
}

/** A room of `parties` slots with every slot joined through the SDK and ready. */
export interface FilledRoom {
  room: Room;
  connections: RelayConnection[];
}

/** Creates a room on `relay`, opens one connection per slot and waits until all are ready. */
export async function fillRoom(relay: RelayHandle, parties: number): Promise<FilledRoom> {
  const room = await createRoom({ relay: relay.url, parties });
  const connections: RelayConnection[] = [];
  for (let slot = 0; slot < parties; slot += 1) {
    connections.push(await RelayConnection.open(room.invite(slot)));
  }
  await Promise.all(connections.map((connection) => within(connection.ready(), "ready")));
  return { room, connections };
}

/** Closes every connection, ignoring ones that are already closed. */
export async function closeAll(connections: RelayConnection[]): Promise<void> {
  await Promise.all(connections.map((connection) => within(connection.close(), "close")));
}

/** Rejects if `promise` does not settle within `ms`. */
export function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` until it holds or `ms` passes. */
export async function eventually(condition: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Deterministic pseudo-random bytes (xorshift32 from `seed`), so payloads differ byte by byte and a
 * reordered, truncated or shifted frame cannot compare equal by accident.
 */
export function seededBytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = (seed * 2654435761 + 1) >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out[i] = state & 0xff;
  }
  return out;
}

/** The rejection of `promise`, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>, what = "promise"): Promise<unknown> {
  try {
    await within(promise, what);
  } catch (error) {
    return error;
  }
  throw new Error(`${what} resolved, expected a rejection`);
}

/**
 * Whether two byte arrays are equal. Large payloads are compared with this rather than `toEqual`,
 * whose element-by-element deep equality takes seconds on hundreds of KiB.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** In-memory transports for `parties` parties; `tap` may alter or drop a message in flight. */
export function hub(parties: number, tap?: (from: number, to: number, bytes: Uint8Array) => Uint8Array | undefined) {
  const receivers: (MessageReceiver | undefined)[] = new Array(parties).fill(undefined);
  const pending: Array<Array<[number, Uint8Array]>> = Array.from({ length: parties }, () => []);
  const transports: MessageTransport[] = Array.from({ length: parties }, (_, me) => ({
    send(to, message) {
      const copy = tap === undefined ? message.slice() : tap(me, to, message.slice());
      if (copy === undefined) return;
      // Asynchronous and in order, like a socket.
      queueMicrotask(() => {
        const receiver = receivers[to];
        if (receiver === undefined) pending[to]!.push([me, copy]);
        else receiver.message(me, copy);
      });
    },
    listen(receiver) {
      receivers[me] = receiver;
      for (const [from, bytes] of pending[me]!.splice(0)) receiver.message(from, bytes);
      return () => {
        receivers[me] = undefined;
      };
    },
    // Closing tells the others, as a socket server would.
    close() {
      receivers.forEach((receiver, slot) => {
        if (slot !== me) queueMicrotask(() => receiver?.peerLeft(me, "closed"));
      });
    },
  }));
  return { transports, receivers };
}

/** FIPS-197 C.1's ciphertext of 00112233…ff under the key 000102…0f. */
export const FIPS_CIPHERTEXT = "69c4e0d86a7b0430d8cdb78070b4c55a";

/** FIPS-197 C.1 under MAESTRO's default roles among three sessions: key shares from 0 and 1, the plaintext from 2. */
export function fipsAesAmongThree(sessions: Session[], wait = 30_000): Promise<AesResult[]> {
  const key = new Uint8Array(16).map((_, i) => i);
  const share = new Uint8Array(16).fill(0x5a);
  return within(
    Promise.all([
      sessions[0]!.aes({ key: share }),
      sessions[1]!.aes({ key: key.map((b, i) => b ^ share[i]!) }),
      sessions[2]!.aes({ plaintext: "00112233445566778899aabbccddeeff" }),
    ]),
    "MAESTRO AES",
    wait,
  );
}

/** Node's AES-128 of one block, as hex. */
export function aes128Hex(key: Uint8Array, plaintext: Uint8Array): string {
  const cipher = createCipheriv("aes-128-ecb", key, null).setAutoPadding(false);
  return Buffer.concat([cipher.update(plaintext), cipher.final()]).toString("hex");
}

/** A TinyTable AES over OT between two sessions: the key from 0, the plaintext from 1, to both. */
export function tinytableAes(sessions: Session[], key: Uint8Array, plaintext: Uint8Array): Promise<AesResult[]> {
  return Promise.all([
    sessions[0]!.aes({ protocol: "tinytable", key, reveal: [0, 1] }),
    sessions[1]!.aes({ protocol: "tinytable", plaintext, reveal: [0, 1] }),
  ]);
}

/** A circuit of one bit from each of two parties (input 0 from party 0, input 1 from party 1): their AND and XOR. */
export const AND_XOR = "2 4\n2 1 1\n2 1 1\n\n2 1 0 1 2 AND\n2 1 0 1 3 XOR\n";

/** {@link AND_XOR} of `a` (session 0's) and `b` (session 1's): each session's output values. */
export async function andXor(sessions: Session[], a: boolean, b: boolean, wait = 30_000): Promise<bigint[][]> {
  const results = await within(
    Promise.all([sessions[0]!.evaluate(AND_XOR, { inputs: [[a]] }), sessions[1]!.evaluate(AND_XOR, { inputs: { 1: [b] } })]),
    "the circuit job",
    wait,
  );
  return results.map((result) => result.outputs.map((o) => o!.value as bigint));
}

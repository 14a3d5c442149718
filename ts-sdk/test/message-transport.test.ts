/**
 * Sessions over a transport the caller brings instead of the relay: an in-memory hub (each
 * party's messages delivered in order, asynchronously) and Node's `BroadcastChannel`. The same
 * jobs run and give the same results; bad transports and bad deliveries end in typed errors.
 */
import { describe, expect, it } from "vitest";
import {
  CancelledError,
  ConfigError,
  connect,
  IntegrityError,
  PeerLeftError,
  ProtocolAbortError,
  TransportError,
  type MessageReceiver,
  type MessageTransport,
  type Session,
} from "../src/index.js";
import { AND_XOR, andXor, FIPS_CIPHERTEXT, fipsAesAmongThree, hub, rejectionOf, within } from "./helpers.js";

const SECRET = new Uint8Array(32).fill(7);

async function connectAll(transports: MessageTransport[], extra: Record<string, unknown> = { secret: SECRET }): Promise<Session[]> {
  return Promise.all(
    transports.map((transport, slot) => connect({ transport, slot, parties: transports.length, sessionId: "test session", ...extra })),
  );
}

describe("a session over the caller's transport", () => {
  it("evaluates a circuit (TinyTable over OT) and runs MAESTRO AES, as over the relay", async () => {
    const two = await connectAll(hub(2).transports);
    expect(await andXor(two, true, true)).toEqual([[1n, 0n], [1n, 0n]]);
    await Promise.all(two.map((s) => s.close()));

    const three = await connectAll(hub(3).transports);
    const aes = await fipsAesAmongThree(three);
    for (const result of aes) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    expect(three[0]!.transportStats().framesSent).toBeGreaterThan(0);
    await Promise.all(three.map((s) => s.close()));
  }, 60_000);

  it("runs unauthenticated (Noise NN) when asked, and only then without credentials", async () => {
    const sessions = await connectAll(hub(2).transports, { unauthenticated: true });
    const results = await within(
      Promise.all([sessions[0]!.evaluate(AND_XOR, { inputs: [[true]] }), sessions[1]!.evaluate(AND_XOR, { inputs: { 1: [false] } })]),
      "the circuit job",
      30_000,
    );
    for (const result of results) expect(result.outputs.map((o) => o!.value)).toEqual([0n, 1n]);
    await Promise.all(sessions.map((s) => s.close()));
    const { transports } = hub(2);
    await expect(connect({ transport: transports[0]!, slot: 0, parties: 2, sessionId: "s" })).rejects.toBeInstanceOf(ConfigError);
    await expect(
      connect({ transport: transports[0]!, slot: 0, parties: 2, sessionId: "s", unauthenticated: true, secret: SECRET }),
    ).rejects.toMatchObject({ field: "unauthenticated" });
  }, 60_000);

  it("runs over Node's BroadcastChannel", async () => {
    const name = `chorus-test-${Math.random()}`;
    const channels: BroadcastChannel[] = [];
    const transports: MessageTransport[] = [0, 1].map((me) => {
      const channel = new BroadcastChannel(name);
      channels.push(channel);
      return {
        send: (to, message) => channel.postMessage({ from: me, to, message }),
        listen(receiver) {
          channel.onmessage = (event: MessageEvent) => {
            const { from, to, message } = event.data as { from: number; to: number; message: Uint8Array };
            if (to === me) receiver.message(from, message);
          };
        },
        close: () => channel.close(),
      };
    });
    const sessions = await connectAll(transports);
    const results = await within(
      Promise.all([sessions[0]!.evaluate(AND_XOR, { inputs: [[false]] }), sessions[1]!.evaluate(AND_XOR, { inputs: { 1: [true] } })]),
      "the circuit job",
      30_000,
    );
    for (const result of results) expect(result.outputs.map((o) => o!.value)).toEqual([0n, 1n]);
    await Promise.all(sessions.map((s) => s.close()));
    for (const channel of channels) channel.close();
  }, 60_000);
});

describe("bad transports and deliveries", () => {
  it("refuses a transport without send and listen, and bad slots or session ids", async () => {
    const { transports } = hub(2);
    await expect(connect({ transport: {} as MessageTransport, slot: 0, parties: 2, sessionId: "s", secret: SECRET })).rejects.toMatchObject({ field: "transport" });
    await expect(connect({ transport: transports[0]!, slot: 2, parties: 2, sessionId: "s", secret: SECRET })).rejects.toMatchObject({ field: "slot" });
    await expect(connect({ transport: transports[0]!, slot: 0, parties: 2, sessionId: "", secret: SECRET })).rejects.toMatchObject({ field: "sessionId" });
  });

  it("fails the job with IntegrityError when a message is altered in flight", async () => {
    let flipped = false;
    const { transports } = hub(2, (from, _to, bytes) => {
      // The third message from party 1 (after its handshake) gets one bit flipped.
      if (from === 1 && !flipped && bytes.length > 60) {
        flipped = true;
        bytes[bytes.length - 1]! ^= 1;
      }
      return bytes;
    });
    const sessions = await connectAll(transports);
    const outcomes = await Promise.allSettled([
      sessions[0]!.evaluate(AND_XOR, { inputs: [[true]] }),
      sessions[1]!.evaluate(AND_XOR, { inputs: { 1: [true] } }),
    ]);
    expect(flipped).toBe(true);
    expect(outcomes[0]).toMatchObject({ status: "rejected" });
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(IntegrityError);
    await Promise.all(sessions.map((s) => s.close()));
  }, 30_000);

  it("fails with TransportError for an impossible sender, a non-bytes message, a failing send and a reported failure", async () => {
    for (const deliver of [
      (r: MessageReceiver) => r.message(0, new Uint8Array(4)),
      (r: MessageReceiver) => r.message(7, new Uint8Array(4)),
      (r: MessageReceiver) => r.message(1, "text" as unknown as Uint8Array),
      (r: MessageReceiver) => r.failed(new Error("socket reset")),
    ]) {
      const { transports, receivers } = hub(2);
      const [session] = await Promise.all([connect({ transport: transports[0]!, slot: 0, parties: 2, sessionId: "s", secret: SECRET })]);
      const job = session!.evaluate(AND_XOR, { inputs: [[true]] });
      deliver(receivers[0]!);
      const error = await rejectionOf(job);
      expect(error).toBeInstanceOf(TransportError);
      await session!.close();
    }
    const failing: MessageTransport = {
      send: () => {
        throw new Error("no route");
      },
      listen: () => undefined,
    };
    const session = await connect({ transport: failing, slot: 0, parties: 2, sessionId: "s", secret: SECRET });
    const error = await rejectionOf(session.evaluate(AND_XOR, { inputs: [[true]] }));
    expect(error).toMatchObject({ code: "send-failed", slot: 1 });
    await session.close();
  }, 30_000);

  it("rejects with the job's own failed check when the peer that failed it too has left meanwhile", async () => {
    // Party 0 fails the spec agreement and leaves while its digest is still on the way to party 1:
    // the digest and the departure then reach party 1 back to back, before party 1's job has
    // read the digest. That job still fails the agreement, and says so (not that party 0 left).
    for (const runtime of ["native", "wasm"] as const) {
      let holding = false;
      const held: Uint8Array[] = [];
      const { transports, receivers } = hub(2, (from, to, bytes) => {
        if (!holding || from !== 0 || to !== 1) return bytes;
        held.push(bytes);
        return undefined;
      });
      const zero = transports[0]!;
      transports[0] = { ...zero, close: () => (holding ? undefined : zero.close?.()) };
      const sessions = await connectAll(transports, { secret: SECRET, runtime });
      // A first job opens the channels: the next job's first message is its agreement digest.
      expect(await andXor(sessions, true, false)).toEqual([[0n, 1n], [0n, 1n]]);
      holding = true;
      // The same shape, another gate: the circuits' digests differ.
      const other = AND_XOR.replace("AND", "XOR").replace("3 XOR", "3 AND");
      const first = rejectionOf(sessions[0]!.evaluate(AND_XOR, { inputs: [[true]] }));
      const second = rejectionOf(sessions[1]!.evaluate(other, { inputs: { 1: [true] } }));
      const errors = [await first];
      holding = false;
      expect(held.length, runtime).toBe(1);
      receivers[1]!.message(0, held[0]!);
      receivers[1]!.peerLeft(0, "closed");
      errors.push(await second);
      for (const error of errors) {
        expect(error, runtime).toBeInstanceOf(ProtocolAbortError);
        expect((error as ProtocolAbortError).message, runtime).toMatch(/agreement/);
      }
      // The session is over all the same: a later job says why.
      expect(await rejectionOf(sessions[1]!.evaluate(AND_XOR, { inputs: { 1: [true] } }))).toBeInstanceOf(PeerLeftError);
      await Promise.all(sessions.map((s) => s.close()));
    }
  }, 60_000);

  it("fails with PeerLeftError when the transport reports a departure, and with CancelledError on abort", async () => {
    const { transports, receivers } = hub(2);
    const session = await connect({ transport: transports[0]!, slot: 0, parties: 2, sessionId: "s", secret: SECRET });
    const job = session.evaluate(AND_XOR, { inputs: [[true]] });
    receivers[0]!.peerLeft(1, "closed");
    expect(await rejectionOf(job)).toMatchObject({ slot: 1, reason: "closed" });
    expect(await rejectionOf(job)).toBeInstanceOf(PeerLeftError);
    await session.close();

    const controller = new AbortController();
    const other = await connect({ transport: hub(2).transports[0]!, slot: 0, parties: 2, sessionId: "s", secret: SECRET, signal: controller.signal });
    const waiting = other.evaluate(AND_XOR, { inputs: [[true]] });
    controller.abort();
    expect(await rejectionOf(waiting)).toBeInstanceOf(CancelledError);
  }, 30_000);
});

/**
 * Warming the WASM core up before a session's first job (`connect`'s `warmUp`, `Session.warmUp`):
 * the warm-up runs, the session's jobs still give FIPS-197's ciphertext and circuit outputs, the
 * native runtime does nothing, and options the job would refuse are refused alike.
 */
import { describe, expect, it } from "vitest";
import { CircuitError, ConfigError, connect, warmUpCore, type MessageTransport, type Session } from "../src/index.js";
import { AND_XOR, andXor, FIPS_CIPHERTEXT, fipsAesAmongThree, hub, rejectionOf, within } from "./helpers.js";

const SECRET = new Uint8Array(32).fill(9);

function connectAll(transports: MessageTransport[], extra: Record<string, unknown>): Promise<Session[]> {
  return Promise.all(
    transports.map((transport, slot) =>
      connect({ transport, slot, parties: transports.length, sessionId: "warm-up", secret: SECRET, runtime: "wasm", ...extra }),
    ),
  );
}

describe("warming the WASM core up", () => {
  it("runs while connecting and leaves the session's jobs correct", async () => {
    const warmUp = { job: "aes", variant: "lut16", security: "malicious", blocks: 1000 } as const;
    const sessions = await within(connectAll(hub(3).transports, { warmUp }), "connecting with a warm-up", 60_000);
    const results = await fipsAesAmongThree(sessions);
    for (const result of results) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
    // The warm-up sent nothing: the first job opened the channels (its transport counts the handshakes).
    expect(results[0]!.transportStats.messagesSent).toBeGreaterThan(results[0]!.stats.messagesSent);

    const again = await sessions[0]!.warmUp(warmUp);
    expect(again).toMatchObject({ runtime: "wasm", warmed: true });
    expect(again.runs).toBeGreaterThanOrEqual(3);
    expect(again.runs).toBeLessThanOrEqual(10);
    await Promise.all(sessions.map((s) => s.close()));
  }, 120_000);

  it("warms a circuit job, then evaluates it", async () => {
    const warmUp = { job: "evaluate", circuit: AND_XOR, protocol: "tinytable", instances: 50 } as const;
    const two = await within(connectAll(hub(2).transports, { warmUp }), "connecting with a circuit warm-up", 60_000);
    expect(await andXor(two, true, true)).toEqual([[1n, 0n], [1n, 0n]]);
    await Promise.all(two.map((s) => s.close()));
  }, 120_000);

  it("refuses what the job would refuse, with the same typed errors", async () => {
    const [one, two] = await connectAll(hub(2).transports, {});
    const session = one!;
    const variant = await rejectionOf(session.warmUp({ job: "aes", protocol: "tinytable", path: "nowhere" } as never));
    expect(variant).toBeInstanceOf(ConfigError);
    expect((variant as ConfigError).field).toBe("path");
    // MAESTRO needs a session of three.
    const size = await rejectionOf(session.warmUp({ job: "aes" }));
    expect(size).toBeInstanceOf(ConfigError);
    expect((size as ConfigError).field).toBe("parties");
    const job = await rejectionOf(session.warmUp({ job: "sort" } as never));
    expect((job as ConfigError).field).toBe("job");
    const circuit = await rejectionOf(session.warmUp({ job: "evaluate", circuit: "1 2\nnot bristol" }));
    expect(circuit).toBeInstanceOf(CircuitError);
    const instances = await rejectionOf(session.warmUp({ job: "evaluate", circuit: AND_XOR, instances: 0 }));
    expect((instances as ConfigError).field).toBe("instances");
    const ring = await rejectionOf(session.warmUp({ job: "evaluate", circuit: AND_XOR, ring: 32 } as never));
    expect((ring as ConfigError).field).toBe("ring");
    // The session is still usable.
    expect(await andXor([session, two!], true, false)).toEqual([[0n, 1n], [0n, 1n]]);
    await Promise.all([session.close(), two!.close()]);

    const refused = await rejectionOf(connectAll(hub(2).transports, { warmUp: { job: "aes", variant: "lut17" } }));
    expect(refused).toBeInstanceOf(ConfigError);
  }, 120_000);

  it("runs before any session (warmUpCore), with the same typed errors", async () => {
    const warmed = await warmUpCore({ job: "aes", variant: "lut16", security: "malicious", blocks: 4, parties: 3, runtime: "wasm" });
    expect(warmed).toMatchObject({ runtime: "wasm", warmed: true });
    expect(warmed.runs).toBeGreaterThanOrEqual(3);
    const auto = await warmUpCore({ job: "aes", parties: 3, runtime: "auto" });
    if (auto.runtime === "native") expect(auto).toEqual({ runtime: "native", warmed: false, runs: 0, timeMs: 0 });
    for (const parties of [1, 2.5, undefined]) {
      const error = await rejectionOf(warmUpCore({ job: "aes", parties, runtime: "wasm" } as never));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).field).toBe("parties");
    }
    // MAESTRO needs three parties: the job's own check, as in a session.
    expect(await rejectionOf(warmUpCore({ job: "aes", parties: 2, runtime: "wasm" }))).toMatchObject({ field: "parties" });
    expect(await rejectionOf(warmUpCore({ job: "aes", parties: 2, runtime: "quantum" } as never))).toMatchObject({ field: "runtime" });
    expect(await rejectionOf(warmUpCore(null as never))).toBeInstanceOf(ConfigError);
  }, 60_000);

  it("does nothing on the native runtime", async () => {
    const sessions = await connectAll(hub(2).transports, { runtime: "auto" });
    if (sessions[0]!.runtime === "native") {
      expect(await sessions[0]!.warmUp({ job: "aes", protocol: "tinytable" })).toEqual({ runtime: "native", warmed: false, runs: 0, timeMs: 0 });
    }
    await Promise.all(sessions.map((s) => s.close()));
  }, 60_000);
});

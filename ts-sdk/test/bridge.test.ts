/**
 * The bridge on its own, in both runtimes — the WASM module and the native Node addon, the same
 * tests for each: `Bridge`s (three, or two for TinyTable with OT preprocessing) wired to each
 * other in memory (no relay), so the structured errors of the Rust side can be checked directly,
 * including ones the session's check (`checkAes`, the same Rust code) stops before a job starts. A last test wires a native
 * bridge to WASM bridges in one job.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadRuntime, type ResolvedRuntime } from "../src/index.js";
import type { CoreRuntime, JobBridge } from "../src/session/runtime.js";

const KEY = Uint8Array.from({ length: 16 }, (_, i) => i);
const PLAINTEXT = Uint8Array.from({ length: 16 }, (_, i) => i * 0x11);
const spec = { blocks: 1, keyHolders: [0], plaintextOwner: 2, reveal: [0, 1, 2] };
const inputs = [{ keyShare: KEY }, {}, { plaintext: PLAINTEXT }];

/** The runtime of each party, by name (both loaded once). */
const runtimes: Record<ResolvedRuntime, Promise<CoreRuntime>> = { wasm: loadRuntime("wasm"), native: loadRuntime("native") };
let runtimeOf: (party: number) => CoreRuntime;

/**
 * `members` bridges whose frames reach each other on a later microtask, like a network would; the
 * jobs' results and errors are those of the runtime's `Bridge` (typed loosely, as in the session).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function wire(members = 3): Array<JobBridge & { runAes(...a: unknown[]): Promise<any>; runCircuit(...a: unknown[]): Promise<any> }> {
  const bridges: JobBridge[] = [];
  for (let party = 0; party < members; party++) {
    bridges.push(
      runtimeOf(party).createBridge(party, members, (to: number, frame: Uint8Array) => {
        const copy = frame.slice();
        queueMicrotask(() => bridges[to]!.deliver(party, copy));
      }),
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return bridges as any;
}

/** A circuit job's output batch as plain arrays: instances, the values revealed here, their bits. */
function batchOf(out: { outputInstances: number; revealed: number[]; bits: Uint8Array }) {
  return { instances: out.outputInstances, revealed: Array.from(out.revealed), bits: Array.from(out.bits) };
}

function session(secretByte = 7) {
  return { sessionId: new TextEncoder().encode("bridge test"), secret: new Uint8Array(32).fill(secretByte) };
}

describe.each(["wasm", "native"] as const)("%s bridge", (name) => {
  beforeAll(async () => {
    const runtime = await runtimes[name];
    runtimeOf = () => runtime;
  });

  it("runs the FIPS-197 AES between three in-memory bridges", async () => {
    const bridges = wire();
    const progress: number[] = [];
    const results = await Promise.all(
      bridges.map((b, i) => b.runAes(session(), spec, inputs[i], (s: { rounds: number }) => progress.push(s.rounds))),
    );
    for (const r of results) {
      expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
      // The bridge's default job, malicious LUT-16: MAESTRO Table 1's 2560 online bits per block.
      expect(r.onlineStats.bytesSent).toBe(320);
      expect(r.transportStats.bytesSent).toBeGreaterThan(r.stats.bytesSent);
    }
    expect(progress.length).toBeGreaterThan(0);
  });

  it("rejects a short secret, a bad spec and a bad input with kind config naming the field", async () => {
    const [b] = wire();
    await expect(b!.runAes({ ...session(), secret: new Uint8Array(8) }, spec, inputs[0], null)).rejects.toMatchObject({
      kind: "config",
      field: "secret",
    });
    await expect(wire()[0]!.runAes(session(), { ...spec, blocks: 0 }, inputs[0], null)).rejects.toMatchObject({
      kind: "config",
      field: "blocks",
    });
    // Inputs are checked against the party's roles before the handshake: party 0 fails at once;
    // the others, already waiting for its handshake, are released from outside (in memory, nobody
    // "leaves").
    const trio = wire();
    const noInput = trio.map((b, i) => b.runAes(session(), spec, i === 0 ? {} : inputs[i], null).catch((e: unknown) => e));
    expect(await noInput[0]).toMatchObject({ kind: "config", field: "key" });
    expect(trio[0]!.checkAes(spec, inputs[0]!)).toEqual({ protocol: "maestro", variant: "lut16", security: "malicious" });
    expect(() => trio[0]!.checkAes(spec, {})).toThrow(expect.objectContaining({ kind: "config", field: "key" }));
    trio[1]!.peerLeft(0);
    trio[2]!.peerLeft(0);
    expect(await Promise.all(noInput.slice(1))).toMatchObject([{ kind: "peer-left", slot: 0 }, { kind: "peer-left", slot: 0 }]);
    await expect(wire()[0]!.runAes(session(), { ...spec, keyHolders: "0" }, inputs[0], null)).rejects.toMatchObject({
      kind: "config",
      field: "keyHolders",
    });
    await expect(wire()[0]!.runAes({ sessionId: new Uint8Array(1) }, spec, inputs[0], null)).rejects.toMatchObject({
      kind: "config",
    });
  });

  it("runs one job at a time; later jobs reuse the session's channels; a failed bridge stays failed", async () => {
    const bridges = wire();
    const first = bridges.map((b, i) => b.runAes(session(), spec, inputs[i], null));
    await expect(bridges[0]!.runAes(session(), spec, inputs[0], null)).rejects.toMatchObject({ kind: "config", field: "bridge" });
    const r1 = await Promise.all(first);
    const r2 = await Promise.all(bridges.map((b, i) => b.runAes(session(), spec, inputs[i], null)));
    for (const [i, r] of r2.entries()) {
      expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
      // The same protocol bytes; the handshakes (about 100 bytes per peer) only in the first job.
      expect(r.stats.bytesSent).toBe(r1[i].stats.bytesSent);
      expect(r1[i].transportStats.bytesSent - r.transportStats.bytesSent).toBeGreaterThan(2 * 48);
    }
    const [b] = wire();
    b!.fail("stop");
    await expect(b!.runAes(session(), spec, inputs[0], null)).rejects.toMatchObject({ kind: "transport" });
    await expect(b!.runAes(session(), spec, inputs[0], null)).rejects.toMatchObject({ kind: "transport" });
  });

  it("reports peerLeft as kind peer-left with the slot, and a different secret as integrity", async () => {
    const bridges = wire();
    const running = bridges.map((b, i) => b.runAes(session(), spec, inputs[i], null).catch((e: unknown) => e));
    bridges[0]!.peerLeft(2);
    bridges[1]!.peerLeft(2);
    bridges[2]!.fail("closed");
    const [e0, e1, e2] = await Promise.all(running);
    expect(e0).toMatchObject({ kind: "peer-left", slot: 2 });
    expect(e1).toMatchObject({ kind: "peer-left", slot: 2 });
    expect(e2).toMatchObject({ kind: "transport" });

    const other = wire();
    const outcomes = other.map((b, i) =>
      b.runAes(session(i === 2 ? 9 : 7), spec, inputs[i], null).catch((e: unknown) => e),
    );
    // Party 2's handshakes fail authentication; in memory nobody "leaves", so the others are
    // released from outside afterwards.
    expect(await outcomes[2]).toMatchObject({ kind: "integrity" });
    other[0]!.peerLeft(2);
    other[1]!.peerLeft(2);
    await Promise.all(outcomes);
  }, 10_000);

  it("runs TinyTable AES and a Bristol circuit between two in-memory bridges with OT preprocessing", async () => {
    const ttSpec = { protocol: "tinytable", blocks: 1, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    const ttInputs = [{ keyShare: KEY }, { plaintext: PLAINTEXT }];
    for (const extra of [{}, { preprocessing: "ot", security: "malicious", macBits: 32 }]) {
      const rs = await Promise.all(wire(2).map((b, i) => b.runAes(session(), { ...ttSpec, ...extra }, ttInputs[i], null)));
      for (const r of rs) {
        expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
        // The OT preprocessing (megabytes) is in stats, not in the online phase.
        expect(r.stats.bytesSent).toBeGreaterThan(100 * r.onlineStats.bytesSent);
      }
    }
    const circuit = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
    const cInputs = [{ values: [Uint8Array.of(1)] }, { values: [undefined, Uint8Array.of(1)] }];
    const outs = await Promise.all(
      wire(2).map((b, i) => b.runCircuit(session(), { circuit, inputOwners: [0, 1], reveal: ["both"] }, cInputs[i], null)),
    );
    for (const out of outs) expect(batchOf(out)).toEqual({ instances: 1, revealed: [0], bits: [1] });
    // A three-member session is the dealer's: OT preprocessing refuses it.
    await expect(wire()[0]!.runAes(session(), ttSpec, { keyShare: KEY }, null)).rejects.toMatchObject({
      kind: "config",
      field: "parties",
    });
  }, 30_000);

  it("runs TinyTable AES (two parties and the dealer) and a Bristol circuit between in-memory bridges", async () => {
    const ttSpec = { protocol: "tinytable", preprocessing: "dealer", blocks: 1, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    const ttInputs = [{ keyShare: KEY }, { plaintext: PLAINTEXT }, {}];
    const results = await Promise.all(wire().map((b, i) => b.runAes(session(), ttSpec, ttInputs[i], null)));
    for (const r of results.slice(0, 2)) expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
    expect(results[2].ciphertext).toBeUndefined();
    expect(results[0].onlineStats.bytesSent).toBe(16 + 820);

    // Malicious, both paths (the S-box path with the key at party 0 and the plaintext at party 1).
    for (const extra of [{ security: "malicious", macBits: 32 }, { path: "sbox-tables", security: "malicious" }, { path: "sbox-tables" }]) {
      const rs = await Promise.all(wire().map((b, i) => b.runAes(session(), { ...ttSpec, ...extra }, ttInputs[i], null)));
      for (const r of rs.slice(0, 2)) expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
    }

    // out = a AND b, one bit each, revealed to party 1 only.
    const circuit = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
    const cSpec = { circuit, preprocessing: "dealer", inputOwners: [0, 1], reveal: [1] };
    const cInputs = [{ values: [Uint8Array.of(1)] }, { values: [undefined, Uint8Array.of(1)] }, {}];
    const outs = await Promise.all(wire().map((b, i) => b.runCircuit(session(), cSpec, cInputs[i], null)));
    expect(batchOf(outs[0])).toEqual({ instances: 1, revealed: [], bits: [] });
    expect(batchOf(outs[1])).toEqual({ instances: 1, revealed: [0], bits: [1] });
  });

  it("rejects unavailable TinyTable combinations, bad TinyTable options, unknown variants and bad circuits, naming the option", async () => {
    await expect(wire()[0]!.runAes(session(), { ...spec, variant: "lut17" }, inputs[0], null)).rejects.toMatchObject({
      kind: "config",
      field: "variant",
    });
    const ttSpec = { protocol: "tinytable", preprocessing: "dealer", blocks: 1, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    await expect(wire()[0]!.runAes(session(), { ...ttSpec, path: "sbox-tables", keyBits: 256 }, { keyShare: new Uint8Array(32) }, null)).rejects.toMatchObject({
      kind: "not-available",
      field: "keyBits",
    });
    await expect(wire()[0]!.runAes(session(), { ...ttSpec, path: "sbox-tables", keyHolders: [1], plaintextOwner: 1 }, { keyShare: KEY }, null)).rejects.toMatchObject({
      kind: "config",
      field: "plaintextOwner",
    });
    await expect(
      wire(2)[0]!.runAes(session(), { ...ttSpec, preprocessing: "ot", path: "sbox-tables", security: "malicious", macBits: 32 }, { keyShare: KEY }, null),
    ).rejects.toMatchObject({ kind: "not-available", field: "macBits" });
    await expect(wire(2)[0]!.runAes(session(), { ...ttSpec, preprocessing: "trusted" }, { keyShare: KEY }, null)).rejects.toMatchObject({
      kind: "config",
      field: "preprocessing",
    });
    await expect(wire()[0]!.runAes(session(), { ...ttSpec, security: "malicious", macBits: 16 }, { keyShare: KEY }, null)).rejects.toMatchObject({
      kind: "config",
      field: "macBits",
    });
    await expect(wire()[0]!.runAes(session(), { ...ttSpec, security: "chaotic" }, { keyShare: KEY }, null)).rejects.toMatchObject({
      kind: "config",
      field: "security",
    });
    const bad = { circuit: "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 NAND\n", inputOwners: [0, 1], reveal: ["both"] };
    const error = await wire()[0]!.runCircuit(session(), bad, { values: [Uint8Array.of(1)] }, null).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: "config", field: "circuit" });
    expect((error as Error).message).toContain("line 5");
  });

  it("runs MiniMac AES and a circuit (two parties and the dealer) through the same two bridge methods", async () => {
    const mmSpec = { protocol: "minimac", preprocessing: "dealer", code: "rs255-85-fft", blocks: 2, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    const twoBlocks = new Uint8Array(32);
    twoBlocks.set(PLAINTEXT, 0);
    twoBlocks.set(PLAINTEXT, 16);
    const mmInputs = [{ keyShare: KEY }, { plaintext: twoBlocks }, {}];
    const results = await Promise.all(wire().map((b, i) => b.runAes(session(), mmSpec, mmInputs[i], null)));
    for (const r of results.slice(0, 2)) {
      expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a".repeat(2));
      expect(r.onlineStats.bytesSent).toBeGreaterThan(0);
      expect(r.preprocessingStats.bytesReceived).toBeGreaterThan(r.onlineStats.bytesReceived);
    }
    expect(results[2].ciphertext).toBeUndefined();

    const circuit = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
    const cSpec = { protocol: "minimac", preprocessing: "dealer", circuit, inputOwners: [0, 1], reveal: ["both"] };
    const cInputs = [{ values: [Uint8Array.of(1)] }, { values: [undefined, Uint8Array.of(1)] }, {}];
    const outs = await Promise.all(wire().map((b, i) => b.runCircuit(session(), cSpec, cInputs[i], null)));
    for (const out of outs.slice(0, 2)) expect(batchOf(out)).toEqual({ instances: 1, revealed: [0], bits: [1] });

    // MiniMac's limits and foreign options are config errors naming the option.
    for (const [extra, kind, field] of [
      // Over OT all three members compute: a ciphertext for parties 0 and 1 names neither one
      // party nor all three.
      [{ preprocessing: "ot" }, "config", "reveal"],
      [{ reveal: [1, 0] }, "config", "reveal"],
      [{ variant: "lut16" }, "config", "variant"],
      [{ code: "rs7" }, "config", "code"],
      [{ security: "semi-honest" }, "config", "security"],
    ] as const) {
      await expect(wire()[0]!.runAes(session(), { ...mmSpec, ...extra }, mmInputs[0], null)).rejects.toMatchObject({ kind, field });
    }
  }, 60_000);

  it("runs Coral AES and a circuit between two bridges with OT preprocessing, through the same two methods", async () => {
    const crSpec = { protocol: "coral", blocks: 1, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    const crInputs = [{ keyShare: KEY }, { plaintext: PLAINTEXT }];
    const results = await Promise.all(wire(2).map((b, i) => b.runAes(session(), crSpec, crInputs[i], null)));
    for (const r of results) {
      expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
      // The OT preprocessing (megabytes) dominates; the packed online phase is kilobytes.
      expect(r.preprocessingStats.bytesSent).toBeGreaterThan(100 * r.onlineStats.bytesSent);
    }
    const circuit = "1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n";
    const cInputs = [{ values: [Uint8Array.of(1)] }, { values: [undefined, Uint8Array.of(1)] }];
    const outs = await Promise.all(
      wire(2).map((b, i) => b.runCircuit(session(), { protocol: "coral", circuit, inputOwners: [0, 1], reveal: ["both"] }, cInputs[i], null)),
    );
    for (const out of outs) expect(batchOf(out)).toEqual({ instances: 1, revealed: [0], bits: [1] });
    for (const [extra, kind, field] of [
      [{ preprocessing: "dealer" }, "config", "parties"],
      [{ reveal: [2] }, "config", "reveal"],
      [{ code: "rs255-85-fft" }, "config", "code"],
    ] as const) {
      await expect(wire(2)[0]!.runAes(session(), { ...crSpec, ...extra }, crInputs[0], null)).rejects.toMatchObject({ kind, field });
    }
    // Over OT every member of a session of three computes: the two-party roles' reveal [0, 1]
    // names neither one party nor all three.
    await expect(wire(3)[0]!.runAes(session(), crSpec, crInputs[0], null)).rejects.toMatchObject({ kind: "config", field: "reveal" });
  }, 120_000);
});

describe("mixed runtimes", () => {
  it("runs one job between native and WASM bridges: same wire format, same spec digest", async () => {
    const [wasm, native] = await Promise.all([runtimes.wasm, runtimes.native]);
    expect([wasm.name, native.name]).toEqual(["wasm", "native"]);
    runtimeOf = (party) => (party === 1 ? native : wasm);
    const results = await Promise.all(wire().map((b, i) => b.runAes(session(), spec, inputs[i], null)));
    for (const r of results) expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
    const ttSpec = { protocol: "tinytable", blocks: 1, keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
    const rs = await Promise.all(wire(2).map((b, i) => b.runAes(session(), ttSpec, [{ keyShare: KEY }, { plaintext: PLAINTEXT }][i], null)));
    for (const r of rs) expect(Buffer.from(r.ciphertext).toString("hex")).toBe("69c4e0d86a7b0430d8cdb78070b4c55a");
    // A different spec at the native party is caught by the spec agreement, as between two WASM parties.
    const disagree = wire().map((b, i) => b.runAes(session(), i === 1 ? { ...spec, blocks: 2 } : spec, inputs[i], null).catch((e: unknown) => e));
    const errors = await Promise.all(disagree);
    expect(errors[0]).toMatchObject({ kind: "protocol", check: "job spec agreement" });
  }, 60_000);
});

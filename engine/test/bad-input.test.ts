/**
 * Bad input to ChorusEngine: each ends in a typed error from `output()`, with no output revealed
 * and within a stated time — the configuration errors before anything is sent, the transport's
 * corruption within the job, a silent peer within the engine's timeout.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, IntegrityError, NotAvailableError, PeerLeftError, ProtocolAbortError, TransportError, CircuitError } from "@chorus/sdk";
import type { Circuit } from "mpc-framework-common";
import { ChorusEngine } from "../src/index.js";
import { compile, runParties, startParties, type Outcome } from "./helpers.js";

const SOURCE = `export default function main(io: Summon.IO) {
  const a = io.input('alice', 'a', summon.number());
  const b = io.input('bob', 'b', summon.number());
  io.outputPublic('sum', a + b);
  io.outputPublic('aLess', a < b);
}`;
const INPUTS = { alice: { a: 10 }, bob: { b: 20 } };

function errorOf(outcome: Outcome | undefined): unknown {
  expect(outcome).toMatchObject({ ok: false });
  return (outcome as { error: unknown }).error;
}

/** Runs one party alone (the peer never answers) and returns its error, within `ms`. */
async function aloneError(circuit: Circuit, name: string, input: Record<string, unknown>, ms = 2000): Promise<unknown> {
  const session = new ChorusEngine().run(circuit, name, input, () => undefined);
  const started = Date.now();
  const error = await session.output().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(Date.now() - started).toBeLessThan(ms);
  return error;
}

describe("configuration errors, before anything is sent (each within 2 s)", () => {
  it("an unknown party name", async () => {
    const circuit = await compile(SOURCE, 16);
    const error = await aloneError(circuit, "mallory", {});
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ field: "name" });
  });

  it("a missing input, an extra input, a value that does not fit its width, a wrong type", async () => {
    const circuit = await compile(SOURCE, 16);
    expect(await aloneError(circuit, "alice", {})).toMatchObject({ field: "input", message: expect.stringContaining('missing input "a"') });
    expect(await aloneError(circuit, "alice", { a: 1, b: 2 })).toMatchObject({ field: "input", message: expect.stringContaining('"b"') });
    expect(await aloneError(circuit, "alice", { a: 70_000 })).toMatchObject({ field: "input.a", message: expect.stringContaining("16 bits") });
    expect(await aloneError(circuit, "alice", { a: -40_000 })).toMatchObject({ field: "input.a" });
    expect(await aloneError(circuit, "alice", { a: 1.5 })).toMatchObject({ field: "input.a" });
    expect(await aloneError(circuit, "alice", { a: "7" })).toMatchObject({ field: "input.a" });
  });

  it("three parties on a two-party protocol, or nine parties: NotAvailableError, for every party", async () => {
    const three = await compile(
      `export default function main(io: Summon.IO) {
        const a = io.input('alice', 'a', summon.number());
        const b = io.input('bob', 'b', summon.number());
        const c = io.input('carol', 'c', summon.number());
        io.outputPublic('sum', a + b + c);
      }`,
      8,
    );
    for (const [name, input] of [["alice", { a: 1 }], ["carol", { c: 3 }]] as const) {
      const session = new ChorusEngine({ protocol: "tinytable" }).run(three, name, input, () => undefined);
      const error = await session.output().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(NotAvailableError);
      expect(error).toMatchObject({ field: "protocol" });
    }
    const names = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"];
    const nine = { ...three, mpcSettings: names.map((name, i) => ({ name, inputs: i < 3 ? [three.mpcSettings[i]!.inputs[0]!] : [], outputs: ["sum"] })) } as Circuit;
    const error = await aloneError(nine, "p0", { a: 1 });
    expect(error).toBeInstanceOf(NotAvailableError);
    expect(error).toMatchObject({ field: "parties" });
  });

  it("a circuit whose info does not match its Bristol text, malformed Bristol, and no circuit at all", async () => {
    const circuit = await compile(SOURCE, 16);
    const shifted = { ...circuit, info: { ...circuit.info, inputs: circuit.info.inputs.map((i) => ({ ...i, width: 8 })) } };
    expect(await aloneError(shifted, "alice", { a: 1 })).toBeInstanceOf(CircuitError);
    const broken = { ...circuit, bristol: "2 4\n2 1 1\n1 1\n\n2 1 0 1 9 AND\n" };
    expect(await aloneError(broken, "alice", { a: 1 })).toBeInstanceOf(CircuitError);
    expect(await aloneError({} as Circuit, "alice", { a: 1 })).toMatchObject({ field: "circuit" });
  });

  it("bad engine options throw at once", () => {
    expect(() => new ChorusEngine({ protocol: "yao" as "tinytable" })).toThrow(ConfigError);
    expect(() => new ChorusEngine({ protocol: "coral", security: "semi-honest" })).toThrow(ConfigError);
  });
});

describe("errors between the parties", () => {
  it("parties with different circuits fail the circuit agreement (ProtocolAbortError) before any session", async () => {
    const circuit = await compile(SOURCE, 16);
    const other = await compile(SOURCE.replace("a + b", "a - b"), 16);
    const sessions = {
      alice: new ChorusEngine().run(circuit, "alice", INPUTS.alice, (to, msg) => setTimeout(() => sessions.bob.handleMessage("alice", msg))),
      bob: new ChorusEngine().run(other, "bob", INPUTS.bob, (to, msg) => setTimeout(() => sessions.alice.handleMessage("bob", msg))),
    };
    for (const session of Object.values(sessions)) {
      const error = await session.output().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolAbortError);
      expect(error).toMatchObject({ check: "circuit agreement" });
    }
  });

  it("a corrupted message fails the receiver with IntegrityError and its peer at once (within 10 s), no output anywhere", async () => {
    const circuit = await compile(SOURCE, 16);
    let count = 0;
    const started = Date.now();
    const { outcomes } = await runParties(new ChorusEngine(), circuit, INPUTS, (from, _to, msg) => {
      count += 1;
      // A message of bob's inside the job (after the hello and the handshake).
      if (from === "bob" && count > 6 && msg.length > 40 && msg[0] === 2) msg[msg.length - 2]! ^= 0x40;
      return msg;
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errorOf(outcomes.alice)).toBeInstanceOf(IntegrityError);
    expect(errorOf(outcomes.bob)).toBeInstanceOf(PeerLeftError);
  });

  it("a message from an unknown party name, and garbage with an unknown tag: TransportError", async () => {
    const circuit = await compile(SOURCE, 16);
    const { sessions, done } = startParties(new ChorusEngine(), circuit, INPUTS);
    sessions.alice!.handleMessage("mallory", new Uint8Array([2, 1, 2, 3]));
    const outcomes = await done;
    expect(errorOf(outcomes.alice)).toBeInstanceOf(TransportError);
    expect(errorOf(outcomes.alice)).toMatchObject({ code: "bad-message" });
    expect(errorOf(outcomes.bob)).toBeInstanceOf(PeerLeftError);

    const second = startParties(new ChorusEngine(), circuit, INPUTS);
    second.sessions.bob!.handleMessage("alice", new Uint8Array([9, 9]));
    expect(errorOf((await second.done).bob)).toMatchObject({ code: "bad-message" });
  });

  it("a peer that never answers: a timeout error after timeoutMs", async () => {
    const circuit = await compile(SOURCE, 16);
    const session = new ChorusEngine({ timeoutMs: 300 }).run(circuit, "alice", INPUTS.alice, () => undefined);
    const started = Date.now();
    const error = await session.output().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "timeout" });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

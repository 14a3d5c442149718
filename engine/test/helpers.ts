/**
 * Test helpers: Summon programs compiled in the test (boolean circuits for Chorus and
 * emp-wasm-engine, arithmetic ones for mpc-framework's plaintext engine), and running every party
 * of a circuit in this process over an in-memory transport (asynchronous, in order per pair), the
 * way an app would wire `send` and `handleMessage`.
 */
import * as summon from "summon-ts";
import { Protocol } from "mpc-framework";
import type { Circuit, Engine, EngineSession } from "mpc-framework-common";

let ready: Promise<void> | undefined;

/** A sealed-bid auction of three bidders: the first highest bid's index and the price. */
export const AUCTION = `export default function main(io: Summon.IO) {
  const bids = [io.input('alice', 'a', summon.number()), io.input('bob', 'b', summon.number()), io.input('carol', 'c', summon.number())];
  let best = 0;
  let winner = 0;
  for (let i = 0; i < 3; i++) { if (bids[i] > best) { best = bids[i]; winner = i; } }
  io.outputPublic('winner', winner);
  io.outputPublic('price', best);
}`;

/** The auction's bids (bob wins at 990). */
export const AUCTION_BIDS = { alice: { a: 120 }, bob: { b: 990 }, carol: { c: 45 } };

/** Compiles Summon `source` (`main` exported as default); boolean with `width`, else arithmetic. */
export async function compile(source: string, width?: number): Promise<Circuit> {
  ready ??= summon.init();
  await ready;
  const { circuit } = summon.compile({
    path: "/src/main.ts",
    ...(width === undefined ? {} : { boolifyWidth: width }),
    files: { "/src/main.ts": source },
  });
  return circuit as Circuit;
}

/** What a run of every party gives: each party's outputs, or its error. */
export type Outcome = { ok: true; value: Record<string, unknown> } | { ok: false; error: unknown };

/**
 * Starts every party of `circuit` on `engine` with `inputs` (by party name), delivering each
 * message after `tap` (which may alter it). Returns the sessions at once and, in `done`, each
 * party's outcome.
 */
export function startParties(
  engine: Engine,
  circuit: Circuit,
  inputs: Record<string, Record<string, unknown>>,
  tap: (from: string, to: string, msg: Uint8Array) => Uint8Array = (_f, _t, msg) => msg,
): { sessions: Record<string, EngineSession>; done: Promise<Record<string, Outcome>> } {
  const protocol = new Protocol(circuit, engine);
  const names = circuit.mpcSettings.map((p, i) => p.name ?? String(i));
  const sessions: Record<string, EngineSession> = {};
  for (const name of names) {
    sessions[name] = protocol.join(name, inputs[name] ?? {}, (to, msg) => {
      const copy = tap(name, to, msg.slice());
      setImmediate(() => sessions[to]?.handleMessage(name, copy));
    }).engineSession;
  }
  const outcomes: Record<string, Outcome> = {};
  const done = Promise.all(
    names.map(async (name) => {
      try {
        outcomes[name] = { ok: true, value: await sessions[name]!.output() };
      } catch (error) {
        outcomes[name] = { ok: false, error };
      }
    }),
  ).then(() => outcomes);
  return { sessions, done };
}

/** {@link startParties}, waiting for every outcome. */
export async function runParties(
  engine: Engine,
  circuit: Circuit,
  inputs: Record<string, Record<string, unknown>>,
  tap?: (from: string, to: string, msg: Uint8Array) => Uint8Array,
): Promise<{ outcomes: Record<string, Outcome>; sessions: Record<string, EngineSession> }> {
  const { sessions, done } = startParties(engine, circuit, inputs, tap);
  return { outcomes: await done, sessions };
}

/** Outputs as plain comparable values: numbers reduced mod 2^width, booleans as booleans. */
export function normalize(circuit: Circuit, outputs: Record<string, unknown>, width: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const info of circuit.info.outputs) {
    const value = outputs[info.name];
    if (value === undefined) continue;
    result[info.name] =
      info.type === "bool" ? Boolean(value) : Number(BigInt(value as number | bigint) % 2n ** BigInt(width));
  }
  return result;
}

/** Each party's outputs, alice's first (throws if a party failed). */
export function values(outcomes: Record<string, Outcome>, names = ["alice", "bob"]): Record<string, unknown>[] {
  return names.map((name) => {
    const outcome = outcomes[name]!;
    if (!outcome.ok) throw new Error(`party ${name} failed: ${String(outcome.error)}`);
    return outcome.value;
  });
}

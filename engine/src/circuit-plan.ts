/**
 * From an mpc-framework circuit (Summon's output: Bristol Fashion text, `info` naming each input
 * and output with its wire address, width and type, and `mpcSettings` saying which party inputs
 * what and learns what) to the options of a Chorus circuit job, and back from the job's output
 * values to named outputs. Nothing here runs a protocol; every problem is a typed error that names
 * what is wrong.
 *
 * Conventions, those of Summon and of mpc-framework's own engines: a `number` of width w is an
 * unsigned w-bit integer whose bit i sits on the value's i-th wire (least significant first), a
 * `bool` is one wire. Inputs may be given as JS numbers or bigints, negative ones as w-bit two's
 * complement (as emp-wasm-engine takes them); outputs come back as JS numbers (bigints past 53
 * bits) and booleans, the unsigned reading mpc-framework's plaintext engine gives.
 *
 * A program compiled *without* boolify is a mixed circuit (Summon's arithmetic gates `AAdd`,
 * `AMul`, `AGt`, …; every value one wire): its values are integers of the engine's `ring` bits,
 * its outputs are listed by address in `info` (not the last wires), and it runs on Coral's
 * arithmetic shares, where every output goes to every party.
 */
import type { Circuit, CircuitIOInfo } from 'mpc-framework-common';
import { CircuitError, ConfigError, NotAvailableError, type CircuitValue, type MixedCircuit, type ParsedCircuit } from '@chorus/sdk';

/** Who receives an output value: every party (`'both'`, as the SDK names it), or one party's slot. */
export type Recipient = 'both' | number;

/** Most parties of a run (Coral over OT's bound: n-party TinyOT, both COPEs, Spdz2k's provider). */
export const MAX_PARTIES = 8;

/** What one party's circuit job needs, and how to name its outputs. */
export interface JobPlan {
  /** Party names in slot order (the `mpcSettings` order). */
  names: string[];
  /** This party's slot. */
  slot: number;
  /** Owner slot of each input value of the Bristol circuit. */
  inputOwners: number[];
  /** Recipients of each output value of the Bristol circuit. */
  reveal: Recipient[];
  /** This party's input values, by input index. */
  inputs: Record<number, bigint>;
  /** The outputs this party learns: name, type and output index. */
  outputs: Array<{ name: string; type: unknown; index: number }>;
  /** For a program compiled without boolify: the mixed circuit `Session.evaluate` takes (outputs in address order). */
  mixed?: MixedCircuit;
}

/** How the values of a circuit are laid out: a parsed Bristol circuit, or a mixed one in Z_2^ring. */
export type CircuitShape = { parsed: ParsedCircuit } | { ring: 32 | 64 };

/** Whether Summon compiled `circuit` without boolify: its gates are arithmetic (`AAdd`, `AMul`, …). */
export function isMixed(circuit: Circuit): boolean {
  // Summon's arithmetic gate names have a lower-case letter (AAdd, ALt, AXor); Bristol's AND has none.
  return /^\s*\d+\s+\d+(\s+\d+)+\s+A[A-Z][A-Za-z]*[a-z][A-Za-z]*\s*$/m.test(circuit.bristol);
}

/** The party names of `circuit`, in slot order; throws on a malformed circuit or duplicate names. */
export function partyNames(circuit: Circuit): string[] {
  checkShape(circuit);
  const names = circuit.mpcSettings.map((participant, i) => participant.name ?? String(i));
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new ConfigError('circuit', `party name "${name}" appears twice in mpcSettings`);
    seen.add(name);
  }
  return names;
}

/**
 * Plans party `name`'s job for `circuit` (a Bristol circuit already parsed, or a mixed one and its
 * ring: `shape`) with its `input`. Throws `ConfigError` (field `name`, `input` or
 * `input.<name>`), `CircuitError` or `NotAvailableError`.
 */
export function planJob(circuit: Circuit, shape: CircuitShape, name: string, input: Record<string, unknown>): JobPlan {
  const roles = planRoles(circuit, shape);
  const { names, inputOwners, reveal, infos } = roles;
  const slot = names.indexOf(name);
  if (slot === -1) {
    throw new ConfigError('name', `unknown party name "${name}"; the circuit's parties are ${names.map((n) => `"${n}"`).join(', ')}`);
  }
  const own = infos.inputs.flatMap((info, index) => (inputOwners[index] === slot ? [{ info, index }] : []));
  checkInputKeys(input, own.map(({ info }) => info.name));
  const encoded: Record<number, bigint> = {};
  for (const { info, index } of own) encoded[index] = encodeValue(info, input[info.name], 'ring' in shape ? shape.ring : info.width);

  return {
    names,
    slot,
    inputOwners,
    reveal,
    inputs: encoded,
    outputs: infos.outputs.flatMap((info, index) =>
      reveal[index] === 'both' || reveal[index] === slot ? [{ name: info.name, type: info.type, index }] : [],
    ),
    ...(roles.mixed === undefined ? {} : { mixed: roles.mixed }),
  };
}

/** What every party's job of a circuit shares: the parties, who inputs and learns what, the mixed circuit. */
export type RolePlan = Pick<JobPlan, 'names' | 'inputOwners' | 'reveal' | 'mixed'> & {
  /** The circuit's inputs and outputs, in address order. */
  infos: { inputs: CircuitIOInfo[]; outputs: CircuitIOInfo[] };
};

/**
 * The roles of `circuit` (no party's inputs): throws `ConfigError` (field `circuit`),
 * `CircuitError` or `NotAvailableError` as {@link planJob} does.
 */
export function planRoles(circuit: Circuit, shape: CircuitShape): RolePlan {
  const names = partyNames(circuit);
  // Every party computes: 2 to MAX_PARTIES (more than two on Coral only; the session checks it).
  if (names.length < 2 || names.length > MAX_PARTIES) {
    throw new NotAvailableError(
      'parties',
      `${names.length}-party circuits`,
      `the circuit's settings name ${names.length} parties; Chorus runs programs among 2 to ${MAX_PARTIES}`,
    );
  }
  const inputs = byAddress(circuit.info.inputs);
  const outputs = byAddress(circuit.info.outputs);
  if ('parsed' in shape) {
    const { parsed } = shape;
    checkWires(inputs, parsed.inputWidths, 'input', () => 0);
    const outputStart = parsed.wires - parsed.outputWidths.reduce((a, b) => a + b, 0);
    checkWires(outputs, parsed.outputWidths, 'output', () => outputStart);
  } else {
    // One wire per value; the inputs are the first wires (the core checks the rest).
    checkWires(inputs, inputs.map(() => 1), 'input', () => 0);
    const wide = outputs.find((info) => info.width !== 1);
    if (wide !== undefined) throw new CircuitError(`output "${wide.name}" has width ${wide.width}; a mixed circuit's values are one wire each`);
  }

  const owner = new Map<string, number>();
  circuit.mpcSettings.forEach((participant, party) => {
    for (const inputName of participant.inputs) {
      if (owner.has(inputName)) throw new ConfigError('circuit', `input "${inputName}" is given to two parties`);
      owner.set(inputName, party);
    }
  });
  const inputOwners = inputs.map((info) => {
    const party = owner.get(info.name);
    if (party === undefined) throw new ConfigError('circuit', `no party inputs "${info.name}"`);
    return party;
  });
  for (const inputName of owner.keys()) {
    if (!inputs.some((info) => info.name === inputName)) {
      throw new ConfigError('circuit', `mpcSettings give "${inputName}" as an input, but the circuit has no such input`);
    }
  }

  const reveal = outputs.map((info): Recipient => {
    const to = circuit.mpcSettings.flatMap((participant, party) => (participant.outputs.includes(info.name) ? [party] : []));
    if (to.length === 0) throw new ConfigError('circuit', `output "${info.name}" goes to no party`);
    if (to.length === names.length) return 'both';
    if (to.length > 1) {
      throw new NotAvailableError('circuit', 'outputs to some of the parties', `output "${info.name}" goes to ${to.length} of ${names.length} parties; an output goes to one party or to all`);
    }
    return to[0]!;
  });
  for (const participant of circuit.mpcSettings) {
    for (const outputName of participant.outputs) {
      if (!outputs.some((info) => info.name === outputName)) {
        throw new ConfigError('circuit', `mpcSettings give "${outputName}" as an output, but the circuit has no such output`);
      }
    }
  }

  let mixed: MixedCircuit | undefined;
  if ('ring' in shape) {
    const constants = (circuit.info as { constants?: MixedCircuit['info']['constants'] }).constants ?? [];
    mixed = { bristol: circuit.bristol, info: { constants, outputs, inputs } };
  }
  return { names, inputOwners, reveal, infos: { inputs, outputs }, ...(mixed === undefined ? {} : { mixed }) };
}

/** The named outputs of `plan` from the job's output values. */
export function decodeOutputs(plan: JobPlan, values: ReadonlyArray<CircuitValue | undefined>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { name, type, index } of plan.outputs) {
    const value = values[index];
    if (value === undefined) throw new ConfigError('circuit', `output "${name}" was not revealed to this party`);
    result[name] = type === 'bool' ? value.value !== 0n : value.bits.length <= 53 ? Number(value.value) : value.value;
  }
  return result;
}

function checkShape(circuit: Circuit): void {
  const c = circuit as Partial<Circuit> | null;
  const ok =
    typeof c === 'object' &&
    c !== null &&
    typeof c.bristol === 'string' &&
    typeof c.info === 'object' &&
    c.info !== null &&
    Array.isArray(c.info.inputs) &&
    Array.isArray(c.info.outputs) &&
    Array.isArray(c.mpcSettings) &&
    c.mpcSettings.every((p) => typeof p === 'object' && p !== null && Array.isArray(p.inputs) && Array.isArray(p.outputs));
  if (!ok) throw new ConfigError('circuit', 'expected { bristol, info: { inputs, outputs }, mpcSettings } as Summon makes it');
}

function byAddress(infos: readonly CircuitIOInfo[]): CircuitIOInfo[] {
  for (const info of infos) {
    const ok =
      typeof info === 'object' &&
      info !== null &&
      typeof info.name === 'string' &&
      Number.isInteger(info.address) &&
      Number.isInteger(info.width) &&
      info.width > 0;
    if (!ok) throw new ConfigError('circuit', `malformed circuit.info entry ${JSON.stringify(info)}`);
  }
  return [...infos].sort((a, b) => a.address - b.address);
}

/** The named values must be the Bristol circuit's values, in address order, wire for wire. */
function checkWires(infos: CircuitIOInfo[], widths: readonly number[], kind: string, start: () => number): void {
  if (infos.length !== widths.length) {
    throw new CircuitError(`circuit.info names ${infos.length} ${kind}s, the Bristol circuit has ${widths.length} ${kind} values`);
  }
  let address = start();
  infos.forEach((info, i) => {
    if (info.address !== address || info.width !== widths[i]) {
      throw new CircuitError(
        `${kind} "${info.name}" is at wire ${info.address} with width ${info.width}, but the Bristol circuit's ${kind} value ${i} is at wire ${address} with width ${widths[i]}`,
      );
    }
    address += info.width;
  });
}

function checkInputKeys(input: Record<string, unknown>, expected: string[]): void {
  if (typeof input !== 'object' || input === null) throw new ConfigError('input', 'expected an object of named input values');
  const given = Object.keys(input);
  const missing = expected.filter((name) => !given.includes(name));
  const extra = given.filter((name) => !expected.includes(name));
  if (missing.length > 0) throw new ConfigError('input', `missing input ${missing.map((n) => `"${n}"`).join(', ')}`);
  if (extra.length > 0) throw new ConfigError('input', `input ${extra.map((n) => `"${n}"`).join(', ')} is not this party's`);
}

/** One named input value as the unsigned integer of `bits` bits whose bits go on its wires. */
function encodeValue(info: CircuitIOInfo, value: unknown, bits: number): bigint {
  const field = `input.${info.name}`;
  const width = BigInt(bits);
  if (info.type === 'bool') {
    if (typeof value !== 'boolean') throw new ConfigError(field, `expected a boolean, got ${typeof value}`);
    return value ? 1n : 0n;
  }
  if (info.type !== 'number') {
    throw new ConfigError(field, `values of type ${JSON.stringify(info.type)} cannot be encoded (number and bool can)`);
  }
  let integer: bigint;
  if (typeof value === 'bigint') integer = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) integer = BigInt(value);
  else throw new ConfigError(field, `expected an integer (number or bigint), got ${String(value)}`);
  if (integer < -(1n << (width - 1n)) || integer >= 1n << width) {
    throw new ConfigError(field, `${integer} does not fit in ${bits} bits`);
  }
  return integer < 0n ? integer + (1n << width) : integer;
}

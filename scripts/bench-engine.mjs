#!/usr/bin/env node
// The mpc-framework engine benchmark: Summon programs (engine/bench/programs.mjs, from a 32-bit
// comparison to a SHA-256 compression, two-party and, as sha256-compression-3, among three
// parties, all in this process) on ChorusEngine (WASM and the native addon) and on
// emp-wasm-engine, in the same run, alternating engines per round; every party of each run in
// this Node process over an in-memory transport. With --chromium, also in headless Chromium (each
// party in a Web Worker of one page, engines alike).
//
// Engines: chorus-wasm and chorus-native (TinyTable, the engine's default on boolified programs),
// chorus-coral-native (boolean Coral), chorus-mixed-native and chorus-mixed-wasm (the program
// compiled without boolify, on Coral's arithmetic shares; a program one instance of which needs
// more material than the provider gives in one call, such as SHA-256 with its thousands of
// bitwise operations on full values, prints a `skipped` line), and emp (emp-wasm-engine).
//
// Prints one JSON line per program, engine and place:
//   {"program","engine","protocol","circuit","runtime","place","runs","ms","min","max","firstMs",
//    "bytes","messages","flights","andGates"}
// (ms: median over the timed runs after one untimed warm-up; firstMs: that warm-up run, a fresh
// engine's first; bytes and messages: both parties, on the app's transport; flights: maximal runs
// of messages in one direction, the rounds a network sees), then one line per program and place
// with the ratio of emp-wasm-engine's median to each Chorus median.
//
// Usage: node scripts/bench-engine.mjs [--runs 5] [--programs compare32,mul32] [--chromium]
//                                      [--engines chorus-wasm,chorus-native,chorus-mixed-native,emp]
// Needs the workspaces built (npm run build --workspaces) and npm's dev dependencies installed.
import { parseArgs } from 'node:util';
import * as summon from 'summon-ts';
import { Protocol } from 'mpc-framework';
import { EmpWasmEngine } from 'emp-wasm-engine';
import { ChorusEngine } from '@chorus/mpc-framework-engine';
import { PROGRAMS } from '../engine/bench/programs.mjs';
import { median, timedRun } from '../engine/bench/run-program.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    programs: { type: 'string' },
    engines: { type: 'string', default: 'chorus-wasm,chorus-native,emp' },
    chromium: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const wanted = values.programs?.split(',');
const programs = PROGRAMS.filter((p) => wanted === undefined || wanted.includes(p.name));
const engineNames = values.engines.split(',');

const ENGINES = {
  'chorus-wasm': { make: () => new ChorusEngine({ runtime: 'wasm' }), protocol: 'tinytable' },
  'chorus-native': { make: () => new ChorusEngine({ runtime: 'native' }), protocol: 'tinytable' },
  'chorus-coral-native': { make: () => new ChorusEngine({ protocol: 'coral', runtime: 'native' }), protocol: 'coral' },
  'chorus-mixed-native': { make: () => new ChorusEngine({ runtime: 'native' }), protocol: 'coral', mixed: true },
  'chorus-mixed-wasm': { make: () => new ChorusEngine({ runtime: 'wasm' }), protocol: 'coral', mixed: true },
  emp: { make: () => new EmpWasmEngine(), protocol: 'emp-ag2pc' },
};
for (const name of engineNames) if (ENGINES[name] === undefined) throw new Error(`unknown engine ${name}`);

await summon.init();
const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/**
 * The outputs of every engine must agree; a benchmark of wrong answers measures nothing. Numbers
 * are compared as unsigned 32-bit values: emp-wasm-engine reads a 32-bit output with its top bit
 * set as a negative JS number, Chorus (like mpc-framework's plaintext engine) as unsigned.
 */
function checkAgree(program, results) {
  // Summon types a comparison as a number when it does not boolify: booleans compare as 0 and 1.
  const value = (v) => (typeof v === 'number' ? v >>> 0 : typeof v === 'boolean' ? Number(v) : v);
  const unsigned = (outputs) => JSON.stringify(outputs.map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, value(v)]))));
  const reference = unsigned(results[0].outputs);
  for (const r of results) {
    if (unsigned(r.outputs) !== reference) {
      throw new Error(`${program}: ${r.engine} gave ${JSON.stringify(r.outputs)}, ${results[0].engine} ${reference}`);
    }
  }
}

/**
 * The protocol an engine runs a circuit on: the engines' defaults are two-party protocols, and a
 * boolean program of three or more parties runs on n-party TinyOT (Chorus) or emp-agmpc's
 * multi-party garbling (emp-wasm-engine).
 */
function protocolOf(name, circuit) {
  const { protocol } = ENGINES[name];
  if (circuit.mpcSettings.length < 3) return protocol;
  return protocol === 'tinytable' ? 'tinyot' : protocol === 'emp-ag2pc' ? 'emp-agmpc' : protocol;
}

const compiled = programs.map((program) => {
  const { circuit } = summon.compile({ path: '/src/main.ts', boolifyWidth: program.width, files: { '/src/main.ts': program.source } });
  const andGates = circuit.bristol.split('\n').filter((line) => line.endsWith(' AND')).length;
  const mixed = summon.compile({ path: '/src/main.ts', files: { '/src/main.ts': program.source } }).circuit;
  return { program, circuit, mixed, andGates };
});

for (const { program, circuit, mixed, andGates } of compiled) {
  const results = {};
  const circuitOf = (name) => (ENGINES[name].mixed ? mixed : circuit);
  for (const name of engineNames) {
    try {
      const first = await timedRun(Protocol, ENGINES[name].make(), circuitOf(name), program.inputs);
      results[name] = { engine: name, first, timed: [] };
    } catch (error) {
      if (!ENGINES[name].mixed) throw error;
      emit({ program: program.name, engine: name, place: 'node', skipped: String(error.message ?? error).slice(0, 200) });
    }
  }
  const running = engineNames.filter((name) => results[name] !== undefined);
  // A B A B: every engine once per round, so drift in the machine's load hits all alike.
  for (let round = 0; round < runs; round += 1) {
    for (const name of running) results[name].timed.push(await timedRun(Protocol, ENGINES[name].make(), circuitOf(name), program.inputs));
  }
  checkAgree(program.name, [
    { engine: 'plain JS', outputs: Object.keys(program.inputs).map(() => program.expected(program.inputs)) },
    ...running.map((name) => ({ engine: name, outputs: results[name].first.outputs })),
  ]);
  for (const name of running) {
    const { first, timed } = results[name];
    const ms = timed.map((r) => r.ms);
    emit({
      program: program.name,
      engine: name.startsWith('chorus') ? 'chorus' : 'emp-wasm-engine',
      protocol: protocolOf(name, circuitOf(name)),
      circuit: ENGINES[name].mixed ? 'mixed' : 'boolean',
      runtime: name.endsWith('native') ? 'native' : 'wasm',
      place: 'node',
      runs,
      ms: Math.round(median(ms) * 10) / 10,
      min: Math.round(Math.min(...ms) * 10) / 10,
      max: Math.round(Math.max(...ms) * 10) / 10,
      firstMs: Math.round(first.ms * 10) / 10,
      bytes: first.bytes,
      messages: first.messages,
      flights: first.flights,
      andGates,
    });
  }
  if (results.emp !== undefined) {
    const emp = median(results.emp.timed.map((r) => r.ms));
    const ratios = Object.fromEntries(
      running.filter((n) => n !== 'emp').map((n) => [n, Math.round((emp / median(results[n].timed.map((r) => r.ms))) * 100) / 100]),
    );
    emit({ program: program.name, place: 'node', speedupOverEmp: ratios });
  }
}

if (values.chromium) {
  const { runInChromium } = await import('../engine/bench/chromium.mjs');
  const inPage = engineNames.filter((n) => !n.endsWith('native') && !ENGINES[n].mixed);
  for (const line of await runInChromium(compiled, runs, inPage)) emit(line);
}
process.exit(0);

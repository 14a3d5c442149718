/**
 * `@chorus/mpc-framework-engine`: Chorus as an engine of mpc-framework. Summon programs of two
 * parties run on Chorus's two-party protocols (TinyTable by default; MiniMac, Coral) over the
 * app's own transport, in Node (native addon or WASM) and in browsers (WASM); programs of three to
 * eight parties run on Coral over OT among all of them (no dealer), and programs compiled
 * without boolify on Coral's arithmetic shares among 2 to 8 parties.
 *
 * ```ts
 * import { Protocol } from 'mpc-framework';
 * import { ChorusEngine } from '@chorus/mpc-framework-engine';
 * const protocol = new Protocol(circuit, new ChorusEngine());
 * const session = protocol.join('alice', { a: 3 }, (to, msg) => socket.send(to, msg));
 * socket.onMessage((from, msg) => session.handleMessage(from, msg));
 * console.log(await session.output());
 * ```
 *
 * @packageDocumentation
 */
export { ChorusEngine } from './engine.js';
export { ChorusEngineSession, type ChorusEngineEvents, type ChorusRunReport } from './engine-session.js';
export type { ChorusEngineOptions } from './engine-options.js';
export { decodeOutputs, planJob, type JobPlan, type Recipient } from './circuit-plan.js';

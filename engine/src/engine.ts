/**
 * {@link ChorusEngine}: Chorus as an engine of mpc-framework (the `Engine` interface of
 * `mpc-framework-common`). An app that runs Summon programs with `new Protocol(circuit, engine)`
 * passes `new ChorusEngine()` instead of another engine and keeps its own transport; each
 * `protocol.join(name, input, send)` becomes a {@link ChorusEngineSession}.
 */
import type { Circuit, Engine } from 'mpc-framework-common';
import { parseCircuit, warmUpCore, type WarmUpResult } from '@chorus/sdk';
import { isMixed, planRoles } from './circuit-plan.js';
import { ChorusEngineSession } from './engine-session.js';
import { resolveEngineOptions, type ChorusEngineOptions, type ResolvedEngineOptions } from './engine-options.js';
import { chooseProtocol, jobOptions } from './job-options.js';

/** The Chorus engine of mpc-framework. */
export class ChorusEngine implements Engine {
  private readonly options: ResolvedEngineOptions;

  /** Throws `ConfigError` for bad options (every other problem rejects the run's `output()`). */
  constructor(options: ChorusEngineOptions = {}) {
    this.options = resolveEngineOptions(options);
  }

  /**
   * Starts party `name`'s run of `circuit` with its `input`; `send(to, bytes)` reaches party `to`
   * over the app's transport. Never throws: a bad circuit, name or input rejects `output()` with a
   * typed error (`ConfigError`, `CircuitError`, `NotAvailableError`) before anything is sent.
   */
  run(
    circuit: Circuit,
    name: string,
    input: Record<string, unknown>,
    send: (to: string, msg: Uint8Array) => void,
  ): ChorusEngineSession {
    return new ChorusEngineSession(this.options, circuit, name, input, send);
  }

  /**
   * Warms the WASM core up for runs of `circuit` on this engine, before any run — at page load,
   * say, while the users have not met yet — so that the first run executes optimized code (V8
   * optimizes a WASM function only after it has run a while, and never a call already running).
   * Every party of the circuit is run inside this realm's module on the same job with zero inputs,
   * over in-memory channels, a few times (the SDK's `warmUpCore`); nothing is sent and no input
   * is needed. It costs this thread that CPU time; on the native addon it does nothing
   * (`warmed: false`). Rejects with the typed error a run of `circuit` would give.
   */
  async warmUp(circuit: Circuit): Promise<WarmUpResult> {
    const mixed = isMixed(circuit);
    const parsed = mixed ? undefined : await parseCircuit(circuit.bristol);
    const roles = planRoles(circuit, parsed === undefined ? { ring: this.options.ring } : { parsed });
    const protocol = chooseProtocol(this.options.protocol, roles);
    const { runtime, wasm } = this.options;
    return warmUpCore({
      job: 'evaluate',
      circuit: roles.mixed ?? parsed!,
      ...jobOptions(roles, protocol, this.options),
      parties: roles.names.length,
      ...(runtime === undefined ? {} : { runtime }),
      ...(wasm === undefined ? {} : { wasm }),
    } as Parameters<typeof warmUpCore>[0]);
  }
}

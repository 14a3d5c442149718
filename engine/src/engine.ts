/**
 * {@link ChorusEngine}: Chorus as an engine of mpc-framework (the `Engine` interface of
 * `mpc-framework-common`). An app that runs Summon programs with `new Protocol(circuit, engine)`
 * passes `new ChorusEngine()` instead of another engine and keeps its own transport; each
 * `protocol.join(name, input, send)` becomes a {@link ChorusEngineSession}.
 */
import type { Circuit, Engine } from 'mpc-framework-common';
import { ChorusEngineSession } from './engine-session.js';
import { resolveEngineOptions, type ChorusEngineOptions, type ResolvedEngineOptions } from './engine-options.js';

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
}

/**
 * From a circuit's roles and the engine's options to the options of the SDK's circuit job: the
 * protocol a run takes, and the job options every party of a run and its warm-up share (the
 * warm-up runs the same job's code, so it must be given the same options).
 */
import { NotAvailableError } from '@chorus/sdk';
import type { RolePlan } from './circuit-plan.js';
import type { ResolvedEngineOptions } from './engine-options.js';

/** The protocols the engine runs. */
export type EngineProtocol = 'tinytable' | 'minimac' | 'coral' | 'tinyot';

/**
 * The protocol of a run: the option, or (`'auto'`) Coral for programs compiled without boolify
 * (the one protocol with arithmetic gates), TinyOT for boolified programs of more than two
 * parties (one instance per run: TinyOT pays one triple per AND gate where Coral pays a pack of
 * 14), and TinyTable otherwise. More than two parties on TinyTable is NotAvailable.
 */
export function chooseProtocol(option: ResolvedEngineOptions['protocol'], roles: Pick<RolePlan, 'names' | 'mixed'>): EngineProtocol {
  const parties = roles.names.length;
  const protocol = option !== 'auto' ? option : roles.mixed !== undefined ? 'coral' : parties > 2 ? 'tinyot' : 'tinytable';
  if (parties > 2 && protocol === 'tinytable') {
    throw new NotAvailableError('protocol', `tinytable among ${parties} parties`, 'TinyTable takes two computing parties; TinyOT, MiniMac and Coral run among 2 to 8');
  }
  return protocol;
}

/** `Session.evaluate`'s options for a run of `roles` on `protocol`, without inputs. */
export function jobOptions(roles: Pick<RolePlan, 'inputOwners' | 'reveal' | 'mixed'>, protocol: EngineProtocol, options: ResolvedEngineOptions) {
  return {
    protocol,
    ...(protocol === 'tinytable' ? { security: options.security } : {}),
    ...(roles.mixed !== undefined ? { ring: options.ring } : {}),
    inputOwners: roles.inputOwners,
    reveal: roles.reveal,
  };
}

/**
 * From a circuit's roles and the engine's options to the options of the SDK's circuit job: the
 * protocol a run takes, and the job options every party of a run and its warm-up share (the
 * warm-up runs the same job's code, so it must be given the same options).
 */
import { NotAvailableError } from '@chorus/sdk';
import type { RolePlan } from './circuit-plan.js';
import type { ResolvedEngineOptions } from './engine-options.js';

/** The protocols the engine runs. */
export type EngineProtocol = 'tinytable' | 'minimac' | 'coral';

/**
 * The protocol of a run: the option, or (`'auto'`) Coral for programs compiled without boolify
 * and for more than two parties — the one protocol whose material is made among any number of
 * parties over OT — and TinyTable otherwise. More than two parties on another is NotAvailable.
 */
export function chooseProtocol(option: ResolvedEngineOptions['protocol'], roles: Pick<RolePlan, 'names' | 'mixed'>): EngineProtocol {
  const parties = roles.names.length;
  const protocol = option !== 'auto' ? option : roles.mixed !== undefined || parties > 2 ? 'coral' : 'tinytable';
  if (parties > 2 && protocol === 'tinytable') {
    throw new NotAvailableError('protocol', `tinytable among ${parties} parties`, 'TinyTable takes two computing parties; MiniMac and Coral run among 2 to 8');
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

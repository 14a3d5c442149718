// Loads the Chorus Node-API addon (`chorus.node`, built from source by `npm run build` in this
// package: `napi build` runs cargo on the `chorus-node` crate). Importing this module throws when
// the addon is missing, was built for another platform or Node ABI, or fails to load; the SDK's
// runtime 'auto' then falls back to WASM.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const addon = require('./chorus.node');

/** One party's end of one session (see `index.d.ts`). */
export const Bridge = addon.Bridge;
/** One party's relay membership served by the addon itself (see `index.d.ts`). */
export const RelayLink = addon.RelayLink;
/** The version of the Chorus core compiled into the addon. */
export const version = addon.version;

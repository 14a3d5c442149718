/**
 * The Chorus TypeScript SDK.
 *
 * This package currently exports only its version: the session API (`connect`, `session.aes`,
 * `session.evaluate`) arrives with the vertical-slice issue, on top of the WASM bindings in `wasm/`
 * and the relay in `server/`.
 */

/** The SDK version, kept equal to the package version. */
export const VERSION = '0.1.0';

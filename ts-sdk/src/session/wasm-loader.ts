/**
 * Loads the Chorus WASM module (built by `scripts/build-wasm.sh` into `ts-sdk/wasm/` with
 * wasm-bindgen's `web` target) once per JavaScript realm. One artifact serves every platform: in Node
 * the bytes are read with `fs` from the package's `wasm/` directory, in browsers the glue fetches
 * `chorus_wasm_bg.wasm` beside itself (beside the bundle, for the esbuild bundle). Applications that
 * serve the module elsewhere call {@link initWasm} with its URL, bytes or compiled module first.
 */
import init, { Bridge, parseCircuit as parseCircuitWasm, warmUp as warmUpWasm } from '../../wasm/chorus_wasm.js';
import { ConfigError } from '../errors.js';

export { Bridge, parseCircuitWasm, warmUpWasm };

/** Where the module can come from: a URL, its bytes, a compiled module, or a fetch `Response`. */
export type WasmSource = string | URL | BufferSource | WebAssembly.Module | Response;

/** `node:fs/promises` kept in a variable so browser bundlers leave the import alone. */
const FS_MODULE = 'node:fs/promises';

let loading: Promise<void> | undefined;

function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

async function load(source: WasmSource | undefined): Promise<void> {
  if (source !== undefined) {
    await init({ module_or_path: source });
    return;
  }
  if (isNode()) {
    const fs = (await import(/* @vite-ignore */ FS_MODULE)) as {
      readFile(path: URL): Promise<Uint8Array>;
    };
    const bytes = await fs.readFile(new URL('../../wasm/chorus_wasm_bg.wasm', import.meta.url));
    await init({ module_or_path: bytes as BufferSource });
    return;
  }
  await init();
}

/**
 * Loads and instantiates the WASM module if that has not happened yet; later calls return the same
 * promise. `source` overrides where the module comes from (only the first call's source counts).
 * Rejects with a {@link ConfigError} (`field: 'wasm'`) when the module cannot be loaded.
 */
export function initWasm(source?: WasmSource): Promise<void> {
  if (loading === undefined) {
    loading = load(source).catch((error: unknown) => {
      loading = undefined;
      throw new ConfigError('wasm', `the Chorus WASM module could not be loaded: ${String(error)}`);
    });
  }
  return loading;
}

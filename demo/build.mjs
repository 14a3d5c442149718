#!/usr/bin/env node
/**
 * Builds the browser demo into `demo/dist/` (served by the relay with `--static demo/dist`):
 * esbuild bundles the page script and the party worker (the worker bundles the SDK, whose WASM
 * module is copied beside it), and the HTML and CSS are copied as they are.
 * Needs the SDK built first (`npm run build -w @chorus/sdk`). Usage: npm run build -w @chorus/demo
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const out = here('./dist/');
const wasm = here('../ts-sdk/wasm/chorus_wasm_bg.wasm');
if (!existsSync(wasm)) {
  console.error(`missing ${wasm}: build the SDK first (npm run build -w @chorus/sdk)`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [here('./src/app.js'), here('./src/party-worker.js')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outdir: out,
  logLevel: 'warning',
});
for (const file of ['index.html', 'style.css']) copyFileSync(here(`./src/${file}`), `${out}${file}`);
copyFileSync(wasm, `${out}chorus_wasm_bg.wasm`);
console.log(`demo built into ${out}`);

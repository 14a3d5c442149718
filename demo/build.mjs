#!/usr/bin/env node
/**
 * Builds the browser demo into `demo/dist/` (served by the relay with `--static demo/dist`):
 * esbuild bundles the page scripts and the party worker (the worker and the Summon page bundle the
 * SDK, whose WASM module is copied beside them; the Summon page also bundles summon-ts, mpc-framework
 * and the Chorus engine), and the HTML and CSS are copied as they are.
 * Needs the SDK and the engine built first (`npm run build -w @chorus/sdk -w @chorus/mpc-framework-engine`). Usage: npm run build -w @chorus/demo
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
  entryPoints: [here('./src/app.js'), here('./src/party-worker.js'), here('./src/summon.js')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  outdir: out,
  logLevel: 'warning',
});
for (const file of ['index.html', 'summon.html', 'style.css']) copyFileSync(here(`./src/${file}`), `${out}${file}`);
copyFileSync(wasm, `${out}chorus_wasm_bg.wasm`);
console.log(`demo built into ${out}`);

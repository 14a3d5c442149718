// The Chromium half of scripts/bench-engine.mjs: bundles bench-worker.js (esbuild; the Chorus
// WASM module beside it), serves it on loopback, and in one headless Chromium page (Debian's
// chromium, driven by playwright-core) runs each program with each party in a Web Worker of its
// own, the two talking over a MessageChannel. Engines alternate per round as in Node.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { median } from './run-program.mjs';

const CHROMIUM = process.env.CHORUS_CHROMIUM ?? '/usr/bin/chromium';
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The page: two workers, `runOnce(engine, circuit, inputs)` and `warm(circuit)` (each worker's module). */
export const BENCH_PAGE = `<!doctype html><meta charset="utf-8"><title>engine bench</title><script>
window.workers = [new Worker('bench-worker.js', { type: 'module' }), new Worker('bench-worker.js', { type: 'module' })];
window.runOnce = (engine, circuit, inputs) => {
  const names = circuit.mpcSettings.map((p, i) => p.name ?? String(i));
  const channel = new MessageChannel();
  const started = performance.now();
  return Promise.all(names.map((name, i) => new Promise((resolve, reject) => {
    const worker = window.workers[i];
    worker.onmessage = ({ data }) => (data.ok ? resolve(data) : reject(new Error(data.error)));
    const port = i === 0 ? channel.port1 : channel.port2;
    worker.postMessage({ type: 'run', engine, circuit, name, peer: names[1 - i], input: inputs[name], port }, [port]);
  }))).then((parties) => ({ ms: performance.now() - started, parties }));
};
window.warm = (circuit) => Promise.all(window.workers.map((worker) => new Promise((resolve, reject) => {
  worker.onmessage = ({ data }) => (data.ok ? resolve(data) : reject(new Error(data.error)));
  worker.postMessage({ type: 'warm', circuit });
})));
</script>`;

/**
 * Bundles `worker` (a path beside this file) as `bench-worker.js` with the Chorus WASM module
 * beside it, serves it and `page` on loopback, opens the page in a fresh headless Chromium, and
 * calls `use(page)`; everything is torn down afterwards.
 */
export async function withChromiumPage(worker, page, use) {
  const dir = mkdtempSync(join(tmpdir(), 'chorus-engine-bench-'));
  await build({
    entryPoints: { 'bench-worker': here(worker) },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: dir,
    logLevel: 'warning',
  });
  copyFileSync(here('../../ts-sdk/wasm/chorus_wasm_bg.wasm'), join(dir, 'chorus_wasm_bg.wasm'));
  writeFileSync(join(dir, 'index.html'), page);
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const file = (req.url === '/' ? '/index.html' : req.url).split('?')[0];
    try {
      const body = readFileSync(join(dir, file));
      res.writeHead(200, { 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    return await use(tab);
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `compiled` programs in Chromium; returns the JSON lines (as objects). */
export async function runInChromium(compiled, runs, engineNames) {
  return withChromiumPage('./bench-worker.js', BENCH_PAGE, async (page) => {
    const lines = [];
    for (const { program, circuit, andGates } of compiled) {
      const results = {};
      for (const engine of engineNames) {
        results[engine] = { first: await page.evaluate(([e, c, i]) => window.runOnce(e, c, i), [engine, circuit, program.inputs]), timed: [] };
      }
      for (let round = 0; round < runs; round += 1) {
        for (const engine of engineNames) {
          results[engine].timed.push(await page.evaluate(([e, c, i]) => window.runOnce(e, c, i), [engine, circuit, program.inputs]));
        }
      }
      for (const engine of engineNames) {
        const { first, timed } = results[engine];
        const ms = timed.map((r) => r.ms);
        lines.push({
          program: program.name,
          engine: engine === 'emp' ? 'emp-wasm-engine' : 'chorus',
          runtime: 'wasm',
          place: 'chromium',
          runs,
          ms: Math.round(median(ms) * 10) / 10,
          min: Math.round(Math.min(...ms) * 10) / 10,
          max: Math.round(Math.max(...ms) * 10) / 10,
          firstMs: Math.round(first.ms * 10) / 10,
          bytes: first.parties.reduce((sum, p) => sum + p.bytes, 0),
          messages: first.parties.reduce((sum, p) => sum + p.messages, 0),
          andGates,
        });
      }
      if (results.emp !== undefined) {
        const emp = median(results.emp.timed.map((r) => r.ms));
        const chorus = median(results['chorus-wasm'].timed.map((r) => r.ms));
        lines.push({ program: program.name, place: 'chromium', speedupOverEmp: { 'chorus-wasm': Math.round((emp / chorus) * 100) / 100 } });
      }
    }
    return lines;
  });
}

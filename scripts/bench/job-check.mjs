// The cost of the SDK's job check (the bridge's checkAes / checkCircuit, the Rust validation every
// job runs before it starts) in both runtimes: µs per AES check, ms per check of the AES-128 Bristol
// circuit (parsed once, then kept). After npm run build -w @chorus/sdk: node scripts/bench/job-check.mjs
import { readFileSync } from 'node:fs';
import { loadRuntime } from '../../ts-sdk/dist/index.js';
for (const name of ['native', 'wasm']) {
  const rt = await loadRuntime(name);
  const b = rt.createBridge(0, 3, () => {});
  const spec = { variant: 'lut16' }, input = { keyShare: new Uint8Array(16) };
  for (let i = 0; i < 200; i++) b.checkAes(spec, input);
  const n = 5000, t = performance.now();
  for (let i = 0; i < n; i++) b.checkAes(spec, input);
  const aesUs = (performance.now() - t) / n * 1000;
  const circuit = readFileSync(new URL('../../circuits/aes_128.txt', import.meta.url), 'utf8');
  const b2 = rt.createBridge(0, 2, () => {});
  const cspec = { circuit }, cinput = { values: [new Uint8Array(128), undefined] };
  const t2 = performance.now();
  for (let i = 0; i < 20; i++) b2.checkCircuit(cspec, cinput);
  console.log(JSON.stringify({ runtime: name, check_aes_us: +aesUs.toFixed(1), check_circuit_aes128_ms: +((performance.now() - t2) / 20).toFixed(2) }));
}

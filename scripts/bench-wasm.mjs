#!/usr/bin/env node
/**
 * Kernel benchmarks in WASM under Node: the Reed-Solomon encoders, GF(2^8) bulk operations, the
 * GF(2^64) inner product, Coral's embedding maps and AES-128 (the bit-sliced `simd128` AES beside
 * the `aes` crate), as compiled for the browser (wasm32 +
 * simd128). Prints one JSON line per kernel: median ns per operation over 7 timed batches, after
 * a warm-up batch. Run after `bash scripts/build-wasm.sh`:
 *
 *   node scripts/bench-wasm.mjs [batch-milliseconds]
 *   node scripts/bench-wasm.mjs --check    # only the wasm32 kernel self-checks, exit 1 on failure
 *
 * Before timing anything it runs the module's self-checks inside WASM: the carry-less
 * multiplication backends (portable and simd128) against the schoolbook product, the verification
 * kernels and the OT transpose against their portable forms, and the bit-sliced AES against the
 * `aes` crate.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const wasmDir = new URL('../ts-sdk/wasm/', import.meta.url);
const glue = await import(new URL('chorus_wasm.js', wasmDir).href);
glue.initSync({ module: readFileSync(fileURLToPath(new URL('chorus_wasm_bg.wasm', wasmDir))) });

const checkOnly = process.argv[2] === '--check';
try {
  const backends = glue.KernelBench.selfCheck(checkOnly ? 20000 : 2000);
  console.log(JSON.stringify({ runtime: `wasm-node-${process.versions.node}`, self_check: 'ok', clmul_backends: backends }));
} catch (e) {
  console.error(`wasm self-check failed: ${e.message ?? e}`);
  process.exit(1);
}
if (checkOnly) process.exit(0);

const targetMs = Number(process.argv[2] ?? 300);
const bench = new glue.KernelBench();
for (const entry of glue.KernelBench.kernels()) {
  const [kernel, what] = entry.split(': ');
  // Calibrate a batch size that takes about targetMs, then time 7 batches.
  let iterations = 1;
  for (;;) {
    const t0 = performance.now();
    bench.run(kernel, iterations);
    const ms = performance.now() - t0;
    if (ms > targetMs / 4 || iterations > 1 << 28) {
      iterations = Math.max(1, Math.round((iterations * targetMs) / Math.max(ms, 0.001)));
      break;
    }
    iterations *= 4;
  }
  const samples = [];
  for (let s = 0; s < 7; s++) {
    const t0 = performance.now();
    bench.run(kernel, iterations);
    samples.push(((performance.now() - t0) * 1e6) / iterations);
  }
  samples.sort((a, b) => a - b);
  const ns = samples[3];
  console.log(JSON.stringify({ runtime: `wasm-node-${process.versions.node}`, kernel, op: what, ns_per_op: Number(ns.toFixed(2)), ops_per_s: Math.round(1e9 / ns) }));
}

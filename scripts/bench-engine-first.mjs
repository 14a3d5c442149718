#!/usr/bin/env node
// The first run of a fresh process on ChorusEngine in WASM, with and without `engine.warmUp`
// beforehand: V8 runs a WASM function in its baseline tier until it has run a while, so a
// process's first run is its slowest. Each sample is a fresh Node process (both parties in it,
// over the in-memory transport of engine/bench/run-program.mjs); cold and warmed processes
// alternate, so drift in the machine's load hits both alike.
//
// Prints one JSON line per program and mode:
//   {"program","mode","runs","firstMs","min","max","warmUpMs"}
// (firstMs: median over the processes of the first run's wall time, Protocol.join to every
// output; warmUpMs: the median warm-up time, untimed in firstMs), then per program the ratio of the
// cold median to the warmed one, and the median of a later run in the warmed process (`steadyMs`).
//
// With --chromium, each sample is a fresh headless Chromium instead (Debian's chromium, driven by
// playwright-core): one page, each party in a Web Worker of its own (engine/bench/chromium.mjs),
// and a warmed sample warms each worker's module before the first run.
//
// Usage: node scripts/bench-engine-first.mjs [--runs 5] [--programs compare32,mul32] [--chromium]
// Needs the workspaces built (npm run build --workspaces) and npm's dev dependencies installed.
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    programs: { type: 'string', default: 'compare32,sha256-compression' },
    child: { type: 'string' },
    warm: { type: 'boolean', default: false },
    chromium: { type: 'boolean', default: false },
  },
});

if (values.child !== undefined) {
  // One sample: this process's first run of one program, warmed first or not.
  const summon = await import('summon-ts');
  const { Protocol } = await import('mpc-framework');
  const { ChorusEngine } = await import('@chorus/mpc-framework-engine');
  const { PROGRAMS } = await import('../engine/bench/programs.mjs');
  const { timedRun } = await import('../engine/bench/run-program.mjs');
  await summon.init();
  const program = PROGRAMS.find((p) => p.name === values.child);
  const { circuit } = summon.compile({ path: '/src/main.ts', boolifyWidth: program.width, files: { '/src/main.ts': program.source } });
  const engine = new ChorusEngine({ runtime: 'wasm' });
  let warmUpMs = 0;
  if (values.warm) {
    const result = await engine.warmUp(circuit);
    if (!result.warmed) throw new Error('the warm-up did not run');
    warmUpMs = result.timeMs;
  }
  const first = await timedRun(Protocol, engine, circuit, program.inputs);
  const later = await timedRun(Protocol, engine, circuit, program.inputs);
  if (JSON.stringify(first.outputs) !== JSON.stringify(later.outputs)) throw new Error('two runs disagree');
  process.stdout.write(JSON.stringify({ firstMs: first.ms, laterMs: later.ms, warmUpMs }));
  process.exit(0);
}

/** One Chromium sample: a fresh browser's first and second run of `program`, warmed first or not. */
async function chromiumSample(program, warm) {
  const summon = await import('summon-ts');
  const { PROGRAMS } = await import('../engine/bench/programs.mjs');
  const { BENCH_PAGE, withChromiumPage } = await import('../engine/bench/chromium.mjs');
  await summon.init();
  const { source, width, inputs } = PROGRAMS.find((p) => p.name === program);
  const { circuit } = summon.compile({ path: '/src/main.ts', boolifyWidth: width, files: { '/src/main.ts': source } });
  return withChromiumPage('./bench-worker.js', BENCH_PAGE, async (page) => {
    let warmUpMs = 0;
    if (warm) warmUpMs = Math.max(...(await page.evaluate((c) => window.warm(c), circuit)).map((w) => w.timeMs));
    const run = () => page.evaluate(([c, i]) => window.runOnce('chorus-wasm', c, i), [circuit, inputs]);
    const first = await run();
    const later = await run();
    if (JSON.stringify(first.parties.map((p) => p.outputs)) !== JSON.stringify(later.parties.map((p) => p.outputs))) {
      throw new Error('two runs disagree');
    }
    return { firstMs: first.ms, laterMs: later.ms, warmUpMs };
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x) => Math.round(x * 10) / 10;
const self = fileURLToPath(import.meta.url);
for (const program of values.programs.split(',')) {
  const samples = { cold: [], warmed: [] };
  for (let i = 0; i < Number(values.runs); i += 1) {
    for (const mode of ['cold', 'warmed']) {
      if (values.chromium) {
        samples[mode].push(await chromiumSample(program, mode === 'warmed'));
        continue;
      }
      const args = [self, '--child', program, ...(mode === 'warmed' ? ['--warm'] : [])];
      samples[mode].push(JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })));
    }
  }
  for (const mode of ['cold', 'warmed']) {
    const first = samples[mode].map((s) => s.firstMs);
    process.stdout.write(`${JSON.stringify({
      program,
      place: values.chromium ? 'chromium' : 'node',
      mode,
      runs: first.length,
      firstMs: round(median(first)),
      min: round(Math.min(...first)),
      max: round(Math.max(...first)),
      warmUpMs: round(median(samples[mode].map((s) => s.warmUpMs))),
    })}\n`);
  }
  const ratio = median(samples.cold.map((s) => s.firstMs)) / median(samples.warmed.map((s) => s.firstMs));
  const steadyMs = round(median(samples.warmed.map((s) => s.laterMs)));
  process.stdout.write(`${JSON.stringify({ program, coldOverWarmed: Math.round(ratio * 100) / 100, steadyMs })}\n`);
}

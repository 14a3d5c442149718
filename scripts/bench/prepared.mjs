// Preprocessing ahead of time (`session.prepare`) against preprocessing inside each job: two
// TinyTable parties (malicious, k = 64, FIPS-197 inputs) in one Node process through a relay on
// loopback, per runtime and AES path (`circuit`: the key XOR-shared; `sbox-tables`: the key at
// party 0, tables from the §4 construction). Prints one JSON line per runtime and path: the
// preparation of N blocks (ms, MB sent per party), then N one-block jobs on the prepared material
// (median ms per job, bytes per job), and one one-block job that makes its own material.
// After npm run build --workspaces:
//   node scripts/bench/prepared.mjs [blocks=16] [runtimes=native,wasm] [paths=circuit]
import { startRelay } from '../../server/dist/index.js';
import { connect, createRoom } from '../../ts-sdk/dist/index.js';

const blocks = Number(process.argv[2] ?? 16);
const runtimes = (process.argv[3] ?? 'native,wasm').split(',');
const paths = (process.argv[4] ?? 'circuit').split(',');
const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const PT = '00112233445566778899aabbccddeeff';
const CT = '69c4e0d86a7b0430d8cdb78070b4c55a';
const share0 = Buffer.alloc(16, 0x3c);
const share1 = Buffer.from(KEY.map((b, i) => b ^ share0[i]));
const OPTS = {
  circuit: { protocol: 'tinytable', security: 'malicious', macBits: 64, keyHolders: [0, 1], plaintextOwner: 1 },
  'sbox-tables': { protocol: 'tinytable', path: 'sbox-tables', security: 'malicious', macBits: 64, keyHolders: [0], plaintextOwner: 1 },
};
const INPUTS = {
  circuit: [{ key: share0 }, { key: share1, plaintext: PT }],
  'sbox-tables': [{ key: KEY }, { plaintext: PT }],
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const relay = await startRelay({ host: '127.0.0.1', port: 0, roomRatePerMinute: 1_000_000, upgradeRatePerMinute: 1_000_000 });
try {
  for (const [runtime, path] of runtimes.flatMap((r) => paths.map((p) => [r, p]))) {
    const opts = OPTS[path];
    if (!opts) throw new Error(`unknown path ${path} (circuit, sbox-tables)`);
    const mine = INPUTS[path].map((input) => ({ ...opts, ...input }));
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), secret, runtime })));
    try {
      // Warm-up: opens the channels and compiles the code paths.
      await Promise.all(sessions.map((s, i) => s.aes({ ...mine[i], usePrepared: false })));
      let t = performance.now();
      const made = await Promise.all(sessions.map((s) => s.prepare({ job: 'aes', ...opts, blocks })));
      const prepareMs = performance.now() - t;
      const jobMs = [];
      let jobBytes = 0;
      for (let b = 0; b < blocks; b++) {
        t = performance.now();
        const r = await Promise.all(sessions.map((s, i) => s.aes({ ...mine[i], usePrepared: true })));
        jobMs.push(performance.now() - t);
        if (r[1].ciphertextHex !== CT) throw new Error(`wrong ciphertext ${r[1].ciphertextHex}`);
        jobBytes = Math.max(r[0].stats.bytesSent, r[1].stats.bytesSent);
      }
      t = performance.now();
      const inline = await Promise.all(sessions.map((s, i) => s.aes({ ...mine[i], usePrepared: false })));
      const inlineMs = performance.now() - t;
      if (inline[1].ciphertextHex !== CT) throw new Error('wrong ciphertext inline');
      const preparedBytes = Math.max(...made.map((m) => m.stats.bytesSent));
      console.log(
        JSON.stringify({
          bench: 'tinytable-prepared',
          runtime,
          path,
          security: 'malicious',
          mac_bits: 64,
          blocks,
          prepare_ms: +prepareMs.toFixed(1),
          prepare_ms_per_block: +(prepareMs / blocks).toFixed(2),
          prepare_mb_per_party: +(preparedBytes / 1e6).toFixed(2),
          prepared_job_ms_median: +median(jobMs).toFixed(2),
          prepared_job_bytes_per_party: jobBytes,
          total_ms_per_aes: +((prepareMs + jobMs.reduce((a, b) => a + b, 0)) / blocks).toFixed(2),
          inline_job_ms: +inlineMs.toFixed(1),
          inline_job_mb_per_party: +(Math.max(...inline.map((r) => r.stats.bytesSent)) / 1e6).toFixed(2),
        }),
      );
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
  }
} finally {
  await relay.close();
}

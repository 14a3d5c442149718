// One three-party AES-128 in WASM, in one Node process, for the side-by-side comparison with
// emp-wasm's multi-party mode (docs/performance.md, "MiniMac among three parties over OT, and three
// parties in WASM against emp-wasm").
//
//   node scripts/bench-three-wasm.mjs chorus   # Chorus SDK, runtime 'wasm', Coral over OT
//   node scripts/bench-three-wasm.mjs emp      # npm emp-wasm (emp-wasm-engine's dependency), mode 'mpc'
//
// Both engines run their three parties over the same kind of in-memory transport (each message
// copied and delivered in order on a microtask). Roles: key XOR-shares from parties 0 and 1, the
// plaintext from party 2, the ciphertext to all three; every party's output is checked against
// FIPS-197 C.1 (exit code 1 otherwise). One JSON line: `ms` from the engine's first call (Chorus:
// `connect`; emp-wasm: `secureMPC`) until all three outputs are back, bytes and messages each party
// sent, and the process's RSS. Time it as a whole process, alternating the two commands.
// Needs `npm run build -w @chorus/sdk` first. The parts shared with bench-two-wasm.mjs are in
// bench/in-memory-aes.mjs.
import { chorusSessions, chorusSummary, empAes, FIPS_PT, inMemoryNetwork, KEY_SHARES, runBench } from './bench/in-memory-aes.mjs';

const net = inMemoryNetwork(3);

async function chorus() {
  const sessions = await chorusSessions(net, `three-${process.pid}`);
  const inputs = [{ key: KEY_SHARES[0] }, { key: KEY_SHARES[1] }, { plaintext: FIPS_PT }];
  const results = await Promise.all(sessions.map((s, p) => s.aes({ protocol: 'coral', ...inputs[p] })));
  sessions.forEach((s) => s.close());
  return chorusSummary(results);
}

/** emp-wasm's circuit: the project's AES-128 with 128 XOR gates in front that join the key shares. */
async function emp() {
  const outputs = await empAes(net, { inputs: [KEY_SHARES[0], KEY_SHARES[1], FIPS_PT], mode: 'mpc', joinShares: true });
  return { outputs };
}

await runBench('scripts/bench-three-wasm.mjs', net, { chorus, emp });

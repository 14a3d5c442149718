// One three-party AES-128 in WASM, for the side-by-side comparison with emp-wasm's multi-party
// mode (docs/performance.md, "MiniMac among three parties over OT, and three parties in WASM
// against emp-wasm").
//
//   node scripts/bench-three-wasm.mjs chorus [--tcp] [--protocol coral|tinyot]
//                                                      # Chorus SDK, runtime 'wasm', over OT (Coral default)
//   node scripts/bench-three-wasm.mjs emp [--tcp]      # npm emp-wasm (emp-wasm-engine's dependency), mode 'mpc'
//
// Both engines run over the same links: without `--tcp` all three parties in this Node process
// (each message copied and delivered in order on a microtask), with it one Node process per party
// over TCP on loopback. Roles: key XOR-shares from parties 0 and 1, the plaintext from party 2,
// the ciphertext to all three; every party's output is checked against FIPS-197 C.1 (exit code 1
// otherwise). One JSON line: `ms` from the engine's first call (Chorus: `connect`; emp-wasm:
// `secureMPC`) until the last output is back, bytes and messages each party sent, and RSS. Time
// it as a whole process, alternating the two commands. Needs `npm run build -w @chorus/sdk`
// first. The parts shared with bench-two-wasm.mjs are in bench/wasm-aes.mjs.
import { chorusSession, chorusSummary, empAes, FIPS_PT, KEY_SHARES, runBench } from './bench/wasm-aes.mjs';

const inputs = [KEY_SHARES[0], KEY_SHARES[1], FIPS_PT];
const at = process.argv.indexOf('--protocol');
const protocol = at > 0 ? process.argv[at + 1] : 'coral';
if (!['coral', 'tinyot'].includes(protocol)) throw new Error(`--protocol coral or tinyot, got ${protocol}`);

async function chorus(links, me, runId) {
  const session = await chorusSession(links, me, `three-${runId}`);
  const result = await session.aes({ protocol, ...(me === 2 ? { plaintext: inputs[2] } : { key: inputs[me] }) });
  session.close();
  return chorusSummary(result);
}

/** emp-wasm's circuit: the project's AES-128 with 128 XOR gates in front that join the key shares. */
async function emp(links, me) {
  return { output: await empAes(links, me, { inputs, mode: 'mpc', joinShares: true }) };
}

await runBench('scripts/bench-three-wasm.mjs', 3, { chorus, emp });

// One two-party AES-128 in WASM, in one Node process, for the side-by-side comparison with
// emp-wasm's two-party mode (emp-ag2pc), the two-party counterpart of bench-three-wasm.mjs.
//
//   node scripts/bench-two-wasm.mjs chorus   # Chorus SDK, runtime 'wasm', TinyTable (malicious, OT)
//   node scripts/bench-two-wasm.mjs emp      # npm emp-wasm (emp-wasm-engine's dependency), mode '2pc'
//
// Both engines run their two parties over the same kind of in-memory transport (each message
// copied and delivered in order on a microtask). Roles: the key from party 0, the plaintext from
// party 1, the ciphertext to both; every party's output is checked against FIPS-197 C.1 (exit
// code 1 otherwise). Chorus runs TinyTable at its defaults (the circuit path, preprocessing over
// OT between the two parties: nobody else trusted) with `security: 'malicious'`; emp-wasm runs the
// project's circuits/aes_128.txt in old Bristol form. One JSON line: `ms` from the engine's first
// call (Chorus: `connect`; emp-wasm: `secureMPC`) until both outputs are back, bytes and messages
// each party sent, and the process's RSS. Time it as a whole process, alternating the two
// commands. Needs `npm run build -w @chorus/sdk` first. The parts shared with
// bench-three-wasm.mjs are in bench/in-memory-aes.mjs.
import { chorusSessions, chorusSummary, empAes, FIPS_KEY, FIPS_PT, inMemoryNetwork, runBench } from './bench/in-memory-aes.mjs';

const net = inMemoryNetwork(2);

async function chorus() {
  const sessions = await chorusSessions(net, `two-${process.pid}`);
  // The roles spelled out are TinyTable's defaults; path and preprocessing are left at theirs.
  const options = { protocol: 'tinytable', security: 'malicious', keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
  const inputs = [{ key: FIPS_KEY }, { plaintext: FIPS_PT }];
  const results = await Promise.all(sessions.map((s, p) => s.aes({ ...options, ...inputs[p] })));
  sessions.forEach((s) => s.close());
  // What ran: the path and the source of the preprocessing (expected 'circuit' and 'ot').
  return { ...chorusSummary(results), path: results[0].variant, preprocessing: results[0].preprocessing };
}

/** emp-wasm's circuit: the project's AES-128 as it is (party 0 the key, party 1 the plaintext). */
async function emp() {
  const outputs = await empAes(net, { inputs: [FIPS_KEY, FIPS_PT], mode: '2pc', joinShares: false });
  return { outputs };
}

await runBench('scripts/bench-two-wasm.mjs', net, { chorus, emp });

// One two-party AES-128 in WASM in a fresh session, for the side-by-side comparison with
// emp-wasm's two-party mode (emp-ag2pc), the two-party counterpart of bench-three-wasm.mjs.
//
//   node scripts/bench-two-wasm.mjs chorus [--tcp]   # Chorus SDK, runtime 'wasm', TinyTable (malicious, OT)
//   node scripts/bench-two-wasm.mjs emp [--tcp]      # npm emp-wasm (emp-wasm-engine's dependency), mode '2pc'
//
// Both engines run over the same links: without `--tcp` both parties in this Node process (each
// message copied and delivered in order on a microtask), with it one Node process per party over
// TCP on loopback. Roles: the key from party 0, the plaintext from party 1, the ciphertext to both;
// every party's output is checked against FIPS-197 C.1 (exit code 1 otherwise). Chorus runs
// TinyTable at its defaults (the circuit path, preprocessing over OT between the two parties:
// nobody else trusted) with `security: 'malicious'`; emp-wasm runs the project's
// circuits/aes_128.txt in old Bristol form. One JSON line: `ms` from the engine's first call
// (Chorus: `connect`; emp-wasm: `secureMPC`) until the last output is back, bytes and messages
// each party sent, and RSS. Time it as a whole process, alternating the two commands. Needs
// `npm run build -w @chorus/sdk` first. The parts shared with bench-three-wasm.mjs are in
// bench/wasm-aes.mjs.
import { chorusSession, chorusSummary, empAes, FIPS_KEY, FIPS_PT, runBench } from './bench/wasm-aes.mjs';

const inputs = [FIPS_KEY, FIPS_PT];

async function chorus(links, me, runId) {
  const session = await chorusSession(links, me, `two-${runId}`);
  // The roles spelled out are TinyTable's defaults; path and preprocessing are left at theirs.
  const options = { protocol: 'tinytable', security: 'malicious', keyHolders: [0], plaintextOwner: 1, reveal: [0, 1] };
  const result = await session.aes({ ...options, ...(me === 0 ? { key: inputs[0] } : { plaintext: inputs[1] }) });
  session.close();
  // What ran: the path and the source of the preprocessing (expected 'circuit' and 'ot').
  return { ...chorusSummary(result), path: result.variant, preprocessing: result.preprocessing };
}

/** emp-wasm's circuit: the project's AES-128 as it is (party 0 the key, party 1 the plaintext). */
async function emp(links, me) {
  return { output: await empAes(links, me, { inputs, mode: '2pc', joinShares: false }) };
}

await runBench('scripts/bench-two-wasm.mjs', 2, { chorus, emp });

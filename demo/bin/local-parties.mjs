#!/usr/bin/env node
/**
 * The joint-AES demo with local parties: starts a Chorus relay on a free loopback port, creates a
 * three-party room, and runs one MAESTRO AES-128 job with three Node processes through it.
 *
 * Party 0 and party 1 each hold a random XOR share of FIPS-197's key 000102…0f (neither holds the
 * key), party 2 holds the plaintext 00112233…ff; every party learns the ciphertext, printed next
 * to FIPS-197's expected value. Frames are Noise-encrypted between parties; the relay sees only
 * ciphertext.
 *
 * Usage (after the SDK and relay are built, as scripts/demo.sh does):
 *   node demo/bin/local-parties.mjs [--static <dir>] [--serve] [--host <addr>] [--port <n>]
 *
 * `--static <dir>` makes the relay also serve that directory (the browser demo, `demo/dist`);
 * `--serve` keeps the relay serving after the run and prints the demo URL, until Ctrl-C (without
 * it the command exits after the run, with status 1 if a ciphertext is wrong). `--port` defaults
 * to 0 (a free port), `--host` to 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRoom } from '@chorus/sdk';
import { startRelay } from '@chorus/server';

const FIPS_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const FIPS_PLAINTEXT = '00112233445566778899aabbccddeeff';
const FIPS_CIPHERTEXT = '69c4e0d86a7b0430d8cdb78070b4c55a';
const PARTY_SCRIPT = fileURLToPath(new URL('./party.mjs', import.meta.url));

/** Runs one party in its own Node process; resolves with the JSON line it prints. */
function runParty(invite, secret, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PARTY_SCRIPT], {
      env: { ...process.env, CHORUS_INVITE: JSON.stringify(invite), CHORUS_SECRET: secret, CHORUS_INPUT: JSON.stringify(input) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()));
      else reject(new Error(`party ${invite.slot} exited with code ${code}`));
    });
  });
}

const { values: args } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    static: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
  },
});
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer in 0..65535, got ${args.port}`);
  process.exit(2);
}

/** Resolves on the first SIGINT or SIGTERM. */
function interrupted() {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

const relay = await startRelay({ host: args.host, port, staticDir: args.static });
try {
  console.log(`relay listening on ${relay.url}`);
  const room = await createRoom({ relay: relay.url, parties: 3 });
  const secret = randomBytes(32).toString('hex');
  const share0 = randomBytes(16);
  const share1 = Buffer.from(FIPS_KEY.map((k, i) => k ^ share0[i]));
  const inputs = [{ key: share0.toString('hex') }, { key: share1.toString('hex') }, { plaintext: FIPS_PLAINTEXT }];
  console.log(`party 0 key share ${inputs[0].key}`);
  console.log(`party 1 key share ${inputs[1].key}   (shares XOR to ${FIPS_KEY.toString('hex')})`);
  console.log(`party 2 plaintext ${FIPS_PLAINTEXT}`);
  const results = await Promise.all([0, 1, 2].map((slot) => runParty(room.invite(slot), secret, inputs[slot])));
  let ok = true;
  for (const r of results) {
    const match = r.ciphertextHex === FIPS_CIPHERTEXT;
    ok &&= match;
    console.log(
      `party ${r.slot}: ciphertext ${r.ciphertextHex}  FIPS-197 ${FIPS_CIPHERTEXT}  ${match ? 'match' : 'MISMATCH'}` +
        `  (${r.stats.bytesSent} bytes sent, ${r.stats.rounds} rounds, ${Math.round(r.stats.timeMs)} ms, ${r.runtime} core)`,
    );
  }
  if (!ok) process.exitCode = 1;
  if (args.serve) {
    if (args.static !== undefined) console.log(`\nbrowser demo: open ${relay.url}/ (Ctrl-C to stop)`);
    else console.log(`\nrelay still serving at ${relay.url} (Ctrl-C to stop)`);
    await interrupted();
  }
} finally {
  await relay.close();
}

// Interoperability check: two TypeScript SDK parties (slots 0 and 1, key shares) and one native
// `chorus-party` (slot 2, plaintext) run the FIPS-197 joint-AES job through a fresh relay process.
// Exits 0 when all three learn 69c4e0d86a7b0430d8cdb78070b4c55a, 1 otherwise.
//
// Usage, from the repository root after `npm install`, `npm run build -w @chorus/server`, the SDK
// build and `cargo build -p chorus-native`:
//   node native/scripts/interop-sdk.mjs [path/to/chorus-party]   (default target/debug/chorus-party)
// CHORUS_SDK overrides the SDK module specifier (default '@chorus/sdk').
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const EXPECTED = '69c4e0d86a7b0430d8cdb78070b4c55a';
const SECRET = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
// XOR shares of the FIPS-197 key 000102…0f.
const SHARES = ['a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5', 'a5a4a7a6a1a0a3a2adacafaea9a8abaa'];
const partyBin = process.argv[2] ?? 'target/debug/chorus-party';
const { connect, createRoom } = await import(process.env.CHORUS_SDK ?? '@chorus/sdk');

const relay = spawn('node', ['server/dist/cli.js', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const failTimer = setTimeout(() => fail('timed out after 60 s'), 60_000);
function fail(message) {
  console.error(`interop: FAIL: ${message}`);
  relay.kill();
  process.exit(1);
}
try {
  const [line] = await createInterface({ input: relay.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value]);
  const { url } = JSON.parse(line);
  const room = await createRoom({ relay: url, parties: 3 });
  const invite = room.invite(2);
  const native = spawn(
    partyBin,
    ['--relay', url, '--room', invite.room, '--slot', '2', '--token', invite.token, '--plaintext', '00112233445566778899aabbccddeeff'],
    { env: { ...process.env, CHORUS_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let nativeOut = '';
  native.stdout.on('data', (d) => (nativeOut += d));
  const nativeExit = new Promise((resolve) => native.on('exit', resolve));
  const sdk = await Promise.all(
    [0, 1].map(async (slot) => {
      const session = await connect({ ...room.invite(slot), secret: SECRET, signal: AbortSignal.timeout(60_000) });
      try {
        return (await session.aes({ key: SHARES[slot] })).ciphertextHex;
      } finally {
        await session.close();
      }
    }),
  );
  const code = await nativeExit;
  const report = code === 0 ? JSON.parse(nativeOut) : undefined;
  const got = [...sdk, report?.ciphertext];
  console.log(JSON.stringify({ sdk0: got[0], sdk1: got[1], native: got[2], nativeExit: code }));
  if (!got.every((c) => c === EXPECTED)) fail(`expected ${EXPECTED} from every party`);
  clearTimeout(failTimer);
  relay.kill();
  console.log('interop: OK');
} catch (error) {
  fail(String(error?.stack ?? error));
}

/**
 * One party of the local joint-AES demo (spawned by local-parties.mjs): reads its invite, the
 * session secret and its input from the environment, runs `session.aes`, prints one JSON line.
 */
import { connect } from '@chorus/sdk';

const invite = JSON.parse(process.env.CHORUS_INVITE);
const input = JSON.parse(process.env.CHORUS_INPUT);
const session = await connect({ ...invite, secret: process.env.CHORUS_SECRET, signal: AbortSignal.timeout(120_000) });
try {
  const result = await session.aes(input);
  console.log(JSON.stringify({ slot: invite.slot, ciphertextHex: result.ciphertextHex, stats: result.stats, runtime: result.runtime }));
} finally {
  await session.close();
}

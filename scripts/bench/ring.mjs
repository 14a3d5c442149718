/**
 * One Node member of `scripts/bench-node.mjs --ring`: the SDK's relay transport alone, no core.
 * Joins its slot with `RelayConnection`, waits until the room is ready, then runs CHORUS_ROUNDS
 * rounds in which it sends a CHORUS_FRAME_BYTES-byte frame to the next slot and receives one from
 * the previous slot (the message pattern of a MAESTRO resharing round), and prints one JSON line
 * with the time of the rounds. Every received frame is checked (sender slot and round number).
 */
import { RelayConnection } from '@chorus/sdk';
import { ringRounds } from './ring-rounds.mjs';

const invite = JSON.parse(process.env.CHORUS_INVITE);
const rounds = Number(process.env.CHORUS_ROUNDS);
const frameBytes = Number(process.env.CHORUS_FRAME_BYTES);
const { slot } = invite;

const connection = await RelayConnection.open({ ...invite, signal: AbortSignal.timeout(120_000) });
try {
  await connection.ready();
  const ms = await ringRounds(connection, invite, rounds, frameBytes);
  // Leaving at once could turn a slower peer's last frame into a \`peer-left\` for it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log(JSON.stringify({ slot, ms, rounds }));
} finally {
  await connection.close();
}

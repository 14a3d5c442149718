/**
 * One Node member of `scripts/bench-node.mjs --ring`: the SDK's relay transport alone, no core.
 * Joins its slot with `RelayConnection`, waits until the room is ready, then runs CHORUS_ROUNDS
 * rounds in which it sends a CHORUS_FRAME_BYTES-byte frame to the next slot and receives one from
 * the previous slot (the message pattern of a MAESTRO resharing round), and prints one JSON line
 * with the time of the rounds. Every received frame is checked (sender slot and round number).
 */
import { RelayConnection } from '@chorus/sdk';

const invite = JSON.parse(process.env.CHORUS_INVITE);
const rounds = Number(process.env.CHORUS_ROUNDS);
const frameBytes = Number(process.env.CHORUS_FRAME_BYTES);
const { slot, parties } = invite;
const next = (slot + 1) % parties;
const previous = (slot + parties - 1) % parties;

const connection = await RelayConnection.open({ ...invite, signal: AbortSignal.timeout(120_000) });
try {
  await connection.ready();
  const frame = new Uint8Array(Math.max(frameBytes, 5));
  const view = new DataView(frame.buffer);
  const t0 = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    frame[0] = slot;
    view.setUint32(1, round);
    connection.send(next, frame);
    const got = await connection.recv(previous);
    const gotView = new DataView(got.buffer, got.byteOffset, got.byteLength);
    if (got[0] !== previous || gotView.getUint32(1) !== round) throw new Error(`round ${round}: unexpected frame`);
  }
  const ms = performance.now() - t0;
  // Leaving at once could turn a slower peer's last frame into a \`peer-left\` for it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  console.log(JSON.stringify({ slot, ms, rounds }));
} finally {
  await connection.close();
}

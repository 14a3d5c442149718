/**
 * The rounds of a ring member (`bench/ring.mjs` in Node, and the Chromium member of
 * `bench-node.mjs --ring`, which loads this file from the relay's static site): on an open
 * `RelayConnection` of a ready room, `rounds` rounds in which the member sends a `frameBytes`-byte
 * frame to the next slot and receives one from the previous slot, each received frame checked
 * (sender slot and round number). Returns the rounds' milliseconds.
 */
export async function ringRounds(connection, { slot, parties }, rounds, frameBytes) {
  const next = (slot + 1) % parties;
  const previous = (slot + parties - 1) % parties;
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
  return performance.now() - t0;
}

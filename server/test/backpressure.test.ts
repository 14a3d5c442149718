/**
 * Backpressure: a receiver that stops reading must not make the relay buffer without bound. The
 * relay pauses the sender once the receiver's queue passes `maxBufferedBytes`; the backlog then
 * sits in the sender's own buffers, and everything arrives intact once the receiver reads again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRelay, type RelayHandle } from "../src/relay.js";
import { createRoom, eventually, fillRoom, patternBytes } from "./helpers.js";

const MAX_BUFFERED = 256 * 1024;
const MAX_PAYLOAD = 64 * 1024 + 1;
const FRAME_PAYLOAD = 64 * 1024;
/** Per-sender overshoot allowed by the design: one socket read chunk plus one message. */
const SLACK = 64 * 1024 + MAX_PAYLOAD + 4096;
/** Give up if this much was sent without the relay pausing the sender. */
const SEND_CAP = 96 * 1024 * 1024;

let relay: RelayHandle;

beforeAll(async () => {
  relay = await startRelay({
    host: "127.0.0.1",
    port: 0,
    maxBufferedBytes: MAX_BUFFERED,
    maxPayloadBytes: MAX_PAYLOAD,
  });
});

afterAll(async () => {
  await relay.close();
});

it("bounds the relay's buffer for a slow receiver and delivers everything afterwards", async () => {
  const [sender, receiver] = await fillRoom(relay.wsUrl, await createRoom(relay.url, 2));
  receiver!.ws.pause();

  let peakRelayBuffer = 0;
  let sawPausedSender = false;
  const sample = (): void => {
    const stats = relay.stats();
    peakRelayBuffer = Math.max(peakRelayBuffer, stats.bufferedBytes);
    if (stats.pausedConnections > 0) sawPausedSender = true;
  };
  const sampler = setInterval(sample, 2);

  let sentFrames = 0;
  try {
    // Keep the sender's own queue topped up until the relay has paused it and the backlog has
    // visibly moved into the sender's buffer.
    while (!(sawPausedSender && sender!.ws.bufferedAmount > 2 * MAX_BUFFERED)) {
      if (sentFrames * FRAME_PAYLOAD > SEND_CAP) throw new Error("the backlog never moved back into the sender (relay did not pause it)");
      if (sender!.ws.bufferedAmount < 4 * 1024 * 1024) {
        sender!.sendTo(1, patternBytes(sentFrames, FRAME_PAYLOAD));
        sentFrames += 1;
      }
      await new Promise((resolve) => setImmediate(resolve));
      sample();
    }
    // Let the relay sit in the paused state for a while and check the bound keeps holding.
    await new Promise((resolve) => setTimeout(resolve, 200));
    sample();
  } finally {
    clearInterval(sampler);
  }

  expect(sawPausedSender).toBe(true);
  expect(peakRelayBuffer).toBeGreaterThan(0);
  expect(peakRelayBuffer).toBeLessThanOrEqual(MAX_BUFFERED + SLACK);
  expect(receiver!.data.length).toBeLessThan(sentFrames);

  receiver!.ws.resume();
  const frames = await receiver!.dataFrames(sentFrames, 30_000);
  frames.forEach((frame, index) => {
    expect(frame[0]).toBe(0);
    expect(frame.length).toBe(FRAME_PAYLOAD + 1);
    if (Buffer.compare(frame.subarray(1), patternBytes(index, FRAME_PAYLOAD)) !== 0) {
      throw new Error(`frame ${index} corrupted`);
    }
  });
  await eventually(() => relay.stats().pausedConnections === 0, 3000, "sender resumed");
  expect(relay.stats().bufferedBytes).toBe(0);
  sender!.close();
  receiver!.close();
});

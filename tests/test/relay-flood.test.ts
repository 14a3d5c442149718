/**
 * The relay's memory bound under tiny frames, on a real relay process: ten two-party rooms whose
 * readers never read, each fed 2-byte frames as fast as the relay takes them for 20 s
 * (`scripts/relay-flood.mjs` in a child process), while a three-party AES job runs in another room.
 * The relay's RSS growth stays under the documented per-room bound, the AES job finishes with the
 * FIPS-197 result, and after the rooms end the relay's JavaScript memory is back near where it
 * started; a second flood does not grow the relay further (nothing is retained per flood: its
 * peak stays near the first's, and the relay ends below that peak).
 * Figures are printed with the `[relay-flood]` prefix (docs/performance.md records them).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  REPO,
  startRelayProcess,
  within,
  xor,
  type RelayProcess,
} from "./relay-process.js";
import { closeAll, connectThree, runAes } from "./three-parties.js";

/** server/PROTOCOL.md §4: what one room with one stalled reader may hold, default limits. */
const PER_ROOM_BOUND = 16 * 2 ** 20;
const ROOMS = 10;

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  rooms: number;
  bufferedFrames: number;
  heldFrames: number;
}
interface FloodSummary {
  framesSent: number;
  baseline: Memory;
  peak: Memory;
  afterClose: Memory;
  samples: Array<{ bufferedFrames: number; heldFrames: number; paused: number }>;
}

const MiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const js = (m: Memory): number => m.heapUsed + m.external;

/** Runs the flood script against `relay`; calls `onFlooding` once the flood has started. */
function flood(relay: RelayProcess, seconds: number, onFlooding: () => void): Promise<FloodSummary> {
  const child = spawn(
    process.execPath,
    ["scripts/relay-flood.mjs", "--relay", relay.url, "--rooms", String(ROOMS), "--seconds", String(seconds), "--frame", "2"],
    { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { event: string } & FloodSummary;
      if (message.event === "flooding") onFlooding();
      if (message.event === "done") resolve(message);
    });
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`the flood script exited with ${code}`));
    });
  });
}

let relay: RelayProcess;
beforeAll(async () => {
  // The frame budget is lifted so that the flood reaches the queues' caps within seconds (with the
  // default budget the readers' kernel buffers alone take minutes of 2-byte frames to fill).
  relay = await startRelayProcess(["--max-frame-rate", "100000000", "--stall-timeout-ms", "120000", "--resume-grace-ms", "2000"]);
});
afterAll(async () => {
  await relay?.stop();
});

describe("tiny frames towards readers that never read", () => {
  it(`keep ${ROOMS} flooded rooms under the per-room bound while an AES job runs, and give the memory back`, async () => {
    let job: Promise<string[]> | undefined;
    const first = await within(
      flood(relay, 20, () => {
        // The AES job starts once the flood is on, in a room of its own.
        job = (async () => {
          const share0 = crypto.getRandomValues(new Uint8Array(16));
          const sessions = await connectThree(relay.url, freshSecret());
          try {
            const results = await Promise.all(
              runAes(sessions, [{ key: share0 }, { key: xor(fromHex(FIPS_KEY), share0) }, { plaintext: FIPS_PLAINTEXT }]),
            );
            return results.map((result) => result.ciphertextHex!);
          } finally {
            await closeAll(sessions);
          }
        })();
      }),
      "the first flood",
      150_000,
    );
    expect(job).toBeDefined();
    expect(await within(job!, "the AES job during the flood", 60_000)).toEqual([FIPS_CIPHERTEXT, FIPS_CIPHERTEXT, FIPS_CIPHERTEXT]);
    // The queues did fill: senders were paused at the relay.
    expect(first.samples.some((s) => s.paused > 0)).toBe(true);
    const growth = first.peak.rss - first.baseline.rss;
    expect(growth).toBeLessThan(ROOMS * PER_ROOM_BOUND);
    expect(js(first.afterClose) - js(first.baseline)).toBeLessThan(16 * 2 ** 20);

    const second = await within(flood(relay, 10, () => undefined), "the second flood", 120_000);
    const perFlood = second.peak.rss - first.peak.rss;
    console.log(
      `[relay-flood] ${ROOMS} rooms, 2-byte frames: ${first.framesSent} frames offered in 20 s; relay RSS ` +
        `${MiB(first.baseline.rss)} -> peak ${MiB(first.peak.rss)} (${MiB(growth / ROOMS)} per room, bound ` +
        `${MiB(PER_ROOM_BOUND)}), after close ${MiB(first.afterClose.rss)}; JS memory ${MiB(js(first.baseline))} -> ` +
        `${MiB(js(first.peak))} -> ${MiB(js(first.afterClose))}; queued frames at peak ` +
        `${Math.max(...first.samples.map((s) => s.bufferedFrames))}, held ${Math.max(...first.samples.map((s) => s.heldFrames))}; ` +
        `second flood: peak RSS ${MiB(second.peak.rss)} (${MiB(perFlood)} above the first's), after close ` +
        `${MiB(second.afterClose.rss)}, JS ${MiB(js(second.afterClose))}`,
    );
    expect(second.peak.rss - second.baseline.rss).toBeLessThan(ROOMS * PER_ROOM_BOUND);
    // Nothing is retained per flood: the second flood reuses what the first left with the
    // allocator (RSS after a close is the allocator's to return, and it keeps some) instead of
    // adding to it — its peak stays near the first's, and after it ends the relay is below that
    // peak again.
    expect(perFlood).toBeLessThan(32 * 2 ** 20);
    expect(second.afterClose.rss).toBeLessThan(first.peak.rss);
    expect(js(second.afterClose) - js(first.baseline)).toBeLessThan(16 * 2 ** 20);
  }, 300_000);
});

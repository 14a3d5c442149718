/**
 * Giving memory back after the relay dropped many queued frames.
 *
 * Frames queued for a party that does not read live long enough to reach V8's old generation. When
 * that party leaves, they become garbage, but V8 collects the old generation only under allocation
 * pressure, and an idle relay has none: the memory of a closed flood would stay in the process
 * (and count against the host) until traffic happens to trigger a major collection. So once the
 * departures since the last collection freed at least {@link RECLAIM_THRESHOLD_BYTES} (payload
 * plus {@link FRAME_WEIGHT_BYTES} per frame), the relay runs one full collection shortly after, at
 * most once per
 * {@link RECLAIM_MIN_INTERVAL_MS}. A collection of the relay's heap blocks its event loop for a
 * few milliseconds per 10 MiB of live data, far less than the floods it follows.
 *
 * The collection function comes from `--expose-gc` if the process was started with it, else from
 * V8's flag set at run time (the flag is turned on, `gc` fetched from a fresh context, and the flag
 * turned off again, so no global `gc` appears). If neither works, reclaiming is a no-op.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Bytes freed by departures after which a collection is scheduled. */
export const RECLAIM_THRESHOLD_BYTES = 4 * 1024 * 1024;
/** What a freed frame counts towards the threshold besides its payload (its objects). */
export const FRAME_WEIGHT_BYTES = 512;
/** Least time between two collections. */
export const RECLAIM_MIN_INTERVAL_MS = 10_000;
/** Delay from the departure to the collection (the socket's buffers are released first). */
const RECLAIM_DELAY_MS = 500;

/** V8's full-collection function, or undefined when it cannot be had. */
export function collectorFunction(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as () => void;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    setFlagsFromString("--no-expose-gc");
    return typeof gc === "function" ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

/** Schedules full collections after large departures; one per relay. */
export class MemoryReclaimer {
  private pending = 0;
  private lastRun = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  /** Collections run so far (for tests and metrics). */
  runs = 0;

  /** Whether a collection is scheduled and has not run yet. */
  get scheduled(): boolean {
    return this.timer !== undefined;
  }

  constructor(
    private readonly collect: (() => void) | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** A departure freed up to `frames` queued or kept frames of `bytes` payload bytes. */
  freed(frames: number, bytes: number): void {
    if (this.collect === undefined || frames <= 0) return;
    this.pending += bytes + frames * FRAME_WEIGHT_BYTES;
    if (this.pending < RECLAIM_THRESHOLD_BYTES || this.timer !== undefined) return;
    const wait = Math.max(RECLAIM_DELAY_MS, this.lastRun + RECLAIM_MIN_INTERVAL_MS - this.now());
    this.timer = setTimeout(() => this.run(), wait);
    this.timer.unref();
  }

  /** Cancels a scheduled collection (shutdown). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private run(): void {
    this.timer = undefined;
    this.pending = 0;
    this.lastRun = this.now();
    this.runs += 1;
    this.collect?.();
  }
}

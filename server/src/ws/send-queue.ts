/**
 * The frames handed to one socket and not yet written to the kernel, counted by the relay itself
 * in frames and in bytes, and the limits both counts are held to.
 *
 * A queued frame costs far more than its payload: a write request, a header, a completion
 * callback and the objects around its copy. Counting payload bytes alone let one client queue
 * millions of 2-byte frames under a "byte" limit and take the host's memory. So every queue the
 * relay keeps has two caps, one on bytes and one on frames, and backpressure starts at whichever
 * is reached first; `PROTOCOL.md` §4 gives the memory bound that follows.
 */

/** A cap on a queue: payload bytes and frames. */
export interface QueueLimit {
  bytes: number;
  frames: number;
}

/**
 * One socket's queue. One per socket, so that after a resume the old socket's late completions do
 * not disturb the new socket's count.
 */
export class SendQueue {
  /** Frames (data and control) waiting to be written. */
  frames = 0;
  /** Their payload bytes. */
  bytes = 0;
  /** The most frames ever waiting at once (what a departure frees, at most). */
  peakFrames = 0;
  /** The most bytes ever waiting at once. */
  peakBytes = 0;
  /** Frames written so far (the stall check compares it between sweeps). */
  completed = 0;
  /** `completed` at the last stall sweep that saw progress or an empty queue. */
  private seenCompleted = 0;
  /** `completed` at the last heartbeat. */
  private beatCompleted = 0;
  /** When the queue was last seen empty or moving. */
  private stuckSince: number;

  constructor(now: number) {
    this.stuckSince = now;
  }

  /** Whether the queue is past either cap of `limit`. */
  over(limit: QueueLimit): boolean {
    return this.bytes > limit.bytes || this.frames > limit.frames;
  }

  /** A frame of `length` bytes was handed to the socket. */
  add(length: number): void {
    this.frames += 1;
    this.bytes += length;
    if (this.frames > this.peakFrames) this.peakFrames = this.frames;
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
  }

  /** That frame was written (or dropped with its socket). */
  done(length: number): void {
    this.frames -= 1;
    this.bytes -= length;
    this.completed += 1;
  }

  /**
   * Whether frames were written since the previous call (the relay's heartbeat asks once an
   * interval). Written means handed to the kernel, not read by the party: a party still taking
   * frames may have megabytes ahead of a ping in the kernel's buffers, so the heartbeat does not
   * judge it by a missing pong; one that stops taking frames soon has them wait here instead,
   * where the stall check judges it.
   */
  wroteSinceLastBeat(): boolean {
    const wrote = this.completed !== this.beatCompleted;
    this.beatCompleted = this.completed;
    return wrote;
  }

  /**
   * How long frames have waited without a single one being written, as of `now` (0 while the
   * queue is empty or moves). Called by the relay's periodic sweep.
   */
  stalledFor(now: number): number {
    if (this.frames === 0 || this.completed !== this.seenCompleted) {
      this.seenCompleted = this.completed;
      this.stuckSince = now;
      return 0;
    }
    return now - this.stuckSince;
  }
}

/**
 * A connection's frame budget: a token bucket of `framesPerSecond` frames a second with a burst of
 * one second's worth. The relay's work is per frame (parse, route, write), so a client flooding it
 * with tiny frames takes its CPU from every other room; past its budget a connection is not read
 * from until the budget refills. Nothing is dropped: like backpressure, the pause reaches the
 * client through its TCP window.
 */
export class FrameBudget {
  private tokens: number;
  private at: number;
  private readonly perMs: number;

  constructor(
    private readonly framesPerSecond: number,
    now: number,
  ) {
    this.tokens = framesPerSecond;
    this.at = now;
    this.perMs = framesPerSecond / 1000;
  }

  /**
   * Spends one frame at `now`. Returns 0 while the budget lasts, or else the milliseconds until
   * it holds a frame again (the connection should not be read until then).
   */
  spend(now: number): number {
    this.refill(now);
    this.tokens -= 1;
    return this.wait();
  }

  /** Milliseconds from `now` until the budget holds a frame again (0 if it does). */
  waitFrom(now: number): number {
    this.refill(now);
    return this.wait();
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.framesPerSecond, this.tokens + (now - this.at) * this.perMs);
    this.at = now;
  }

  private wait(): number {
    return this.tokens >= 0 ? 0 : Math.ceil(-this.tokens / this.perMs);
  }
}

/**
 * Per-client limits, independent of HTTP and WebSockets: token-bucket rate limits and counted
 * quotas, both keyed by a string (a client address key, or an admission credential).
 */

/**
 * Token buckets, one per key: each holds up to `burst` tokens and gains `ratePerMinute` tokens a
 * minute; an action takes one token or is refused. Buckets that are full again carry no
 * information and are forgotten on the next sweep, so memory follows the number of recently active
 * keys, not of all keys ever seen.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    ratePerMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = ratePerMinute / 60_000;
  }

  /**
   * Takes a token for each of `keys`, all or none. Returns 0 when allowed, or else the whole
   * seconds until a token will be available for every key (for `Retry-After`).
   */
  take(keys: string[]): number {
    const now = this.now();
    let waitMs = 0;
    const states = keys.map((key) => {
      const state = this.refilled(key, now);
      if (state.tokens < 1) waitMs = Math.max(waitMs, (1 - state.tokens) / this.perMs);
      return state;
    });
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    keys.forEach((key, i) => {
      const state = states[i]!;
      this.buckets.set(key, { tokens: state.tokens - 1, at: now });
    });
    return 0;
  }

  /** Forgets buckets that have refilled completely. */
  sweep(): void {
    const now = this.now();
    for (const [key, state] of this.buckets) {
      if (state.tokens + (now - state.at) * this.perMs >= this.burst) this.buckets.delete(key);
    }
  }

  /** Number of keys tracked (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private refilled(key: string, now: number): { tokens: number; at: number } {
    const state = this.buckets.get(key);
    if (state === undefined) return { tokens: this.burst, at: now };
    return { tokens: Math.min(this.burst, state.tokens + (now - state.at) * this.perMs), at: now };
  }
}

/** Counts held per key against a fixed limit (open connections, pending rooms). */
export class Quota {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Takes one unit for each of `keys`, all or none; returns whether it was allowed. */
  acquire(keys: string[]): boolean {
    if (keys.some((key) => (this.counts.get(key) ?? 0) >= this.limit)) return false;
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return true;
  }

  /** Gives back one unit for each of `keys`. */
  release(keys: string[]): void {
    for (const key of keys) {
      const count = (this.counts.get(key) ?? 0) - 1;
      if (count > 0) this.counts.set(key, count);
      else this.counts.delete(key);
    }
  }

  /** Units held by `key`. */
  held(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

/**
 * Releases a quota exactly once, however many of the paths that end a holding (room full, room
 * deleted, socket closed) run.
 */
export function releaseOnce(quota: Quota, keys: string[]): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    quota.release(keys);
  };
}

/** The per-client limits of one relay, built from its configuration. */
export class ClientLimits {
  /** `POST /rooms` per client address (and per admission credential). */
  readonly roomRate: RateLimiter;
  /** WebSocket upgrades per client address. */
  readonly upgradeRate: RateLimiter;
  /** Rooms not yet full, per creating address (and credential). */
  readonly pendingRooms: Quota;
  /** Open WebSocket connections per client address. */
  readonly connections: Quota;
  private readonly sweeper: NodeJS.Timeout;

  constructor(config: {
    roomRatePerMinute: number;
    roomBurst: number;
    upgradeRatePerMinute: number;
    upgradeBurst: number;
    maxPendingRoomsPerAddress: number;
    maxConnectionsPerAddress: number;
  }) {
    this.roomRate = new RateLimiter(config.roomRatePerMinute, config.roomBurst);
    this.upgradeRate = new RateLimiter(config.upgradeRatePerMinute, config.upgradeBurst);
    this.pendingRooms = new Quota(config.maxPendingRoomsPerAddress);
    this.connections = new Quota(config.maxConnectionsPerAddress);
    this.sweeper = setInterval(() => {
      this.roomRate.sweep();
      this.upgradeRate.sweep();
    }, 60_000);
    this.sweeper.unref();
  }

  /** Stops the periodic sweep. */
  stop(): void {
    clearInterval(this.sweeper);
  }
}

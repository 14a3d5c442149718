/**
 * Per-peer FIFO queues of received frames, with promise-based receivers: `recv(from)` resolves with
 * the oldest frame from `from`, waiting for one if none is queued. Frames from one peer come out in
 * arrival order regardless of how frames from different peers interleave. Once failed (peer left,
 * connection closed), every pending and future `recv` rejects with the failure.
 */
import { abortError } from '../errors.js';

/** A first-in first-out queue with O(1) amortised push and shift. */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    // Compact once the consumed prefix dominates, so memory follows the live length.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

interface Waiter {
  resolve(frame: Uint8Array): void;
  reject(error: unknown): void;
}

/** Received frames, queued per sending peer. */
export class PeerQueues {
  private readonly frames: Fifo<Uint8Array>[];
  private readonly waiters: Waiter[][];
  private failure: unknown = undefined;
  private failed = false;

  constructor(parties: number) {
    this.frames = Array.from({ length: parties }, () => new Fifo<Uint8Array>());
    this.waiters = Array.from({ length: parties }, () => []);
  }

  /** Hands `frame` to the oldest pending `recv(from)`, or queues it. */
  push(from: number, frame: Uint8Array): void {
    if (this.failed) return;
    const waiter = this.waiters[from]!.shift();
    if (waiter !== undefined) waiter.resolve(frame);
    else this.frames[from]!.push(frame);
  }

  /** The number of frames from `from` waiting to be received. */
  queued(from: number): number {
    return this.frames[from]!.length;
  }

  /** Removes and returns every queued frame from `from`, oldest first. */
  drain(from: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let frame = this.frames[from]!.shift(); frame !== undefined; frame = this.frames[from]!.shift()) {
      out.push(frame);
    }
    return out;
  }

  /** The oldest frame from `from`, waiting for one if needed. `signal` cancels this wait only. */
  recv(from: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failure);
    const queued = this.frames[from]!.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (signal?.aborted) return Promise.reject(abortError(signal, `recv from party ${from}`));
    return new Promise<Uint8Array>((resolve, reject) => {
      const list = this.waiters[from]!;
      const onAbort = (): void => {
        const index = list.indexOf(waiter);
        if (index >= 0) list.splice(index, 1);
        reject(abortError(signal!, `recv from party ${from}`));
      };
      const waiter: Waiter = {
        resolve: (frame) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(frame);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      list.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Rejects every pending and future `recv` with `error` and drops queued frames. Idempotent. */
  fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = error;
    for (const fifo of this.frames) fifo.clear();
    for (const list of this.waiters) {
      for (const waiter of list.splice(0)) waiter.reject(error);
    }
  }
}

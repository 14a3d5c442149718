/**
 * Bookkeeping for resumable sessions (protocol 2): sequence counts of data frames in each direction
 * and the frames kept so that nothing is lost when a party's connection drops.
 *
 * Both sides count data frames per slot, over the whole life of the slot's session (across
 * reconnections): the relay counts the frames it routed *towards* a slot (`Outbox.sent`) and the
 * frames it received *from* it (`Inbox.received`); the client counts the same two streams from
 * its side. Each side acknowledges what it received with a cumulative count (`ack` control
 * messages), and keeps what it sent until acknowledged. On resume the client says how many frames
 * it received, the relay says how many it received, and each side sends the rest again, in order:
 * no frame is lost or delivered twice.
 */

import type { QueueLimit } from "./send-queue.js";

/**
 * Frames routed towards one slot, kept until the party acknowledges them. Its limits cap frames as
 * well as bytes, so many tiny frames cannot outgrow them.
 */
export class Outbox {
  /** Data frames routed towards the slot so far; the last one has sequence number `sent`. */
  sent = 0;
  /** Bytes kept. */
  bytes = 0;
  private frames: Buffer[] = [];
  private head = 0;

  /** Number of frames kept (all with sequence numbers `sent - kept + 1 ..= sent`). */
  get kept(): number {
    return this.frames.length - this.head;
  }

  /** Whether more than either cap of `limit` is kept. */
  over(limit: QueueLimit): boolean {
    return this.bytes > limit.bytes || this.kept > limit.frames;
  }

  /** Records a frame routed towards the slot and keeps it. */
  push(frame: Buffer): void {
    this.sent += 1;
    this.frames.push(frame);
    this.bytes += frame.length;
  }

  /**
   * Forgets the oldest frames until neither cap of `limit` is passed. A resume that needs a
   * forgotten frame is then impossible (see {@link canResumeAfter}).
   */
  trimTo(limit: QueueLimit): void {
    while (this.over(limit) && this.kept > 0) this.dropOldest();
  }

  /**
   * The party acknowledged `received` frames: forgets those. Returns false if the count is
   * impossible (negative, or more than were sent).
   */
  acknowledge(received: number): boolean {
    if (!Number.isSafeInteger(received) || received < 0 || received > this.sent) return false;
    while (this.kept > 0 && this.sent - this.kept + 1 <= received) this.dropOldest();
    return true;
  }

  /** Whether every frame after the first `received` is still kept. */
  canResumeAfter(received: number): boolean {
    return Number.isSafeInteger(received) && received <= this.sent && received >= this.sent - this.kept;
  }

  /** The kept frames after the first `received` (call {@link acknowledge} first to drop the rest). */
  pending(): Buffer[] {
    return this.frames.slice(this.head);
  }

  /** Forgets everything (the session ended). */
  clear(): void {
    this.frames = [];
    this.head = 0;
    this.bytes = 0;
  }

  private dropOldest(): void {
    const frame = this.frames[this.head]!;
    this.frames[this.head] = undefined as unknown as Buffer;
    this.head += 1;
    this.bytes -= frame.length;
    // Compact once the dead prefix dominates, so the array does not grow forever.
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }
}

/** Frames received from one slot, and what the relay last acknowledged to it. */
export class Inbox {
  /** Data frames received from the slot so far. */
  received = 0;
  /** The count last sent to the party in an `ack`. */
  acknowledged = 0;
  /** Bytes received since that `ack`. */
  unacknowledgedBytes = 0;

  /** Records a received frame; returns whether an `ack` is due now (`ackBytes` passed). */
  record(length: number, ackBytes: number): boolean {
    this.received += 1;
    this.unacknowledgedBytes += length;
    return this.unacknowledgedBytes >= ackBytes;
  }

  /** Marks the current count as acknowledged; returns it. */
  acknowledge(): number {
    this.acknowledged = this.received;
    this.unacknowledgedBytes = 0;
    return this.received;
  }

  /** Whether frames arrived since the last `ack`. */
  get behind(): boolean {
    return this.received > this.acknowledged;
  }
}

/**
 * Parses a client's text frame as an `ack` (the only text a protocol-2 client may send). Returns
 * the count, or undefined if the frame is not a well-formed `ack`.
 */
export function parseAck(text: string): number | undefined {
  if (text.length > 256) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { type, received } = value as { type?: unknown; received?: unknown };
  if (type !== "ack" || typeof received !== "number" || !Number.isSafeInteger(received) || received < 0) {
    return undefined;
  }
  return received;
}

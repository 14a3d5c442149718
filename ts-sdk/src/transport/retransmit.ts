/**
 * Frame counting for resume (relay protocol 2): the data frames a party sent and has not seen
 * acknowledged by the relay, and the count of data frames it received. Both counts run over the
 * whole session of the slot, across reconnections, and match the relay's counts of the same
 * streams; on resume each side sends again exactly what the other has not received.
 */

/** Data frames sent to the relay, kept until the relay acknowledges them. */
export class SentFrames {
  /** Data frames sent in the session; the last has sequence number `sent`. */
  sent = 0;
  /** Bytes kept. */
  bytes = 0;
  private frames: Uint8Array[] = [];
  private head = 0;

  /** @param limit bytes kept at most; older frames are forgotten (then a resume may fail). */
  constructor(private readonly limit: number) {}

  /** Frames kept (sequence numbers `sent - kept + 1 ..= sent`). */
  get kept(): number {
    return this.frames.length - this.head;
  }

  /** Records a sent frame and keeps it. */
  push(frame: Uint8Array): void {
    this.sent += 1;
    this.frames.push(frame);
    this.bytes += frame.length;
    while (this.bytes > this.limit && this.kept > 0) this.dropOldest();
  }

  /** The relay received `received` frames: forgets them. False if the count is impossible. */
  acknowledge(received: number): boolean {
    if (!Number.isSafeInteger(received) || received < 0 || received > this.sent) return false;
    while (this.kept > 0 && this.sent - this.kept + 1 <= received) this.dropOldest();
    return true;
  }

  /** Whether every frame after the first `received` is still kept. */
  canResumeAfter(received: number): boolean {
    return Number.isSafeInteger(received) && received <= this.sent && received >= this.sent - this.kept;
  }

  /** The frames kept, oldest first. */
  pending(): Uint8Array[] {
    return this.frames.slice(this.head);
  }

  /** Forgets everything. */
  clear(): void {
    this.frames = [];
    this.head = 0;
    this.bytes = 0;
  }

  private dropOldest(): void {
    const frame = this.frames[this.head]!;
    this.frames[this.head] = EMPTY;
    this.head += 1;
    this.bytes -= frame.length;
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames = this.frames.slice(this.head);
      this.head = 0;
    }
  }
}

const EMPTY = new Uint8Array(0);

/** Data frames received from the relay, and what this party last acknowledged. */
export class ReceivedFrames {
  received = 0;
  acknowledged = 0;
  private unacknowledgedBytes = 0;

  /** Records a received frame; returns whether an `ack` is due at once (`ackBytes` passed). */
  record(length: number, ackBytes: number): boolean {
    this.received += 1;
    this.unacknowledgedBytes += length;
    return this.unacknowledgedBytes >= ackBytes;
  }

  /** Marks everything received as acknowledged; returns the count to send. */
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

/**
 * One connected party and the relay's backpressure between parties.
 *
 * Backpressure: after forwarding a frame, if the destination's outgoing buffer holds more than
 * `maxBufferedBytes`, the relay pauses reading from the sender's socket (`WebSocket.pause`). Every
 * send to the destination carries a completion callback; when one fires with the buffer back at or
 * under the limit, every sender paused on that destination whose other destinations are also
 * drained is resumed. A paused sender's TCP window then fills, so the pressure reaches the sending
 * party itself instead of the relay's memory.
 */
import type { WebSocket } from "ws";
import type { Room } from "./rooms.js";
import type { ControlMessage, LeaveReason } from "./protocol.js";

/** A party that holds a slot in a room. */
export class Party {
  /** Time of the last data frame from or to this party (for the idle timeout). */
  lastActivity: number;
  /** Whether a pong (or any frame) arrived since the last ping. */
  alive = true;
  /** Set once the party left the room; later events on its socket are ignored. */
  gone = false;
  /** Why the connection ended, when the relay ended it; reported to the remaining parties. */
  leaveReason: LeaveReason = "closed";
  /** Destinations whose full buffers keep this party's socket paused. */
  readonly blockedOn = new Set<Party>();
  /** Senders paused because this party's buffer is full. */
  readonly waiters = new Set<Party>();

  constructor(
    readonly ws: WebSocket,
    readonly room: Room<Party>,
    readonly slot: number,
    now: number,
  ) {
    this.lastActivity = now;
  }

  /** Bytes queued towards this party and not yet handed to the kernel. */
  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  /** Whether the relay currently stops reading from this party. */
  get paused(): boolean {
    return this.blockedOn.size > 0;
  }
}

/** Backpressure policy between parties; one per relay. */
export class FlowControl {
  constructor(private readonly maxBufferedBytes: number) {}

  /**
   * Queues `data` towards `dest`; if that leaves `dest` over the limit, pauses `sender` until it
   * drains. `sender` is omitted for relay-originated control messages.
   */
  send(dest: Party, data: Buffer | string, sender?: Party): void {
    dest.ws.send(data, { binary: typeof data !== "string" }, () => this.releaseIfDrained(dest));
    if (sender !== undefined && !sender.gone && dest.bufferedAmount > this.maxBufferedBytes) {
      this.hold(sender, dest);
    }
  }

  /** Sends a JSON control message (a text frame). */
  sendControl(dest: Party, message: ControlMessage, sender?: Party): void {
    this.send(dest, JSON.stringify(message), sender);
  }

  /** Forgets `party` in both directions; resumes senders that were waiting on it. */
  detach(party: Party): void {
    for (const dest of party.blockedOn) dest.waiters.delete(party);
    party.blockedOn.clear();
    this.releaseWaiters(party);
  }

  private hold(sender: Party, dest: Party): void {
    if (sender.blockedOn.has(dest)) return;
    sender.blockedOn.add(dest);
    dest.waiters.add(sender);
    if (sender.blockedOn.size === 1) sender.ws.pause();
  }

  private releaseIfDrained(dest: Party): void {
    if (dest.waiters.size > 0 && dest.bufferedAmount <= this.maxBufferedBytes) {
      this.releaseWaiters(dest);
    }
  }

  private releaseWaiters(dest: Party): void {
    for (const sender of dest.waiters) {
      sender.blockedOn.delete(dest);
      if (sender.blockedOn.size === 0 && !sender.gone) sender.ws.resume();
    }
    dest.waiters.clear();
  }
}

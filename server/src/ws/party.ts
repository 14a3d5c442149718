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
import type { Room } from "../rooms.js";
import type { ControlMessage, LeaveReason } from "../protocol.js";
import { Inbox, Outbox } from "./resume.js";

/**
 * A party that holds a slot in a room. With protocol 2 the party outlives a connection: when its
 * socket drops it is *away* for a grace period, and a new socket can take its place (resume).
 */
export class Party {
  /** The party's current socket (the latest one, after a resume). */
  ws: WebSocket;
  /** Frames routed towards the slot, kept until acknowledged (protocol 2). */
  readonly outbox = new Outbox();
  /** Frames received from the slot (protocol 2). */
  readonly inbox = new Inbox();
  /** Set while the connection is gone and the slot waits for a resume. */
  away = false;
  /** Ends the grace period of an away party. */
  graceTimer: NodeJS.Timeout | undefined;
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
    ws: WebSocket,
    readonly room: Room<Party>,
    readonly slot: number,
    /** Wire protocol version the party speaks (1 or 2). */
    readonly protocol: number,
    now: number,
  ) {
    this.ws = ws;
    this.lastActivity = now;
  }

  /** Whether the party may resume after its connection drops (it speaks protocol 2). */
  get resumable(): boolean {
    return this.protocol >= 2;
  }

  /**
   * Bytes queued towards this party: in its socket's buffer, or, while it is away, held for its
   * return.
   */
  get bufferedAmount(): number {
    return this.away ? this.outbox.bytes : this.ws.bufferedAmount;
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
    if (sender !== undefined && dest.bufferedAmount > this.maxBufferedBytes) this.hold(sender, dest);
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

  /** Stops reading from `sender` until `dest` drained (or left). */
  hold(sender: Party, dest: Party): void {
    if (sender.gone || sender.away || sender.blockedOn.has(dest)) return;
    sender.blockedOn.add(dest);
    dest.waiters.add(sender);
    if (sender.blockedOn.size === 1) sender.ws.pause();
  }

  /** Resumes the senders waiting on `dest` if its buffer is back under the limit. */
  releaseIfDrained(dest: Party): void {
    if (dest.waiters.size > 0 && dest.bufferedAmount <= this.maxBufferedBytes) {
      this.releaseWaiters(dest);
    }
  }

  private releaseWaiters(dest: Party): void {
    for (const sender of dest.waiters) {
      sender.blockedOn.delete(dest);
      if (sender.blockedOn.size === 0 && !sender.gone && !sender.away) sender.ws.resume();
    }
    dest.waiters.clear();
  }
}

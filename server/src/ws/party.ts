/**
 * One connected party and the relay's backpressure between parties.
 *
 * Backpressure: after forwarding a frame, if the destination's queue holds more than
 * `maxBufferedBytes` bytes or `maxBufferedFrames` frames (`send-queue.ts`), the relay pauses
 * reading from the sender's socket (`WebSocket.pause`). Every send to the destination
 * carries a completion callback; when one fires with the queue back at or under the limit, every
 * sender paused on that destination whose other destinations are also drained is resumed. A paused
 * sender's TCP window then fills, so the pressure reaches the sending party itself instead of the
 * relay's memory, whatever the size of its frames.
 */
import type { WebSocket } from "ws";
import type { Room } from "../rooms.js";
import type { ControlMessage, LeaveReason } from "../protocol.js";
import { Inbox, Outbox } from "./resume.js";
import { FrameArena } from "./frame-arena.js";
import { FrameBudget } from "./frame-rate.js";
import { SendQueue, type QueueLimit } from "./send-queue.js";

/** Least time between two `peer-not-connected` warnings to one party about one slot. */
const NOT_CONNECTED_WARNING_MS = 1000;

/**
 * A party that holds a slot in a room. With protocol 2 the party outlives a connection: when its
 * socket drops it is *away* for a grace period, and a new socket can take its place (resume).
 */
export class Party {
  /** The party's current socket (the latest one, after a resume). */
  ws: WebSocket;
  /** Frames handed to the current socket and not yet written (replaced with the socket). */
  queue: SendQueue;
  /** Where the frames routed towards the slot are copied. */
  readonly arena = new FrameArena();
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
  /** Frames received from this party after it was paused, waiting to be routed (`routing.ts`). */
  readonly parked: Buffer[] = [];
  /** Frames this party may send a second (checked per frame). */
  readonly budget: FrameBudget;
  /** When the party was last warned that a slot is not connected, per slot. */
  private readonly notConnectedWarnings = new Map<number, number>();
  /** Set while the party is not read because it spent its frame budget; ends the pause. */
  throttleTimer: NodeJS.Timeout | undefined;

  constructor(
    ws: WebSocket,
    readonly room: Room<Party>,
    readonly slot: number,
    /** Wire protocol version the party speaks (1 or 2). */
    readonly protocol: number,
    now: number,
    framesPerSecond: number,
  ) {
    this.ws = ws;
    this.budget = new FrameBudget(framesPerSecond, now);
    this.queue = new SendQueue(now);
    this.lastActivity = now;
  }

  /** Makes `ws` the party's socket (a resume), with a fresh send queue. */
  replaceSocket(ws: WebSocket, now: number): void {
    this.ws = ws;
    this.queue = new SendQueue(now);
  }

  /** Whether the party may resume after its connection drops (it speaks protocol 2). */
  get resumable(): boolean {
    return this.protocol >= 2;
  }

  /**
   * Payload bytes queued towards this party: waiting for its socket, or, while it is away, held for
   * its return.
   */
  get bufferedBytes(): number {
    return this.away ? this.outbox.bytes : this.queue.bytes;
  }

  /** Frames queued towards this party (as {@link bufferedBytes}). */
  get bufferedFrames(): number {
    return this.away ? this.outbox.kept : this.queue.frames;
  }

  /** Whether what is queued towards this party is past either cap of `limit`. */
  bufferedOver(limit: QueueLimit): boolean {
    return this.away ? this.outbox.over(limit) : this.queue.over(limit);
  }

  /** Whether the relay currently stops reading from this party (backpressure or frame budget). */
  get paused(): boolean {
    return this.blockedOn.size > 0 || this.throttleTimer !== undefined;
  }

  /**
   * Whether to warn the party now that `slot` is not connected (at most once a second per slot).
   */
  warnNotConnected(slot: number, now: number): boolean {
    const last = this.notConnectedWarnings.get(slot);
    if (last !== undefined && now - last < NOT_CONNECTED_WARNING_MS) return false;
    this.notConnectedWarnings.set(slot, now);
    return true;
  }

  /** Pauses or resumes reading the socket to match {@link paused} (and parked frames). */
  updateReading(): void {
    if (this.gone || this.away) return;
    if (this.paused || this.parked.length > 0) {
      if (!this.ws.isPaused) this.ws.pause();
    } else if (this.ws.isPaused) {
      this.ws.resume();
    }
  }

  /**
   * Spends one frame of the party's budget; past it, stops reading the party until the budget
   * refills. Returns whether the party was throttled.
   */
  spendFrame(now: number): boolean {
    const waitMs = this.budget.spend(now);
    if (waitMs === 0 || this.throttleTimer !== undefined) return false;
    this.throttle(waitMs);
    this.updateReading();
    return true;
  }

  /**
   * Stops reading for `waitMs`, then again for as long as the budget is still spent (frames of the
   * socket read in progress were counted after the pause began).
   */
  private throttle(waitMs: number): void {
    this.throttleTimer = setTimeout(() => {
      const more = this.budget.waitFrom(Date.now());
      if (more > 0 && !this.gone) return this.throttle(more);
      this.throttleTimer = undefined;
      this.updateReading();
    }, waitMs);
    this.throttleTimer.unref();
  }
}

/** The TCP socket under a `ws` WebSocket (`_socket`, internal to `ws` 8), if it is there. */
function socketOf(ws: WebSocket): { cork(): void; uncork(): void } | undefined {
  const socket = (ws as unknown as { _socket?: { cork?: unknown; uncork?: unknown } })._socket;
  return typeof socket?.cork === "function" && typeof socket.uncork === "function"
    ? (socket as { cork(): void; uncork(): void })
    : undefined;
}

/** Sockets corked until the end of the current tick. */
const corked = new WeakSet<WebSocket>();

/**
 * Gathers the frames sent to `ws` in this tick into one write: one socket read can hold thousands
 * of small frames for one destination, and `ws` writes each of them with a system call of its own
 * (it corks and uncorks the socket per frame). Corking the socket once more until the end of the
 * tick turns those into one `writev`. Without access to the socket (a future `ws`), frames are
 * written one by one as before.
 */
function batchWrites(ws: WebSocket): void {
  if (corked.has(ws)) return;
  const socket = socketOf(ws);
  if (socket === undefined) return;
  corked.add(ws);
  socket.cork();
  process.nextTick(() => {
    corked.delete(ws);
    socket.uncork();
  });
}

/** Backpressure policy between parties; one per relay. */
export class FlowControl {
  /**
   * @param unblocked called for a sender no destination holds any more: routes what it parked and
   * reads its socket again
   */
  constructor(
    private readonly limit: QueueLimit,
    private readonly unblocked: (sender: Party) => void,
  ) {}

  /**
   * Queues `data` towards `dest`; if that leaves `dest` over the limit, pauses `sender` until it
   * drains. `sender` is omitted for relay-originated control messages.
   */
  send(dest: Party, data: Buffer | string, sender?: Party): void {
    const ws = dest.ws;
    // A socket that is closing takes nothing more (`ws` would build an error per frame); the
    // relay learns of the close from its event and then treats the party as away or gone.
    if (ws.readyState !== ws.OPEN) return;
    batchWrites(ws);
    const queue = dest.queue;
    const length = data.length;
    queue.add(length);
    ws.send(data, { binary: typeof data !== "string" }, (error) => {
      queue.done(length);
      // A failed write means the socket died: its close event detaches the party and releases
      // its waiters then, not now (the senders would only pour more frames into a dead socket).
      if (error === undefined || error === null) {
        if (queue === dest.queue) this.releaseIfDrained(dest);
      }
    });
    if (sender !== undefined && dest.bufferedOver(this.limit)) this.hold(sender, dest);
  }

  /** Sends a JSON control message (a text frame). */
  sendControl(dest: Party, message: ControlMessage, sender?: Party): void {
    this.send(dest, JSON.stringify(message), sender);
  }

  /**
   * Forgets `party` in both directions; resumes senders that were waiting on it, and routes what
   * `party` parked (a party that went away still has its received frames delivered).
   */
  detach(party: Party): void {
    const wasHeld = party.blockedOn.size > 0;
    for (const dest of party.blockedOn) dest.waiters.delete(party);
    party.blockedOn.clear();
    this.releaseWaiters(party);
    if (wasHeld || party.parked.length > 0) this.unblocked(party);
  }

  /** Stops reading from `sender` until `dest` drained (or left). */
  hold(sender: Party, dest: Party): void {
    if (sender.gone || sender.away || sender.blockedOn.has(dest)) return;
    sender.blockedOn.add(dest);
    dest.waiters.add(sender);
    sender.updateReading();
  }

  /** Resumes the senders waiting on `dest` if its buffer is back under the limit. */
  releaseIfDrained(dest: Party): void {
    if (dest.waiters.size > 0 && !dest.bufferedOver(this.limit)) {
      this.releaseWaiters(dest);
    }
  }

  private releaseWaiters(dest: Party): void {
    const senders = [...dest.waiters];
    dest.waiters.clear();
    for (const sender of senders) {
      sender.blockedOn.delete(dest);
      if (sender.blockedOn.size === 0) this.unblocked(sender);
    }
  }
}

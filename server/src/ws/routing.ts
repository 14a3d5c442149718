/**
 * Routing of data frames (PROTOCOL.md §3.1): the destination byte is checked, the sender slot
 * stamped by the relay, the frame copied into the destination's arena, kept for resume (protocol
 * 2) and queued towards the destination, with backpressure on the sender.
 *
 * **Parking.** Pausing a sender's socket takes effect after the socket read in progress: `ws`
 * hands over every message of that read at once, up to 64 KiB of wire bytes, which is more than
 * 9,000 frames when they are tiny. Queued on the destination's socket such a frame costs about
 * half a kilobyte (write request, header, callback); so once a sender is paused, the rest of its
 * read is *parked* instead: kept in arrival order as it came from `ws` (a view into the read
 * chunk, about a tenth of that), and routed when the sender is released, before anything it sends
 * later (its socket stays paused until nothing is parked). Parked frames were received by the
 * relay and may have been acknowledged (protocol 2), so they are delivered even if their sender
 * drops meanwhile; they are forgotten only when the sender leaves for good.
 */
import type { RelayMetrics } from "../http/metrics.js";
import type { Logger } from "../log.js";
import type { ErrorCode } from "../protocol.js";
import { CloseCode } from "../protocol.js";
import { errorFrame } from "./join-request.js";
import type { FlowControl, Party } from "./party.js";
import type { QueueLimit } from "./send-queue.js";

/** What routing needs from the connection manager. */
export interface RoutingHooks {
  /** Closes the party with a fatal error frame and removes it. */
  fail(party: Party, code: ErrorCode, message: string, closeCode: number): void;
  /** Removes a party whose slot ended (`leaveReason` already set). */
  depart(party: Party): void;
  /** Sends a protocol-2 party its `ack`. */
  acknowledge(party: Party): void;
}

/** Routes one relay's data frames. */
export class Router {
  constructor(
    private readonly flow: FlowControl,
    private readonly queueLimit: QueueLimit,
    private readonly outboxLimit: QueueLimit,
    private readonly ackBytes: number,
    private readonly metrics: RelayMetrics,
    private readonly log: Logger,
    private readonly hooks: RoutingHooks,
  ) {}

  /** A binary message from `party`: checked and counted now, routed now or parked. */
  receive(party: Party, data: Buffer): void {
    if (data.length === 0) {
      this.hooks.fail(party, "empty-frame", "a data frame needs at least the destination byte", CloseCode.EmptyFrame);
      return;
    }
    const destination = data[0]!;
    if (destination >= party.room.parties || destination === party.slot) {
      const why = destination === party.slot ? "a party cannot send to its own slot" : "destination slot out of range";
      this.hooks.fail(party, "bad-destination", why, CloseCode.BadDestination);
      return;
    }
    if (party.resumable && party.inbox.record(data.length, this.ackBytes)) this.hooks.acknowledge(party);
    if (party.parked.length > 0 || party.blockedOn.size > 0) {
      party.parked.push(data);
      return;
    }
    this.route(party, data);
  }

  /**
   * Routes the frames `sender` has parked, oldest first, until it is held again; then, with
   * nothing left parked, lets its socket be read again.
   */
  unblocked(sender: Party): void {
    if (sender.gone) return;
    let next = 0;
    while (next < sender.parked.length && sender.blockedOn.size === 0) {
      this.route(sender, sender.parked[next]!);
      next += 1;
    }
    sender.parked.splice(0, next);
    sender.updateReading();
  }

  /** Routes a checked data frame from `party` to the slot its first byte names. */
  private route(party: Party, data: Buffer): void {
    const { room, slot } = party;
    const destination = data[0]!;
    const now = Date.now();
    const target = room.slots[destination];
    if (target === undefined || target.gone) {
      // Not fatal: the destination may have left while this frame was in flight. At most one
      // warning per destination a second, so a flood of frames to an empty slot is not echoed.
      if (party.warnNotConnected(destination, now) && !party.gone && !party.away) {
        this.flow.send(
          party,
          errorFrame("peer-not-connected", "destination slot is not connected; frame dropped", false, destination),
          party,
        );
      }
      return;
    }
    // A frame the relay queues must hold no memory but its own (not the socket's read chunk).
    const frame = target.arena.copy(data);
    // The relay, not the sender, writes the sender slot: a party cannot claim another slot.
    frame[0] = slot;
    party.lastActivity = now;
    target.lastActivity = now;
    this.metrics.counters.framesRouted += 1;
    this.metrics.counters.bytesRouted += frame.length;
    if (!target.resumable) {
      this.flow.send(target, frame, party);
      return;
    }
    target.outbox.push(frame);
    if (!target.away) {
      this.flow.send(target, frame, party);
      target.outbox.trimTo(this.outboxLimit);
    } else if (target.outbox.over(this.outboxLimit)) {
      this.log.warn("resume-buffer-full", { room: room.id, slot: target.slot });
      target.leaveReason = "buffer-full";
      this.hooks.depart(target);
    } else if (target.outbox.over(this.queueLimit)) {
      // Held frames count like a full socket buffer: stop reading from the sender for now.
      this.flow.hold(party, target);
    }
  }
}

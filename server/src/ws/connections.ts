/**
 * WebSocket side of the relay: admitting a socket to a room slot, routing binary data frames with
 * the sender slot stamped by the relay, control notifications (`welcome`, `joined`, `ready`,
 * `left`, `peer-left`, `peer-away`, `peer-back`, `ack`, `error`), resume of a dropped party
 * (protocol 2), the idle timeout, the stall check and the ping/pong heartbeat.
 *
 * Every queue the relay keeps for a party (its socket's queue, its resume outbox) is capped in
 * frames as well as bytes, and every frame routed is copied into the destination's arena
 * (`frame-arena.ts`), so the limits bound the relay's memory for frames of any size. A party for which frames wait and which reads none of them for `stallTimeoutMs` is the
 * one dropped (`stalled`); a sender the relay paused on its behalf is never dropped for the silence
 * the pause causes (the heartbeat does not judge a paused party, nor one whose ping waits behind
 * queued frames).
 */
import type { EventEmitter } from "node:events";
import type { WebSocket } from "ws";
import type { RelayConfig } from "../config.js";
import { errorFrame, parseJoin, REFUSALS, type JoinRequest } from "./join-request.js";
import type { ClientLimits } from "../limits.js";
import { collectorFunction, MemoryReclaimer } from "../memory.js";
import type { Logger } from "../log.js";
import type { RelayMetrics } from "../http/metrics.js";
import { FlowControl, Party } from "./party.js";
import { CloseCode, type ControlMessage, type ErrorCode, type LeaveReason, type WelcomeMessage } from "../protocol.js";
import { parseAck } from "./resume.js";
import { Router } from "./routing.js";
import type { QueueLimit } from "./send-queue.js";
import type { Room, RoomRegistry } from "../rooms.js";

/** Snapshot of load figures (no room ids, tokens or addresses). */
export interface ConnectionStats {
  rooms: number;
  connections: number;
  /** Payload bytes queued towards all parties and not yet handed to the kernel (or held while away). */
  bufferedBytes: number;
  /** Frames queued towards all parties (as `bufferedBytes`). */
  bufferedFrames: number;
  /** Parties the relay currently stops reading from because a destination is full. */
  pausedConnections: number;
  /** Parties whose connection dropped and who may still resume. */
  awayParties: number;
  /** Bytes kept for resumes: sent but unacknowledged, or held for away parties. */
  heldBytes: number;
  /** Frames kept for resumes (as `heldBytes`). */
  heldFrames: number;
  /** Frames received from paused senders, waiting to be routed (the rest of a socket read). */
  parkedFrames: number;
  /** Full heap collections run after large departures (server/src/memory.ts). */
  collections: number;
  /** 1 while such a collection is scheduled and has not run yet, else 0. */
  collectionScheduled: number;
}

/** WebSocket close code of a connection that ended without a close frame (a dropped connection). */
const ABNORMAL_CLOSURE = 1006;
/** How often the relay acknowledges frames that did not reach `ackBytes` (protocol 2). */
const ACK_SWEEP_MS = 100;
/** Largest `ackBytes` the relay asks for. */
const MAX_ACK_BYTES = 1024 * 1024;

/** Connected slots of a room: occupied and not away. */
function rosterOf(room: Room<Party>): number[] {
  const roster: number[] = [];
  room.slots.forEach((party, slot) => {
    if (party !== undefined && !party.away && !party.gone) roster.push(slot);
  });
  return roster;
}

/** Owns every party connection of one relay. */
export class ConnectionManager {
  private readonly flow: FlowControl;
  private readonly router: Router;
  /** Parties with a live connection. */
  private readonly parties = new Set<Party>();
  /** Parties whose connection dropped, within their grace period. */
  private readonly away = new Set<Party>();
  private readonly sockets = new Set<WebSocket>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly ackBytes: number;
  /** Caps of a party's socket queue (backpressure) and of its resume outbox. */
  private readonly queueLimit: QueueLimit;
  private readonly outboxLimit: QueueLimit;
  private readonly reclaimer = new MemoryReclaimer(collectorFunction());
  private shuttingDown = false;

  constructor(
    private readonly config: RelayConfig,
    private readonly rooms: RoomRegistry<Party>,
    private readonly limits: ClientLimits,
    private readonly log: Logger,
    private readonly metrics: RelayMetrics,
  ) {
    this.ackBytes = Math.max(1, Math.min(MAX_ACK_BYTES, Math.floor(config.resumeBufferBytes / 4)));
    this.queueLimit = { bytes: config.maxBufferedBytes, frames: config.maxBufferedFrames };
    this.outboxLimit = { bytes: config.resumeBufferBytes, frames: config.resumeBufferFrames };
    this.flow = new FlowControl(this.queueLimit, (sender) => this.router.unblocked(sender));
    this.router = new Router(this.flow, this.queueLimit, this.outboxLimit, this.ackBytes, metrics, log, {
      fail: (party, code, message, closeCode) => this.fail(party, code, message, closeCode),
      depart: (party) => this.depart(party),
      acknowledge: (party) => this.acknowledge(party),
    });
    const heartbeat = setInterval(() => this.heartbeat(), config.heartbeatIntervalMs);
    // Check idleness often enough that a party is dropped within ~25% after its deadline.
    const sweepMs = Math.max(5, Math.min(1000, Math.floor(config.idleTimeoutMs / 4)));
    const idleSweep = setInterval(() => this.dropIdle(), sweepMs);
    // The same for stalls: a stalled party is dropped within ~25% after its deadline.
    const stallSweepMs = Math.max(5, Math.min(1000, Math.floor(config.stallTimeoutMs / 4)));
    const stallSweep = setInterval(() => this.dropStalled(), stallSweepMs);
    const ackSweep = setInterval(() => this.acknowledgeAll(), ACK_SWEEP_MS);
    for (const timer of [heartbeat, idleSweep, stallSweep, ackSweep]) {
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Load figures for `/healthz`, `/metrics` and tests. */
  stats(): ConnectionStats {
    let bufferedBytes = 0;
    let bufferedFrames = 0;
    let pausedConnections = 0;
    let heldBytes = 0;
    let heldFrames = 0;
    let parkedFrames = 0;
    for (const party of [...this.parties, ...this.away]) {
      bufferedBytes += party.bufferedBytes;
      bufferedFrames += party.bufferedFrames;
      heldBytes += party.outbox.bytes;
      heldFrames += party.outbox.kept;
      parkedFrames += party.parked.length;
      if (party.paused) pausedConnections += 1;
    }
    return {
      rooms: this.rooms.size,
      connections: this.parties.size,
      bufferedBytes,
      bufferedFrames,
      pausedConnections,
      awayParties: this.away.size,
      heldBytes,
      heldFrames,
      parkedFrames,
      collections: this.reclaimer.runs,
      collectionScheduled: this.reclaimer.scheduled ? 1 : 0,
    };
  }

  /**
   * Takes over a freshly upgraded socket whose URL carried `params`, from the client `address`
   * whose limit key is `addressKey`.
   */
  accept(ws: WebSocket, params: URLSearchParams, address: string, addressKey: string): void {
    this.sockets.add(ws);
    ws.on("close", () => this.sockets.delete(ws));
    // Socket errors (resets, protocol violations) are followed by 'close'; nothing else to do.
    ws.on("error", () => undefined);
    if (this.shuttingDown) {
      ws.close(CloseCode.GoingAway, "relay shutting down");
      return;
    }
    if (!this.limits.connections.acquire([addressKey])) {
      this.log.debug("join-refused", { code: "too-many-connections", address });
      this.refuse(ws, "too-many-connections", "this address holds too many connections", CloseCode.TooManyConnections);
      return;
    }
    ws.on("close", () => this.limits.connections.release([addressKey]));
    const request = parseJoin(params, this.config.minProtocol);
    if ("code" in request) {
      this.log.debug("join-refused", { code: request.code, address });
      this.refuse(ws, request.code, request.message, request.close);
      return;
    }
    if (request.resume !== undefined) {
      this.resume(ws, request, request.resume, address);
      return;
    }
    const result = this.rooms.join(
      request.room,
      request.slot,
      request.token,
      (room) => new Party(ws, room, request.slot, request.protocol, Date.now(), this.config.maxFramesPerSecond),
    );
    if (!result.ok) {
      const refusal = REFUSALS[result.refusal];
      this.log.debug("join-refused", { code: result.refusal, address });
      this.refuse(ws, result.refusal, refusal.message, refusal.close);
      return;
    }
    this.log.debug("joined", { room: request.room, slot: request.slot, protocol: request.protocol, address });
    this.metrics.counters.joins += 1;
    this.parties.add(result.occupant);
    this.attach(result.occupant, ws);
    this.announceJoin(result.occupant);
  }

  /** Stops timers and closes every socket with 1001; resolves when all have closed. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const timer of this.timers) clearInterval(timer);
    this.reclaimer.stop();
    const closed = [...this.sockets].map(
      (ws) => new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once("close", () => resolve());
      }),
    );
    for (const party of [...this.parties, ...this.away]) {
      party.gone = true;
      clearTimeout(party.graceTimer);
    }
    this.away.clear();
    for (const ws of this.sockets) ws.close(CloseCode.GoingAway, "relay shutting down");
    const grace = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.config.shutdownGraceMs);
      timer.unref();
    });
    await Promise.race([Promise.all(closed), grace]);
    for (const ws of this.sockets) ws.terminate();
    await Promise.all(closed);
    this.parties.clear();
    this.rooms.clear();
  }

  private refuse(ws: WebSocket, code: ErrorCode, message: string, closeCode: number): void {
    this.metrics.refused(code);
    ws.send(errorFrame(code, message, true));
    ws.close(closeCode, code);
  }

  /** Resume (protocol 2): `ws` takes over the slot of a party whose connection dropped. */
  private resume(ws: WebSocket, request: JoinRequest, received: number, address: string): void {
    const claim = this.rooms.claim(request.room, request.slot, request.token);
    if (!claim.ok) {
      const refusal = REFUSALS[claim.refusal];
      this.log.debug("resume-refused", { code: claim.refusal, address });
      this.refuse(ws, claim.refusal, refusal.message, refusal.close);
      return;
    }
    const party = claim.occupant;
    if (party === undefined || party.gone || !party.resumable || !party.room.inSession) {
      this.log.debug("resume-refused", { code: "resume-failed", address });
      this.refuse(ws, "resume-failed", "nothing to resume: this slot's session has ended", CloseCode.ResumeFailed);
      return;
    }
    if (!party.outbox.canResumeAfter(received)) {
      this.log.warn("resume-refused", { code: "resume-failed", room: party.room.id, slot: party.slot, address });
      this.refuse(ws, "resume-failed", "frames this party has not received are no longer kept", CloseCode.ResumeFailed);
      party.leaveReason = "resume-failed";
      if (!party.away) party.ws.terminate();
      this.depart(party);
      return;
    }
    const wasAway = party.away;
    const old = party.ws;
    // From here on, events of the old socket are ignored (they check `party.ws`).
    party.replaceSocket(ws, Date.now());
    if (wasAway) {
      clearTimeout(party.graceTimer);
      this.away.delete(party);
      party.away = false;
    } else {
      // The relay had not noticed the drop yet (half-open connection): the token holder knows better.
      old.terminate();
    }
    party.alive = true;
    party.lastActivity = Date.now();
    party.leaveReason = "closed";
    party.outbox.acknowledge(received);
    this.parties.add(party);
    this.attach(party, ws);
    // A frame budget spent before the drop still holds for the new socket.
    party.updateReading();
    this.flow.sendControl(party, this.welcome(party, true));
    party.inbox.acknowledge();
    for (const frame of party.outbox.pending()) this.flow.send(party, frame);
    // Only now release the senders held back by what was kept for the party (its old socket's
    // queue is gone): routing their parked frames sends them on the new socket, so they must
    // come behind the welcome and the re-sent frames, and once (they join the outbox as routed).
    this.flow.detach(party);
    this.metrics.counters.resumes += 1;
    this.log.debug("resumed", { room: party.room.id, slot: party.slot, resent: party.outbox.kept, address });
    if (wasAway) {
      this.broadcast(party.room, { type: "peer-back", slot: party.slot, roster: rosterOf(party.room) }, party, true);
    }
  }

  private attach(party: Party, ws: WebSocket): void {
    ws.on("pong", () => {
      if (party.ws === ws) party.alive = true;
    });
    ws.on("message", (data, isBinary) => {
      if (party.ws === ws) this.onMessage(party, data as Buffer, isBinary);
    });
    ws.on("close", (code) => this.onSocketClose(party, ws, code));
    // ws reports protocol violations (e.g. an oversize frame) here and then closes with its own
    // code; free the slot now rather than after the close handshake.
    ws.on("error", () => {
      if (party.ws !== ws || party.gone) return;
      party.leaveReason = "error";
      this.depart(party);
    });
    interceptOversize(ws, this.config.maxPayloadBytes);
  }

  private welcome(party: Party, resumed: boolean): WelcomeMessage {
    const { room, slot } = party;
    const welcome: WelcomeMessage = {
      type: "welcome",
      protocol: party.protocol,
      room: room.id,
      slot,
      parties: room.parties,
      roster: rosterOf(room),
      maxPayloadBytes: this.config.maxPayloadBytes,
    };
    if (party.resumable) {
      welcome.resumeGraceMs = this.config.resumeGraceMs;
      welcome.ackBytes = this.ackBytes;
      welcome.resumed = resumed;
      welcome.received = party.inbox.received;
    }
    return welcome;
  }

  private announceJoin(party: Party): void {
    const { room, slot } = party;
    this.flow.sendControl(party, this.welcome(party, false));
    const roster = rosterOf(room);
    this.broadcast(room, { type: "joined", slot, roster });
    if (room.isFull()) {
      room.inSession = true;
      room.settle();
      this.broadcast(room, { type: "ready", roster });
    }
  }

  /** Sends `message` to every connected party of `room` (but `except`; protocol 2 only if asked). */
  private broadcast(room: Room<Party>, message: ControlMessage, except?: Party, v2Only = false): void {
    for (const member of room.slots) {
      if (member === undefined || member === except || member.gone || member.away) continue;
      if (v2Only && !member.resumable) continue;
      this.flow.sendControl(member, message);
    }
  }

  private onMessage(party: Party, data: Buffer, isBinary: boolean): void {
    if (party.gone || party.away) return;
    party.alive = true;
    party.spendFrame(Date.now());
    if (!isBinary) {
      const received = party.resumable ? parseAck(data.toString("utf8")) : undefined;
      if (received === undefined) {
        const what = party.resumable ? "parties send binary data frames and ack messages only" : "parties send binary data frames only";
        this.fail(party, "unexpected-text", what, CloseCode.UnexpectedText);
      } else if (!party.outbox.acknowledge(received)) {
        this.fail(party, "bad-ack", "ack counts more frames than the relay sent", CloseCode.BadAck);
      }
      return;
    }
    this.router.receive(party, data);
  }

  /** Sends a protocol-2 party the count of frames received from it. */
  private acknowledge(party: Party): void {
    this.flow.sendControl(party, { type: "ack", received: party.inbox.acknowledge() });
  }

  private acknowledgeAll(): void {
    for (const party of this.parties) {
      if (party.resumable && party.inbox.behind) this.acknowledge(party);
    }
  }

  private fail(party: Party, code: ErrorCode, message: string, closeCode: number): void {
    party.leaveReason = "error";
    this.refuse(party.ws, code, message, closeCode);
    this.depart(party);
  }

  /** The current socket of `party` closed: away (dropped, resumable) or gone. */
  private onSocketClose(party: Party, ws: WebSocket, code: number): void {
    if (party.ws !== ws || party.gone || party.away) return;
    // A close frame from the client is a deliberate departure; only a dropped connection waits.
    if (code === ABNORMAL_CLOSURE && party.leaveReason === "closed" && this.canWait(party)) {
      this.goAway(party, "closed");
    } else {
      this.depart(party);
    }
  }

  private canWait(party: Party): boolean {
    return party.resumable && party.room.inSession && this.config.resumeGraceMs > 0 && !this.shuttingDown;
  }

  /**
   * Keeps the slot of a dropped protocol-2 party for the grace period; tells the others. If the
   * grace period passes, the slot ends with `expired` (`grace-expired`, or `stalled` when the relay
   * cut a party that did not read).
   */
  private goAway(party: Party, reason: LeaveReason, expired: LeaveReason = "grace-expired"): void {
    // The socket's queue goes with the socket; the outbox stays for the resume.
    this.reclaimer.freed(party.queue.peakFrames, party.queue.peakBytes);
    party.away = true;
    this.parties.delete(party);
    this.away.add(party);
    this.flow.detach(party);
    party.graceTimer = setTimeout(() => {
      party.leaveReason = expired;
      this.depart(party);
    }, this.config.resumeGraceMs);
    party.graceTimer.unref();
    const { room, slot } = party;
    this.log.debug("away", { room: room.id, slot, reason });
    this.broadcast(room, { type: "peer-away", slot, roster: rosterOf(room), reason }, party, true);
  }

  /** The party leaves its slot for good. */
  private depart(party: Party): void {
    if (party.gone && !this.parties.has(party) && !this.away.has(party)) return;
    party.gone = true;
    clearTimeout(party.graceTimer);
    clearTimeout(party.throttleTimer);
    // Its session is over: what it parked goes nowhere.
    party.parked.length = 0;
    if (!party.away) this.reclaimer.freed(party.queue.peakFrames, party.queue.peakBytes);
    this.reclaimer.freed(party.outbox.kept, party.outbox.bytes);
    this.parties.delete(party);
    this.away.delete(party);
    party.away = false;
    party.outbox.clear();
    this.flow.detach(party);
    const { room, slot } = party;
    if (!this.rooms.leave(room, slot, party) || this.shuttingDown) return;
    const reason: LeaveReason = party.leaveReason;
    this.metrics.departed(reason);
    this.log.debug("left", { room: room.id, slot, reason });
    const roster = rosterOf(room);
    if (!room.inSession) {
      this.broadcast(room, { type: "left", slot, roster, reason });
      return;
    }
    room.inSession = false;
    this.broadcast(room, { type: "peer-left", slot, roster, reason });
    // The session is over: parties still away have nothing left to resume.
    for (const other of room.slots) if (other?.away) this.depart(other);
  }

  private heartbeat(): void {
    for (const party of this.parties) {
      // A party the relay stopped reading cannot be heard, and one whose frames wait at the relay,
      // or were written to its socket since the last beat, gets its ping only after them (in the
      // relay's queue or the kernel's buffers): silence proves nothing there. The stall check
      // judges the second; the first is read again once its destinations drain or are dropped.
      const wrote = party.queue.wroteSinceLastBeat();
      if (party.paused || party.queue.frames > 0 || wrote) {
        party.alive = true;
        continue;
      }
      if (!party.alive) {
        party.leaveReason = "timeout";
        const ws = party.ws;
        if (this.canWait(party)) {
          party.leaveReason = "closed";
          this.goAway(party, "timeout");
        } else {
          this.depart(party);
        }
        ws.terminate();
        continue;
      }
      party.alive = false;
      party.ws.ping();
    }
  }

  /**
   * Drops every party whose waiting frames have not moved for `stallTimeoutMs`: it does not read.
   * A protocol-2 party is cut like a dropped connection (away; it may resume within the grace
   * period, and its slot ends as `stalled` otherwise); any other leaves at once as `stalled`.
   */
  private dropStalled(): void {
    const now = Date.now();
    for (const party of [...this.parties]) {
      const waited = party.queue.stalledFor(now);
      if (waited < this.config.stallTimeoutMs) continue;
      const { room, slot, ws } = party;
      this.metrics.counters.stalls += 1;
      this.log.warn("stalled", { room: room.id, slot, frames: party.queue.frames, bytes: party.queue.bytes, waitedMs: waited });
      if (this.canWait(party)) {
        this.goAway(party, "stalled", "stalled");
      } else {
        party.leaveReason = "stalled";
        this.refuse(ws, "stalled", `frames waited ${waited} ms and none was read`, CloseCode.Stalled);
        this.depart(party);
      }
      // The close frame waits behind frames the party does not read: cut the socket and free them.
      ws.terminate();
    }
  }

  private dropIdle(): void {
    const deadline = Date.now() - this.config.idleTimeoutMs;
    for (const party of this.parties) {
      if (party.lastActivity < deadline) {
        party.leaveReason = "idle";
        this.refuse(party.ws, "idle-timeout", "no data frames for too long", CloseCode.IdleTimeout);
        this.depart(party);
      }
    }
  }
}

/**
 * Sends a `frame-too-large` error frame before `ws` closes the connection with 1009.
 *
 * `ws` enforces `maxPayload` in its frame parser and closes the socket itself, which leaves no
 * hook to explain why. This adds a listener in front of ws's own on the parser's 'error' event
 * (the `_receiver` field, internal to `ws` 8). If a future `ws` renames it, the relay still closes
 * with 1009, only without the explanatory frame.
 */
function interceptOversize(ws: WebSocket, maxPayloadBytes: number): void {
  const receiver = (ws as unknown as { _receiver?: EventEmitter })._receiver;
  if (receiver === undefined || receiver === null) return;
  receiver.prependListener("error", (error: Error & { code?: string }) => {
    if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" && ws.readyState === ws.OPEN) {
      ws.send(errorFrame("frame-too-large", `frames are limited to ${maxPayloadBytes} bytes`, true));
    }
  });
}

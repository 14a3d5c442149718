/**
 * WebSocket side of the relay: admitting a socket to a room slot, routing binary data frames with
 * the sender slot stamped by the relay, control notifications (`welcome`, `joined`, `ready`,
 * `left`, `peer-left`, `error`), the idle timeout and the ping/pong heartbeat.
 */
import type { EventEmitter } from "node:events";
import type { WebSocket } from "ws";
import type { RelayConfig } from "./config.js";
import type { ClientLimits } from "./limits.js";
import type { Logger } from "./log.js";
import type { RelayMetrics } from "./metrics.js";
import { FlowControl, Party } from "./party.js";
import {
  CloseCode,
  PROTOCOL_VERSION,
  type ControlMessage,
  type ErrorCode,
  type ErrorMessage,
  type LeaveReason,
} from "./protocol.js";
import type { JoinRefusal, RoomRegistry } from "./rooms.js";

/** Snapshot of load figures (no room ids, tokens or addresses). */
export interface ConnectionStats {
  rooms: number;
  connections: number;
  /** Bytes queued towards all parties and not yet handed to the kernel. */
  bufferedBytes: number;
  /** Parties the relay currently stops reading from because a destination is full. */
  pausedConnections: number;
}

const REFUSALS: Record<JoinRefusal, { close: number; message: string }> = {
  "unknown-room": { close: CloseCode.UnknownRoom, message: "no such room (it may have expired or emptied)" },
  "bad-slot": { close: CloseCode.BadSlot, message: "slot is outside this room's range" },
  "bad-token": { close: CloseCode.BadToken, message: "token does not match this room slot" },
  "slot-taken": { close: CloseCode.SlotTaken, message: "another connection holds this slot" },
};

/** Query parameters of a join request, parsed but not yet checked against the rooms. */
interface JoinRequest {
  room: string;
  slot: number;
  token: string;
}

function parseJoin(params: URLSearchParams): JoinRequest | string {
  const room = params.get("room");
  const slot = params.get("slot");
  const token = params.get("token");
  if (room === null || room === "") return "missing query parameter 'room'";
  if (token === null || token === "") return "missing query parameter 'token'";
  if (slot === null || !/^\d{1,3}$/.test(slot)) {
    return "query parameter 'slot' must be a decimal slot number";
  }
  return { room, slot: Number(slot), token };
}

function errorFrame(code: ErrorCode, message: string, fatal: boolean, slot?: number): string {
  const frame: ErrorMessage = { type: "error", code, message, fatal };
  if (slot !== undefined) frame.slot = slot;
  return JSON.stringify(frame);
}

/** Owns every party connection of one relay. */
export class ConnectionManager {
  private readonly flow: FlowControl;
  private readonly parties = new Set<Party>();
  private readonly sockets = new Set<WebSocket>();
  private readonly timers: NodeJS.Timeout[] = [];
  private shuttingDown = false;

  constructor(
    private readonly config: RelayConfig,
    private readonly rooms: RoomRegistry<Party>,
    private readonly limits: ClientLimits,
    private readonly log: Logger,
    private readonly metrics: RelayMetrics,
  ) {
    this.flow = new FlowControl(config.maxBufferedBytes);
    const heartbeat = setInterval(() => this.heartbeat(), config.heartbeatIntervalMs);
    // Check idleness often enough that a party is dropped within ~25% after its deadline.
    const sweepMs = Math.max(5, Math.min(1000, Math.floor(config.idleTimeoutMs / 4)));
    const idleSweep = setInterval(() => this.dropIdle(), sweepMs);
    heartbeat.unref();
    idleSweep.unref();
    this.timers.push(heartbeat, idleSweep);
  }

  /** Load figures for `/healthz` and tests. */
  stats(): ConnectionStats {
    let bufferedBytes = 0;
    let pausedConnections = 0;
    for (const party of this.parties) {
      bufferedBytes += party.bufferedAmount;
      if (party.paused) pausedConnections += 1;
    }
    return {
      rooms: this.rooms.size,
      connections: this.parties.size,
      bufferedBytes,
      pausedConnections,
    };
  }

  /**
   * Takes over a freshly upgraded socket whose URL carried `params`, from the client address whose
   * limit key is `addressKey`.
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
    const request = parseJoin(params);
    if (typeof request === "string") {
      this.refuse(ws, "bad-request", request, CloseCode.BadRequest);
      return;
    }
    const result = this.rooms.join(
      request.room,
      request.slot,
      request.token,
      (room) => new Party(ws, room, request.slot, Date.now()),
    );
    if (!result.ok) {
      const refusal = REFUSALS[result.refusal];
      this.log.debug("join-refused", { code: result.refusal, address });
      this.refuse(ws, result.refusal, refusal.message, refusal.close);
      return;
    }
    this.log.debug("joined", { room: request.room, slot: request.slot, address });
    this.metrics.counters.joins += 1;
    this.parties.add(result.occupant);
    this.attach(result.occupant);
    this.announceJoin(result.occupant);
  }

  /** Stops timers and closes every socket with 1001; resolves when all have closed. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const timer of this.timers) clearInterval(timer);
    const closed = [...this.sockets].map(
      (ws) => new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once("close", () => resolve());
      }),
    );
    for (const party of this.parties) party.gone = true;
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

  private attach(party: Party): void {
    const { ws } = party;
    ws.on("pong", () => {
      party.alive = true;
    });
    ws.on("message", (data, isBinary) => this.onMessage(party, data as Buffer, isBinary));
    ws.on("close", () => this.leave(party));
    // ws reports protocol violations (e.g. an oversize frame) here and then closes with its own
    // code; free the slot now rather than after the close handshake.
    ws.on("error", () => {
      party.leaveReason = "error";
      this.leave(party);
    });
    interceptOversize(ws, this.config.maxPayloadBytes);
  }

  private announceJoin(party: Party): void {
    const { room, slot } = party;
    const roster = room.roster();
    this.flow.sendControl(party, {
      type: "welcome",
      protocol: PROTOCOL_VERSION,
      room: room.id,
      slot,
      parties: room.parties,
      roster,
      maxPayloadBytes: this.config.maxPayloadBytes,
    });
    this.broadcast(room.slots, { type: "joined", slot, roster });
    if (room.isFull()) {
      room.inSession = true;
      room.settle();
      this.broadcast(room.slots, { type: "ready", roster });
    }
  }

  private broadcast(slots: (Party | undefined)[], message: ControlMessage): void {
    for (const member of slots) {
      if (member !== undefined && !member.gone) this.flow.sendControl(member, message);
    }
  }

  private onMessage(party: Party, data: Buffer, isBinary: boolean): void {
    if (party.gone) return;
    party.alive = true;
    if (!isBinary) {
      this.fail(party, "unexpected-text", "parties send binary data frames only", CloseCode.UnexpectedText);
      return;
    }
    if (data.length === 0) {
      this.fail(party, "empty-frame", "a data frame needs at least the destination byte", CloseCode.EmptyFrame);
      return;
    }
    const { room, slot } = party;
    const destination = data[0]!;
    if (destination >= room.parties || destination === slot) {
      const why = destination === slot ? "a party cannot send to its own slot" : "destination slot out of range";
      this.fail(party, "bad-destination", why, CloseCode.BadDestination);
      return;
    }
    const target = room.slots[destination];
    if (target === undefined || target.gone) {
      // Not fatal: the destination may have left while this frame was in flight.
      this.flow.send(
        party,
        errorFrame("peer-not-connected", "destination slot is not connected; frame dropped", false, destination),
        party,
      );
      return;
    }
    // The relay, not the sender, writes the sender slot: a party cannot claim another slot.
    data[0] = slot;
    const now = Date.now();
    party.lastActivity = now;
    target.lastActivity = now;
    this.flow.send(target, data, party);
    this.metrics.counters.framesRouted += 1;
    this.metrics.counters.bytesRouted += data.length;
  }

  private fail(party: Party, code: ErrorCode, message: string, closeCode: number): void {
    party.leaveReason = "error";
    this.refuse(party.ws, code, message, closeCode);
    this.leave(party);
  }

  private leave(party: Party): void {
    if (party.gone && !this.parties.has(party)) return;
    party.gone = true;
    this.parties.delete(party);
    this.flow.detach(party);
    const { room, slot } = party;
    if (!this.rooms.leave(room, slot, party) || this.shuttingDown) return;
    const reason: LeaveReason = party.leaveReason;
    this.metrics.departed(reason);
    this.log.debug("left", { room: room.id, slot, reason });
    const roster = room.roster();
    if (room.inSession) {
      room.inSession = false;
      this.broadcast(room.slots, { type: "peer-left", slot, roster, reason });
    } else {
      this.broadcast(room.slots, { type: "left", slot, roster, reason });
    }
  }

  private heartbeat(): void {
    for (const party of this.parties) {
      if (!party.alive) {
        party.leaveReason = "timeout";
        party.ws.terminate();
        this.leave(party);
        continue;
      }
      party.alive = false;
      party.ws.ping();
    }
  }

  private dropIdle(): void {
    const deadline = Date.now() - this.config.idleTimeoutMs;
    for (const party of this.parties) {
      if (party.lastActivity < deadline) {
        party.leaveReason = "idle";
        this.refuse(party.ws, "idle-timeout", "no data frames for too long", CloseCode.IdleTimeout);
        this.leave(party);
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

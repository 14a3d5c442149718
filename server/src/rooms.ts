/**
 * Room bookkeeping, independent of WebSockets: creation with one token per slot, slot admission
 * (token check, slot taken), rosters, expiry of rooms nobody joined, and removal of emptied rooms.
 * The connection type is a parameter so this module needs no network to test or reason about.
 */
import { MAX_PARTIES, MIN_PARTIES } from "./protocol.js";
import { newRoomId, newToken, tokenDigest, tokenMatches } from "./tokens.js";

/** A room: a fixed number of slots, each with its token digest and current occupant. */
export class Room<C> {
  /** Occupant of each slot, `undefined` while free. */
  readonly slots: (C | undefined)[];
  /** True between a `ready` (all slots connected) and the next departure. */
  inSession = false;
  private expiryTimer: NodeJS.Timeout | undefined;
  private settleHook: (() => void) | undefined;

  constructor(
    readonly id: string,
    readonly parties: number,
    private readonly tokenDigests: Buffer[],
    readonly expiresAt: number,
  ) {
    this.slots = new Array<C | undefined>(parties).fill(undefined);
  }

  /** Slots currently occupied, ascending. */
  roster(): number[] {
    const occupied: number[] = [];
    this.slots.forEach((occupant, slot) => {
      if (occupant !== undefined) occupied.push(slot);
    });
    return occupied;
  }

  /** Number of connected parties. */
  occupancy(): number {
    return this.roster().length;
  }

  /** Whether every slot is occupied. */
  isFull(): boolean {
    return this.occupancy() === this.parties;
  }

  /** Whether `token` is the token of `slot` (constant time in the token). */
  tokenMatches(slot: number, token: string): boolean {
    const digest = this.tokenDigests[slot];
    return digest !== undefined && tokenMatches(token, digest);
  }

  /**
   * Ends the room's time as a *pending* room (created, not yet full): runs the hook given at
   * creation once, when every slot is first joined or when the room is deleted, whichever is first.
   */
  settle(): void {
    const hook = this.settleHook;
    this.settleHook = undefined;
    hook?.();
  }

  /** @internal set by the registry at creation. */
  setSettleHook(hook: (() => void) | undefined): void {
    this.settleHook = hook;
  }

  /** @internal used by the registry to arm and disarm the join deadline. */
  setExpiryTimer(timer: NodeJS.Timeout | undefined): void {
    if (this.expiryTimer !== undefined) clearTimeout(this.expiryTimer);
    this.expiryTimer = timer;
  }
}

/** Why a join attempt was refused. */
export type JoinRefusal = "unknown-room" | "bad-slot" | "bad-token" | "slot-taken";

/** Outcome of `RoomRegistry.join`. */
export type JoinResult<C> =
  | { ok: true; room: Room<C>; occupant: C }
  | { ok: false; refusal: JoinRefusal };

/** What `POST /rooms` hands out. */
export interface CreatedRoom {
  room: string;
  parties: number;
  tokens: string[];
  expiresAt: number;
}

/** The room count limit is reached. */
export class TooManyRoomsError extends Error {
  constructor(limit: number) {
    super(`the relay already holds its maximum of ${limit} rooms`);
    this.name = "TooManyRoomsError";
  }
}

/** All rooms of one relay. */
export class RoomRegistry<C> {
  private readonly rooms = new Map<string, Room<C>>();

  /**
   * @param idPrefix starts every room id (a cluster instance's name and a dot; empty for a lone
   * relay)
   */
  constructor(
    private readonly maxRooms: number,
    private readonly roomTtlMs: number,
    private readonly now: () => number = Date.now,
    private readonly idPrefix = "",
  ) {}

  /** Number of rooms that exist. */
  get size(): number {
    return this.rooms.size;
  }

  /** Total connected parties over all rooms. */
  connectionCount(): number {
    let total = 0;
    for (const room of this.rooms.values()) total += room.occupancy();
    return total;
  }

  /** Every room (for shutdown). */
  all(): IterableIterator<Room<C>> {
    return this.rooms.values();
  }

  /**
   * Creates a room with `parties` slots. The caller has validated `parties`; this checks it again
   * because a room with an out-of-range slot count would break the one-byte header.
   */
  create(parties: number, onSettle?: () => void): CreatedRoom {
    if (!Number.isInteger(parties) || parties < MIN_PARTIES || parties > MAX_PARTIES) {
      throw new RangeError(`parties must be an integer in ${MIN_PARTIES}..${MAX_PARTIES}`);
    }
    if (this.rooms.size >= this.maxRooms) throw new TooManyRoomsError(this.maxRooms);
    let id = newRoomId(this.idPrefix);
    while (this.rooms.has(id)) id = newRoomId(this.idPrefix);
    const tokens = Array.from({ length: parties }, () => newToken());
    const expiresAt = this.now() + this.roomTtlMs;
    const room = new Room<C>(id, parties, tokens.map(tokenDigest), expiresAt);
    room.setSettleHook(onSettle);
    const timer = setTimeout(() => {
      if (this.rooms.get(id) === room && room.occupancy() === 0) this.delete(room);
    }, this.roomTtlMs);
    timer.unref();
    room.setExpiryTimer(timer);
    this.rooms.set(id, room);
    return { room: id, parties, tokens, expiresAt };
  }

  /** Looks a room up by id. */
  get(id: string): Room<C> | undefined {
    return this.rooms.get(id);
  }

  /**
   * Admits a connection to `slot` of room `id` if the token matches and the slot is free; the
   * occupant is built by `occupy` once admission is certain. The first join disarms the expiry.
   */
  join(id: string, slot: number, token: string, occupy: (room: Room<C>) => C): JoinResult<C> {
    const room = this.rooms.get(id);
    if (room === undefined) return { ok: false, refusal: "unknown-room" };
    if (!Number.isInteger(slot) || slot < 0 || slot >= room.parties) {
      return { ok: false, refusal: "bad-slot" };
    }
    // Check the token before revealing whether the slot is occupied.
    if (!room.tokenMatches(slot, token)) return { ok: false, refusal: "bad-token" };
    if (room.slots[slot] !== undefined) return { ok: false, refusal: "slot-taken" };
    const occupant = occupy(room);
    room.slots[slot] = occupant;
    room.setExpiryTimer(undefined);
    return { ok: true, room, occupant };
  }

  /**
   * Checks room, slot and token like {@link join} but leaves occupancy to the caller: returns the
   * room and the slot's current occupant (a resume takes an occupied slot over).
   */
  claim(id: string, slot: number, token: string): { ok: true; room: Room<C>; occupant: C | undefined } | { ok: false; refusal: JoinRefusal } {
    const room = this.rooms.get(id);
    if (room === undefined) return { ok: false, refusal: "unknown-room" };
    if (!Number.isInteger(slot) || slot < 0 || slot >= room.parties) return { ok: false, refusal: "bad-slot" };
    if (!room.tokenMatches(slot, token)) return { ok: false, refusal: "bad-token" };
    return { ok: true, room, occupant: room.slots[slot] };
  }

  /**
   * Frees `slot` if `connection` holds it; deletes the room when it becomes empty.
   * Returns whether the connection held the slot (so callers notify the others only once).
   */
  leave(room: Room<C>, slot: number, connection: C): boolean {
    if (room.slots[slot] !== connection) return false;
    room.slots[slot] = undefined;
    if (room.occupancy() === 0 && this.rooms.get(room.id) === room) this.delete(room);
    return true;
  }

  /** Removes `room` and ends its pending time. */
  delete(room: Room<C>): void {
    room.setExpiryTimer(undefined);
    if (this.rooms.get(room.id) === room) this.rooms.delete(room.id);
    room.settle();
  }

  /** Cancels every expiry timer and forgets all rooms. */
  clear(): void {
    for (const room of [...this.rooms.values()]) this.delete(room);
  }
}

/**
 * Network-free units of the relay's memory and CPU bounds: the per-destination frame arena, the
 * socket queue's caps and stall clock, the resume outbox's frame cap, the frame budget, room ids
 * of a cluster instance, and the reclaimer's schedule.
 */
import { describe, expect, it, vi } from "vitest";
import { resolveConfig, parseCli } from "../src/config.js";
import { MemoryReclaimer, RECLAIM_MIN_INTERVAL_MS, RECLAIM_THRESHOLD_BYTES } from "../src/memory.js";
import { RoomRegistry } from "../src/rooms.js";
import { FrameArena, SLAB_BYTES } from "../src/ws/frame-arena.js";
import { FrameBudget } from "../src/ws/frame-rate.js";
import { Outbox } from "../src/ws/resume.js";
import { SendQueue } from "../src/ws/send-queue.js";

describe("frame arena", () => {
  it("copies views of a larger chunk into slabs of its own, never aliasing the chunk", () => {
    const chunk = Buffer.alloc(64 * 1024, 9);
    const view = chunk.subarray(100, 102);
    const arena = new FrameArena();
    const copy = arena.copy(view);
    expect(copy.equals(view)).toBe(true);
    expect(copy.buffer).not.toBe(chunk.buffer);
    expect(copy.buffer.byteLength).toBe(SLAB_BYTES);
    chunk.fill(0);
    expect([...copy]).toEqual([9, 9]);
  });

  it("packs small copies into one slab and starts a new one when it is full", () => {
    const arena = new FrameArena();
    const first = arena.copy(Buffer.alloc(8, 1));
    const second = arena.copy(Buffer.alloc(8, 2));
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteOffset).toBe(first.byteOffset + 8);
    let last = second;
    for (let i = 0; i < SLAB_BYTES / 8; i += 1) last = arena.copy(Buffer.alloc(8, 3));
    expect(last.buffer).not.toBe(first.buffer);
  });

  it("gives large frames an exact allocation, and keeps buffers that already own their memory", () => {
    const arena = new FrameArena();
    const own = Buffer.allocUnsafeSlow(SLAB_BYTES);
    expect(arena.copy(own)).toBe(own);
    const big = Buffer.alloc(3 * SLAB_BYTES).subarray(10, 10 + SLAB_BYTES);
    const copy = arena.copy(big);
    expect(copy.buffer.byteLength).toBe(SLAB_BYTES);
    expect(copy.equals(big)).toBe(true);
  });
});

describe("send queue", () => {
  it("is over its limit past either cap", () => {
    const queue = new SendQueue(0);
    for (let i = 0; i < 10; i += 1) queue.add(2);
    expect(queue.over({ bytes: 1000, frames: 10 })).toBe(false);
    queue.add(2);
    expect(queue.over({ bytes: 1000, frames: 10 })).toBe(true);
    expect(queue.over({ bytes: 21, frames: 100 })).toBe(true);
    queue.done(2);
    expect(queue).toMatchObject({ frames: 10, bytes: 20, peakFrames: 11, peakBytes: 22 });
  });

  it("counts stall time only while frames wait and none is written", () => {
    const queue = new SendQueue(0);
    expect(queue.stalledFor(5000)).toBe(0);
    queue.add(10);
    expect(queue.stalledFor(6000)).toBe(1000);
    expect(queue.stalledFor(9000)).toBe(4000);
    queue.add(10);
    queue.done(10);
    expect(queue.stalledFor(9500)).toBe(0);
    expect(queue.stalledFor(10_000)).toBe(500);
    queue.done(10);
    expect(queue.stalledFor(20_000)).toBe(0);
  });
});

describe("resume outbox", () => {
  it("forgets the oldest frames past either cap", () => {
    const outbox = new Outbox();
    for (let i = 0; i < 10; i += 1) outbox.push(Buffer.alloc(1));
    outbox.trimTo({ bytes: 1000, frames: 4 });
    expect(outbox.kept).toBe(4);
    expect(outbox.canResumeAfter(6)).toBe(true);
    expect(outbox.canResumeAfter(5)).toBe(false);
    expect(outbox.over({ bytes: 3, frames: 100 })).toBe(true);
  });
});

describe("frame budget", () => {
  it("allows a second's worth at once, then refills at its rate", () => {
    const budget = new FrameBudget(100, 0);
    for (let i = 0; i < 100; i += 1) expect(budget.spend(0)).toBe(0);
    expect(budget.spend(0)).toBe(10);
    expect(budget.spend(0)).toBe(20);
    expect(budget.waitFrom(15)).toBe(5);
    expect(budget.waitFrom(20)).toBe(0);
    expect(budget.spend(10_000)).toBe(0);
  });
});

describe("cluster instance", () => {
  it("prefixes room ids with the instance name and a dot", () => {
    const rooms = new RoomRegistry<object>(10, 60_000, Date.now, "r2.");
    const { room } = rooms.create(2);
    expect(room).toMatch(/^r2\.[A-Za-z0-9_-]{22}$/);
    rooms.clear();
  });

  it("takes the instance from --instance and refuses names a load balancer could not match simply", () => {
    expect(parseCli(["--instance", "r1"], {})).toEqual({ help: false, options: { instanceId: "r1" } });
    expect(resolveConfig({ instanceId: "r1" }).instanceId).toBe("r1");
    expect(resolveConfig({}).instanceId).toBeUndefined();
    for (const bad of ["R1", "r.1", "a".repeat(17), "r 1"]) {
      expect(() => resolveConfig({ instanceId: bad })).toThrow(/instanceId/);
    }
  });
});

describe("memory reclaimer", () => {
  it("collects once enough was freed, at most once per interval", () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const collect = vi.fn();
      const reclaimer = new MemoryReclaimer(collect, () => now);
      reclaimer.freed(10, 100);
      vi.advanceTimersByTime(5000);
      expect(collect).not.toHaveBeenCalled();
      expect(reclaimer.scheduled).toBe(false);
      reclaimer.freed(1, RECLAIM_THRESHOLD_BYTES);
      expect(reclaimer.scheduled).toBe(true);
      vi.advanceTimersByTime(1000);
      now = 1000;
      expect(collect).toHaveBeenCalledTimes(1);
      expect(reclaimer).toMatchObject({ scheduled: false, runs: 1 });
      reclaimer.freed(1, RECLAIM_THRESHOLD_BYTES);
      vi.advanceTimersByTime(RECLAIM_MIN_INTERVAL_MS / 2);
      expect(collect).toHaveBeenCalledTimes(1);
      expect(reclaimer.scheduled).toBe(true);
      vi.advanceTimersByTime(RECLAIM_MIN_INTERVAL_MS);
      expect(collect).toHaveBeenCalledTimes(2);
      expect(reclaimer).toMatchObject({ scheduled: false, runs: 2 });
      reclaimer.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

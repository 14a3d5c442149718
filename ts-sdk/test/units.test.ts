/** Unit tests of the pieces without I/O: errors, the event emitter, per-peer queues, wire parsing. */
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  CancelledError,
  ChorusError,
  ConfigError,
  Emitter,
  IntegrityError,
  isAbortError,
  PeerLeftError,
  ProtocolAbortError,
  RelayError,
  type WebSocketConstructor,
} from "../src/index.js";
import { PeerQueues } from "../src/transport/peer-queues.js";
import * as relay from "@chorus/server";
import * as wire from "../src/transport/wire.js";
import { encodeFrame, MalformedMessageError, parseControl } from "../src/transport/wire.js";
import { rejectionOf, seededBytes } from "./helpers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("errors", () => {
  it("are ChorusErrors with codes, names and their details", () => {
    const relay = new RelayError("bad-token", "refused", { closeCode: 4003, closeReason: "" });
    const peer = new PeerLeftError(2, "timeout");
    const integrity = new IntegrityError(1, "bad tag");
    const abort = new ProtocolAbortError("MAC check on output", "mismatch");
    const config = new ConfigError("slot", "out of range");
    const cancelled = new CancelledError("stopped", { cause: "why" });
    for (const error of [relay, peer, integrity, abort, config, cancelled]) {
      expect(error).toBeInstanceOf(ChorusError);
      expect(error).toBeInstanceOf(Error);
    }
    expect([relay, peer, integrity, abort, config, cancelled].map((e) => [e.name, e.code])).toEqual([
      ["RelayError", "bad-token"],
      ["PeerLeftError", "peer-left"],
      ["IntegrityError", "integrity"],
      ["ProtocolAbortError", "protocol-abort"],
      ["ConfigError", "config"],
      ["AbortError", "aborted"],
    ]);
    expect(relay.closeCode).toBe(4003);
    expect(peer.slot).toBe(2);
    expect(peer.message).toContain("party 2");
    expect(integrity.slot).toBe(1);
    expect(abort.check).toBe("MAC check on output");
    expect(abort.message).toContain("MAC check on output");
    expect(config.field).toBe("slot");
    expect(config.message).toContain("slot");
    expect(cancelled.cause).toBe("why");
  });

  it("recognise AbortErrors from the SDK and from the platform", () => {
    expect(isAbortError(new CancelledError("x"))).toBe(true);
    expect(isAbortError(new DOMException("x", "AbortError"))).toBe(true);
    expect(isAbortError(new ChorusError("closed", "x"))).toBe(false);
    expect(isAbortError("AbortError")).toBe(false);
  });
});

describe("WebSocketConstructor", () => {
  it("is satisfied by the browsers' WebSocket and by ws (checked by the pretest type check)", async () => {
    expectTypeOf<typeof globalThis.WebSocket>().toMatchTypeOf<WebSocketConstructor>();
    const { WebSocket: NodeWebSocket } = await import("ws");
    expectTypeOf<typeof NodeWebSocket>().toMatchTypeOf<WebSocketConstructor>();
    expect(typeof NodeWebSocket).toBe("function");
  });
});

describe("Emitter", () => {
  type Events = { ping: number; pong: string };

  it("calls listeners in registration order until they unsubscribe", () => {
    const emitter = new Emitter<Events>();
    const calls: string[] = [];
    const offA = emitter.on("ping", (n) => calls.push(`a${n}`));
    emitter.on("ping", (n) => calls.push(`b${n}`));
    emitter.on("pong", (s) => calls.push(`pong ${s}`));
    emitter.emit("ping", 1);
    offA();
    offA();
    emitter.emit("ping", 2);
    emitter.emit("pong", "x");
    expect(calls).toEqual(["a1", "b1", "b2", "pong x"]);
    expect(emitter.listenerCount("ping")).toBe(1);
  });

  it("runs once-listeners once and counts double registrations separately", () => {
    const emitter = new Emitter<Events>();
    const seen: number[] = [];
    const listener = (n: number): void => {
      seen.push(n);
    };
    emitter.once("ping", listener);
    const off = emitter.on("ping", listener);
    emitter.on("ping", listener);
    emitter.emit("ping", 1);
    off();
    emitter.emit("ping", 2);
    expect(seen).toEqual([1, 1, 1, 2]);
    emitter.removeAllListeners();
    emitter.emit("ping", 3);
    expect(seen).toEqual([1, 1, 1, 2]);
  });

  it("skips listeners removed during an emit and defers ones added during it", () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    let offB: () => void = () => undefined;
    emitter.on("ping", () => {
      seen.push("a");
      offB();
      emitter.on("ping", () => seen.push("late"));
    });
    offB = emitter.on("ping", () => seen.push("b"));
    emitter.emit("ping", 0);
    expect(seen).toEqual(["a"]);
  });

  it("isolates a throwing listener and reports its error from a microtask", () => {
    const emitter = new Emitter<Events>();
    const scheduled: Array<() => void> = [];
    vi.spyOn(globalThis, "queueMicrotask").mockImplementation((task) => {
      scheduled.push(task);
    });
    const seen: number[] = [];
    const boom = new Error("listener bug");
    emitter.on("ping", () => {
      throw boom;
    });
    emitter.on("ping", (n) => seen.push(n));
    emitter.emit("ping", 7);
    expect(seen).toEqual([7]);
    expect(scheduled).toHaveLength(1);
    expect(() => scheduled[0]!()).toThrow(boom);
  });
});

describe("PeerQueues", () => {
  it("keeps one FIFO per peer and serves waiters in call order", async () => {
    const queues = new PeerQueues(3);
    queues.push(1, seededBytes(1, 4));
    queues.push(2, seededBytes(2, 4));
    queues.push(1, seededBytes(3, 4));
    expect(queues.queued(1)).toBe(2);
    expect(await queues.recv(1)).toEqual(seededBytes(1, 4));
    expect(await queues.recv(2)).toEqual(seededBytes(2, 4));
    expect(await queues.recv(1)).toEqual(seededBytes(3, 4));
    const waiting = [queues.recv(0), queues.recv(0)];
    queues.push(0, seededBytes(4, 1));
    queues.push(0, seededBytes(5, 1));
    expect(await Promise.all(waiting)).toEqual([seededBytes(4, 1), seededBytes(5, 1)]);
    expect(queues.queued(0)).toBe(0);
  });

  it("stays in order across internal compaction of a long queue", async () => {
    const queues = new PeerQueues(2);
    const frame = (index: number): Uint8Array => Uint8Array.of(index & 0xff, index >> 8);
    let pushed = 0;
    let received = 0;
    // Push 1000 and take 500 per round, so the consumed prefix passes the compaction threshold.
    for (let round = 0; round < 5; round += 1) {
      for (let i = 0; i < 1000; i += 1) queues.push(1, frame(pushed++));
      for (let i = 0; i < 500; i += 1) expect(await queues.recv(1)).toEqual(frame(received++));
    }
    expect(queues.queued(1)).toBe(pushed - received);
    expect(queues.drain(1)).toEqual(Array.from({ length: pushed - received }, (_, i) => frame(received + i)));
    expect(queues.queued(1)).toBe(0);
  });

  it("rejects pending and future receives once failed, and drops queued frames", async () => {
    const queues = new PeerQueues(3);
    queues.push(2, seededBytes(1, 1));
    const pending = rejectionOf(queues.recv(1));
    const failure = new PeerLeftError(1, "closed");
    queues.fail(failure);
    queues.fail(new Error("second failure is ignored"));
    expect(await pending).toBe(failure);
    expect(await rejectionOf(queues.recv(2))).toBe(failure);
    queues.push(1, seededBytes(2, 1));
    expect(queues.queued(1)).toBe(0);
  });

  it("cancels one wait through its signal without disturbing the others", async () => {
    const queues = new PeerQueues(2);
    const controller = new AbortController();
    const cancelled = rejectionOf(queues.recv(1, controller.signal));
    const kept = queues.recv(1);
    controller.abort();
    expect(((await cancelled) as Error).name).toBe("AbortError");
    queues.push(1, seededBytes(9, 3));
    expect(await kept).toEqual(seededBytes(9, 3));
    expect(((await rejectionOf(queues.recv(1, AbortSignal.abort()))) as Error).name).toBe("AbortError");
  });
});

describe("wire", () => {
  it("takes the relay protocol's constants from the relay's own definitions", () => {
    // The SDK compiles a copy of the relay's protocol module; the built relay must agree with it.
    expect(wire.PROTOCOL_VERSION).toBe(relay.PROTOCOL_VERSION);
    expect([wire.MIN_PARTIES, wire.MAX_PARTIES]).toEqual([relay.MIN_PARTIES, relay.MAX_PARTIES]);
    expect(wire.WS_PATH).toBe(relay.WS_PATH);
    expect(wire.CloseCode).toEqual(relay.CloseCode);
    expectTypeOf<wire.LeaveReason>().toEqualTypeOf<relay.LeaveReason>();
    expectTypeOf<wire.ErrorCode>().toEqualTypeOf<relay.ErrorCode>();
  });

  it("parses the relay's control messages", () => {
    expect(parseControl('{"type":"ready","roster":[0,1]}')).toEqual({ type: "ready", roster: [0, 1] });
    expect(parseControl('{"type":"peer-left","slot":1,"roster":[0],"reason":"timeout","extra":1}')).toMatchObject({
      type: "peer-left",
      slot: 1,
    });
    expect(parseControl('{"type":"error","code":"peer-not-connected","message":"m","fatal":false,"slot":2}')).toMatchObject({
      code: "peer-not-connected",
      slot: 2,
    });
  });

  it("ignores unknown message types", () => {
    expect(parseControl('{"type":"future-thing","x":1}')).toBeNull();
  });

  it.each([
    "not json",
    "[1,2]",
    "null",
    '{"no":"type"}',
    '{"type":"ready"}',
    '{"type":"ready","roster":[0,99]}',
    '{"type":"joined","slot":-1,"roster":[]}',
    '{"type":"welcome","protocol":1,"room":"r","slot":0,"parties":2,"roster":[0]}',
    '{"type":"error","code":"x","message":"m"}',
    '{"type":"left","slot":0,"roster":[]}',
  ])("refuses malformed control frame %s", (text) => {
    expect(() => parseControl(text)).toThrow(MalformedMessageError);
  });

  it("prefixes the destination slot to outgoing payloads", () => {
    expect(encodeFrame(3, Uint8Array.of(9, 8, 7))).toEqual(Uint8Array.of(3, 9, 8, 7));
    expect(encodeFrame(0, new Uint8Array(0))).toEqual(Uint8Array.of(0));
  });
});

describe("hex", () => {
  it("toHex gives the same lower-case hex on Node's codec as byte by byte, for views at any offset", async () => {
    const { toBytes, toHex } = await import("../src/index.js");
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 89 + 7) & 0xff);
    const view = bytes.subarray(3, 260);
    const byHand = Array.from(view, (b) => b.toString(16).padStart(2, "0")).join("");
    expect(toHex(view)).toBe(byHand);
    expect(toHex(new Uint8Array(0))).toBe("");
    expect(toBytes(toHex(view).toUpperCase(), "x")).toEqual(new Uint8Array(view));
  });
});

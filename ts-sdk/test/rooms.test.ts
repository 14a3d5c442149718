/** Room creation over HTTP and relay URL normalisation. */
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, RelayError, createRoom, relayWebSocketUrl } from "../src/index.js";
import { relayHttpUrl } from "../src/transport/urls.js";
import { loopbackRelay, rejectionOf } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

describe("relay URLs", () => {
  it.each([
    ["http://127.0.0.1:8787", "ws://127.0.0.1:8787/ws", "http://127.0.0.1:8787/rooms"],
    ["http://127.0.0.1:8787/", "ws://127.0.0.1:8787/ws", "http://127.0.0.1:8787/rooms"],
    ["ws://127.0.0.1:8787", "ws://127.0.0.1:8787/ws", "http://127.0.0.1:8787/rooms"],
    ["ws://127.0.0.1:8787/ws", "ws://127.0.0.1:8787/ws", "http://127.0.0.1:8787/rooms"],
    ["https://relay.example", "wss://relay.example/ws", "https://relay.example/rooms"],
    ["wss://relay.example/ws/", "wss://relay.example/ws", "https://relay.example/rooms"],
    ["https://relay.example/chorus", "wss://relay.example/chorus/ws", "https://relay.example/chorus/rooms"],
    ["wss://relay.example/chorus/ws", "wss://relay.example/chorus/ws", "https://relay.example/chorus/rooms"],
    ["  http://[::1]:9000  ", "ws://[::1]:9000/ws", "http://[::1]:9000/rooms"],
  ])("%s -> %s and %s", (input, ws, rooms) => {
    expect(relayWebSocketUrl(input).toString()).toBe(ws);
    expect(relayHttpUrl(input, "rooms").toString()).toBe(rooms);
  });

  it.each([
    ["", "empty"],
    ["127.0.0.1:8787", "no scheme"],
    ["ftp://relay.example", "unsupported scheme"],
    ["http://user:pw@relay.example", "credentials"],
    ["http://relay.example/?room=x", "query"],
    ["http://relay.example/#x", "fragment"],
    ["not a url", "garbage"],
  ])("refuses %j (%s) with ConfigError naming the field", (input) => {
    let error: unknown;
    try {
      relayWebSocketUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe("relay");
  });

  it("refuses a non-string relay", () => {
    expect(() => relayWebSocketUrl(42)).toThrow(ConfigError);
  });
});

describe("createRoom", () => {
  it("creates a room with one distinct token per slot and invites for each slot", async () => {
    const before = Date.now();
    const room = await createRoom({ relay: relay.url, parties: 3 });
    expect(room.parties).toBe(3);
    expect(room.room).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(room.tokens).toHaveLength(3);
    expect(new Set(room.tokens).size).toBe(3);
    expect(room.expiresAt).toBeGreaterThan(before);
    for (let slot = 0; slot < 3; slot += 1) {
      expect(room.invite(slot)).toEqual({
        relay: relay.wsUrl,
        room: room.room,
        slot,
        token: room.tokens[slot],
        parties: 3,
      });
    }
    expect(() => room.invite(3)).toThrow(ConfigError);
    expect(() => room.invite(-1)).toThrow(ConfigError);
    expect(() => room.invite(0.5)).toThrow(ConfigError);
  });

  it("accepts the WebSocket endpoint as the relay address", async () => {
    const room = await createRoom({ relay: relay.wsUrl, parties: 2 });
    expect(room.tokens).toHaveLength(2);
  });

  it.each([1, 17, 2.5, Number.NaN, "3"])("refuses parties = %j with ConfigError before any request", async (parties) => {
    const error = await rejectionOf(createRoom({ relay: relay.url, parties: parties as number }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe("parties");
  });

  it("sends the admission token as a bearer header when one is given", async () => {
    const own = await loopbackRelay({ admissionTokens: ["operator-token"] });
    try {
      const missing = await rejectionOf(createRoom({ relay: own.url, parties: 2 }));
      expect(missing).toMatchObject({ code: "admission-required", httpStatus: 401 });
      const wrong = await rejectionOf(createRoom({ relay: own.url, parties: 2, admissionToken: "nope" }));
      expect(wrong).toMatchObject({ code: "bad-admission-token", httpStatus: 403 });
      const room = await createRoom({ relay: own.url, parties: 2, admissionToken: "operator-token" });
      expect(room.tokens).toHaveLength(2);
      const bad = await rejectionOf(createRoom({ relay: own.url, parties: 2, admissionToken: "has space" }));
      expect(bad).toBeInstanceOf(ConfigError);
    } finally {
      await own.close();
    }
  });

  it("maps a relay refusal to RelayError with the relay's code and HTTP status", async () => {
    const own = await loopbackRelay({ maxRooms: 1 });
    await createRoom({ relay: own.url, parties: 2 });
    const error = await rejectionOf(createRoom({ relay: own.url, parties: 2 }));
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: "too-many-rooms", httpStatus: 503 });
    await own.close();
  });

  it("maps an HTTP error without a Chorus body to http-<status>", async () => {
    const fakeFetch = (async () => new Response("<html>bad gateway</html>", { status: 502 })) as typeof fetch;
    const error = await rejectionOf(createRoom({ relay: "http://relay.invalid", parties: 2, fetch: fakeFetch }));
    expect(error).toMatchObject({ name: "RelayError", code: "http-502", httpStatus: 502 });
  });

  it("refuses a success body without tokens as bad-relay-message", async () => {
    const fakeFetch = (async () =>
      new Response(JSON.stringify({ room: "r", parties: 2, tokens: ["only-one"], expiresAt: 1 }), { status: 201 })) as typeof fetch;
    const error = await rejectionOf(createRoom({ relay: "http://relay.invalid", parties: 2, fetch: fakeFetch }));
    expect(error).toMatchObject({ name: "RelayError", code: "bad-relay-message" });
  });

  it("fails with connect-failed when nothing listens", async () => {
    const dead = await loopbackRelay();
    const url = dead.url;
    await dead.close();
    const error = await rejectionOf(createRoom({ relay: url, parties: 2 }));
    expect(error).toMatchObject({ name: "RelayError", code: "connect-failed" });
  });

  it("is cancelled by an aborted signal with an AbortError", async () => {
    const error = await rejectionOf(createRoom({ relay: relay.url, parties: 2, signal: AbortSignal.abort() }));
    expect((error as Error).name).toBe("AbortError");
    const controller = new AbortController();
    const pending = rejectionOf(createRoom({ relay: relay.url, parties: 2, signal: controller.signal }));
    controller.abort();
    expect(((await pending) as Error).name).toBe("AbortError");
  });
});

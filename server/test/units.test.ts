/**
 * Network-free units: configuration parsing and validation, token checks, room admission rules.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULTS, parseCli, resolveConfig } from "../src/config.js";
import { RoomRegistry, TooManyRoomsError } from "../src/rooms.js";
import { newToken, tokenDigest, tokenMatches } from "../src/tokens.js";

describe("configuration", () => {
  it("fills in the documented defaults", () => {
    const config = resolveConfig();
    expect(config).toMatchObject(DEFAULTS);
    expect(config.maxPayloadBytes).toBe(1024 * 1024);
    expect(config.staticDir).toBeUndefined();
  });

  it("rejects out-of-range values naming the option", () => {
    expect(() => resolveConfig({ port: 70000 })).toThrow(/port/);
    expect(() => resolveConfig({ maxPayloadBytes: 1 })).toThrow(/maxPayloadBytes/);
    expect(() => resolveConfig({ maxRooms: 0 })).toThrow(ConfigError);
    expect(() => resolveConfig({ idleTimeoutMs: 1.5 })).toThrow(/idleTimeoutMs/);
    expect(() => resolveConfig({ host: "" })).toThrow(/host/);
  });

  it("parses flags over environment variables", () => {
    const parsed = parseCli(
      ["--port", "9000", "--max-rooms", "5", "--cors-origin", "none"],
      { CHORUS_RELAY_PORT: "1234", CHORUS_RELAY_IDLE_TIMEOUT_MS: "777", CHORUS_RELAY_STATIC: "/tmp/x" },
    );
    expect(parsed).toEqual({
      help: false,
      options: { port: 9000, maxRooms: 5, idleTimeoutMs: 777, staticDir: "/tmp/x", corsOrigin: null },
    });
  });

  it("rejects unknown flags and non-numeric numbers", () => {
    expect(() => parseCli(["--nope"], {})).toThrow(ConfigError);
    expect(() => parseCli(["--port", "-1"], {})).toThrow(/--port/);
    expect(() => parseCli([], { CHORUS_RELAY_MAX_PAYLOAD: "1MB" })).toThrow(/CHORUS_RELAY_MAX_PAYLOAD/);
  });

  it("documents every flag in --help", () => {
    const parsed = parseCli(["--help"], {});
    expect(parsed.help).toBe(true);
    if (parsed.help) {
      for (const flag of ["--port", "--host", "--static", "--max-payload", "--max-buffered", "--idle-timeout-ms"]) {
        expect(parsed.usage).toContain(flag);
      }
    }
  });
});

describe("tokens", () => {
  it("match only themselves", () => {
    const token = newToken();
    const digest = tokenDigest(token);
    expect(tokenMatches(token, digest)).toBe(true);
    expect(tokenMatches(newToken(), digest)).toBe(false);
    expect(tokenMatches("", digest)).toBe(false);
    expect(tokenMatches(token + "x", digest)).toBe(false);
    expect(tokenMatches(token.slice(0, -1), digest)).toBe(false);
  });
});

describe("room registry", () => {
  it("validates party counts and the room cap", () => {
    const rooms = new RoomRegistry<string>(2, 60_000);
    expect(() => rooms.create(1)).toThrow(RangeError);
    expect(() => rooms.create(17)).toThrow(RangeError);
    rooms.create(2);
    rooms.create(16);
    expect(() => rooms.create(3)).toThrow(TooManyRoomsError);
    rooms.clear();
  });

  it("admits by token, refuses in a fixed order, and deletes emptied rooms", () => {
    const rooms = new RoomRegistry<string>(10, 60_000);
    const created = rooms.create(3);
    const [t0, t1] = created.tokens as [string, string, string];
    const occupy = (name: string) => () => name;
    expect(rooms.join("nope", 0, t0, occupy("a"))).toEqual({ ok: false, refusal: "unknown-room" });
    expect(rooms.join(created.room, 3, t0, occupy("a"))).toEqual({ ok: false, refusal: "bad-slot" });
    expect(rooms.join(created.room, -1, t0, occupy("a"))).toEqual({ ok: false, refusal: "bad-slot" });
    expect(rooms.join(created.room, 0, t1, occupy("a"))).toEqual({ ok: false, refusal: "bad-token" });
    const first = rooms.join(created.room, 0, t0, occupy("a"));
    expect(first.ok).toBe(true);
    // A wrong token is reported as such even for an occupied slot: occupancy is not revealed.
    expect(rooms.join(created.room, 0, t1, occupy("b"))).toEqual({ ok: false, refusal: "bad-token" });
    expect(rooms.join(created.room, 0, t0, occupy("b"))).toEqual({ ok: false, refusal: "slot-taken" });
    const room = rooms.get(created.room)!;
    expect(rooms.join(created.room, 1, t1, occupy("c")).ok).toBe(true);
    expect(room.roster()).toEqual([0, 1]);
    expect(room.isFull()).toBe(false);
    expect(rooms.leave(room, 0, "wrong occupant")).toBe(false);
    expect(rooms.leave(room, 0, "a")).toBe(true);
    expect(rooms.get(created.room)).toBe(room);
    expect(rooms.leave(room, 1, "c")).toBe(true);
    expect(rooms.get(created.room)).toBeUndefined();
    expect(rooms.size).toBe(0);
  });
});

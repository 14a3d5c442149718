/** Argument validation of RelayConnection: every bad argument is a ConfigError naming its field. */
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, RelayConnection, type RelayConnectionOptions } from "../src/index.js";
import { closeAll, fillRoom, loopbackRelay, rejectionOf } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

const valid = (): RelayConnectionOptions => ({ relay: relay.url, room: "room", slot: 0, token: "token", parties: 3 });

describe("RelayConnection.open validation", () => {
  it.each<[string, Partial<RelayConnectionOptions> | Record<string, unknown>]>([
    ["slot", { slot: 3 }],
    ["slot", { slot: -1 }],
    ["slot", { slot: 1.5 }],
    ["parties", { parties: 1 }],
    ["parties", { parties: 17 }],
    ["token", { token: "" }],
    ["token", { token: 7 }],
    ["room", { room: "" }],
    ["relay", { relay: "not a url" }],
    ["relay", { relay: "ftp://127.0.0.1" }],
    ["signal", { signal: {} }],
  ])("refuses a bad %s (%j)", async (field, override) => {
    const error = await rejectionOf(RelayConnection.open({ ...valid(), ...override } as RelayConnectionOptions));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe(field);
    expect((error as ConfigError).code).toBe("config");
    expect(relay.stats().connections).toBe(0);
  });
});

describe("send and recv validation", () => {
  it("refuses bad destinations, sources and payloads", async () => {
    const { connections } = await fillRoom(relay, 3);
    const first = connections[0]!;
    for (const to of [0, 3, -1, 1.5, Number.NaN]) {
      expect(() => first.send(to, new Uint8Array(1))).toThrow(expect.objectContaining({ field: "to" }));
    }
    expect(() => first.send(1, [1, 2] as unknown as Uint8Array)).toThrow(expect.objectContaining({ field: "bytes" }));
    for (const from of [0, 3, -1]) {
      const error = await rejectionOf(first.recv(from));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).field).toBe("from");
    }
    expect(() => first.onFrame("nope" as unknown as () => void)).toThrow(ConfigError);
    expect(first.stats().framesSent).toBe(0);
    await closeAll(connections);
  });
});

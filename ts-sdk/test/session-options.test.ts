import { describe, expect, it } from "vitest";
import { ConfigError, connect, MIN_SECRET_BYTES, toBytes, toHex } from "../src/index.js";

const invite = { relay: "http://127.0.0.1:9", room: "r", slot: 0, token: "t", parties: 3 };

describe("session options are checked before anything connects", () => {
  it("needs exactly one of secret and keys", async () => {
    await expect(connect({ ...invite })).rejects.toMatchObject({ name: "ConfigError", field: "secret" });
    const keys = { privateKey: new Uint8Array(32), publicKeys: [new Uint8Array(32), new Uint8Array(32), new Uint8Array(32)] };
    await expect(connect({ ...invite, secret: "00".repeat(32), keys })).rejects.toMatchObject({ field: "secret" });
  });

  it(`rejects secrets shorter than ${MIN_SECRET_BYTES} bytes and malformed hex`, async () => {
    await expect(connect({ ...invite, secret: "00".repeat(MIN_SECRET_BYTES - 1) })).rejects.toMatchObject({
      field: "secret",
    });
    await expect(connect({ ...invite, secret: "0g".repeat(16) })).rejects.toBeInstanceOf(ConfigError);
  });

  it("checks pinned key lengths and count", async () => {
    const ok = new Uint8Array(32);
    await expect(connect({ ...invite, keys: { privateKey: new Uint8Array(31), publicKeys: [ok, ok, ok] } })).rejects.toMatchObject({
      field: "keys",
    });
    await expect(connect({ ...invite, keys: { privateKey: ok, publicKeys: [ok, ok] } })).rejects.toMatchObject({
      field: "keys.publicKeys",
    });
  });
});

describe("byte helpers", () => {
  it("round-trips hex of every byte value", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = toHex(all);
    expect(text.slice(0, 8)).toBe("00010203");
    expect(toBytes(text, "x")).toEqual(all);
    expect(toBytes(text.toUpperCase(), "x")).toEqual(all);
  });

  it("copies Uint8Array input and rejects other types", () => {
    const source = new Uint8Array([1, 2]);
    const copy = toBytes(source, "x");
    source[0] = 9;
    expect(copy[0]).toBe(1);
    expect(() => toBytes("abc", "x")).toThrow(ConfigError);
    expect(() => toBytes(42, "x")).toThrow(/invalid x/);
  });
});

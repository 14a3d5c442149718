/**
 * The platform-WebSocket code path (what browsers run): a second Node process whose global
 * `WebSocket` is Node's built-in one talks to a party in this process, which uses `ws`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRoom, RelayConnection } from "../src/index.js";
import { loopbackRelay, sameBytes, seededBytes, within } from "./helpers.js";

let relay: RelayHandle;

beforeAll(async () => {
  relay = await loopbackRelay();
});

afterAll(async () => {
  await relay.close();
});

it("exchanges frames with a party on the platform's global WebSocket", async () => {
  const room = await createRoom({ relay: relay.url, parties: 2 });
  const script = fileURLToPath(new URL("./fixtures/native-websocket-party.mjs", import.meta.url));
  // Node 20 ships its WebSocket behind a flag; later versions have it on by default.
  const flags = typeof (globalThis as { WebSocket?: unknown }).WebSocket === "function" ? [] : ["--experimental-websocket"];
  const child = spawn(process.execPath, [...flags, script, JSON.stringify(room.invite(1))], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    const local = await RelayConnection.open(room.invite(0));
    await within(local.ready(), "ready with the child party");
    const payloads = [seededBytes(1, 1), seededBytes(2, 1000), seededBytes(3, 200_000), new Uint8Array(0)];
    for (const payload of payloads) local.send(1, payload);
    for (const payload of payloads) {
      expect(sameBytes(await within(local.recv(1), "echo"), payload.slice().reverse())).toBe(true);
    }
    await local.close();
    expect(await within(exited, "child exit", 10_000)).toBe(0);
  } finally {
    child.kill();
  }
  expect(stderr).not.toMatch(/Error/);
  const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as { ok: boolean; stats: { framesSent: number } };
  expect(report).toMatchObject({ ok: true, stats: { framesSent: 4 } });
}, 20_000);

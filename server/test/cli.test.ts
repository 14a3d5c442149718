/**
 * The real `chorus-relay` process (`node dist/cli.js`, built by `pretest`): startup line, a routed
 * frame through it, and graceful exit 0 on SIGTERM with parties closed as going-away.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { CloseCode } from "../src/protocol.js";
import { createRoom, fillRoom } from "./helpers.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const children: ChildProcess[] = [];

interface Listening {
  event: string;
  url: string;
  ws: string;
  port: number;
}

function spawnRelay(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error("no output from relay within 10 s")), 10_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`relay exited early with ${code}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
});

describe("chorus-relay CLI", () => {
  it("is built", () => {
    expect(existsSync(CLI)).toBe(true);
  });

  it("prints its URL as JSON, relays frames, and exits 0 on SIGTERM", async () => {
    const child = spawnRelay(["--port", "0", "--host", "127.0.0.1"]);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const listening = JSON.parse(await firstLine(child)) as Listening;
    expect(listening.event).toBe("listening");
    expect(listening.port).toBeGreaterThan(0);
    expect(listening.url).toBe(`http://127.0.0.1:${listening.port}`);
    expect(listening.ws).toBe(`ws://127.0.0.1:${listening.port}/ws`);

    const health = (await (await fetch(`${listening.url}/healthz`)).json()) as { status: string };
    expect(health.status).toBe("ok");
    const [zero, one] = await fillRoom(listening.ws, await createRoom(listening.url, 2));
    zero!.sendTo(1, Buffer.from("through the process"));
    const [frame] = await one!.dataFrames(1);
    expect(frame![0]).toBe(0);
    expect(frame!.subarray(1).toString()).toBe("through the process");

    child.kill("SIGTERM");
    const exit = await exitOf(child);
    expect(exit).toEqual({ code: 0, signal: null });
    expect((await zero!.closed()).code).toBe(CloseCode.GoingAway);
    expect((await one!.closed()).code).toBe(CloseCode.GoingAway);
    expect(stdout).toContain('{"event":"closed"}');
  });

  it("takes settings from the environment", async () => {
    const child = spawnRelay(["--host", "127.0.0.1"], { CHORUS_RELAY_PORT: "0", CHORUS_RELAY_MAX_ROOMS: "1" });
    const listening = JSON.parse(await firstLine(child)) as Listening;
    await createRoom(listening.url, 2);
    const refused = await fetch(`${listening.url}/rooms`, { method: "POST", body: '{"parties":2}' });
    expect(refused.status).toBe(503);
    child.kill("SIGINT");
    expect((await exitOf(child)).code).toBe(0);
  });

  it("exits 2 with a message for a bad flag value", async () => {
    const child = spawnRelay(["--port", "eighty"]);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    expect((await exitOf(child)).code).toBe(2);
    expect(stderr).toContain("--port");
  });

  it("prints usage for --help", async () => {
    const child = spawnRelay(["--help"]);
    const line = await firstLine(child);
    expect(line).toContain("Usage: chorus-relay");
    expect((await exitOf(child)).code).toBe(0);
  });
});

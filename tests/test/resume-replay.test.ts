/**
 * Resume does not weaken the channel: a WebSocket proxy in front of one party drops its connection
 * mid-job (no close frame), and when the party resumes, the proxy slips in a copy of a frame the
 * party already received before the drop. The end-to-end channel rejects it (IntegrityError) even
 * though the relay's resume itself re-sends nothing twice. Loopback only.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { connect, createRoom, IntegrityError } from "@chorus/sdk";
import { freshSecret, settle, startRelayProcess, within, type RelayProcess } from "./relay-process.js";
import { closeAll, runAes } from "./three-parties.js";

let relay: RelayProcess;
beforeAll(async () => {
  relay = await startRelayProcess();
});
afterAll(async () => {
  await relay?.stop();
});

interface ReplayProxy {
  url: string;
  /** Drops the current connection on both sides without close frames. */
  cut(): void;
  replayed(): boolean;
  close(): Promise<void>;
}

/** Forwards one party's connections; on its second connection replays a frame of the first. */
async function startReplayProxy(relayWs: string): Promise<ReplayProxy> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/ws" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  const seen: Buffer[] = [];
  let connections = 0;
  let replayed = false;
  let current: { client: WebSocket; upstream: WebSocket } | undefined;
  server.on("connection", (client, request) => {
    connections += 1;
    const generation = connections;
    const upstream = new WebSocket(`${relayWs}${new URL(request.url ?? "", "http://x").search}`);
    current = { client, upstream };
    const early: Array<[RawData, boolean]> = [];
    upstream.on("open", () => {
      for (const [data, isBinary] of early.splice(0)) upstream.send(data, { binary: isBinary });
    });
    client.on("message", (data, isBinary) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
      else early.push([data, isBinary]);
    });
    upstream.on("message", (data, isBinary) => {
      const bytes = Buffer.from(data as Buffer);
      if (isBinary && generation === 1) seen.push(bytes);
      client.send(bytes, { binary: isBinary });
      if (generation === 2 && !isBinary && !replayed && bytes.toString().includes('"welcome"')) {
        // A frame from the middle of what the party already received: an old channel message.
        client.send(seen[Math.floor(seen.length / 2)]!, { binary: true });
        replayed = true;
      }
    });
    // A close frame is passed on as one (a deliberate departure); a drop as a drop.
    const passOn = (to: WebSocket) => (code: number): void => {
      if (code === 1006) to.terminate();
      else to.close(code === 1005 ? 1000 : code);
    };
    client.on("close", passOn(upstream));
    upstream.on("close", passOn(client));
    client.on("error", () => upstream.terminate());
    upstream.on("error", () => client.terminate());
  });
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    cut: () => {
      current?.client.terminate();
      current?.upstream.terminate();
    },
    replayed: () => replayed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

it("a frame replayed into a resumed connection fails the job with IntegrityError", async () => {
  const proxy = await startReplayProxy(relay.ws);
  try {
    const room = await createRoom({ relay: relay.url, parties: 3 });
    const secret = freshSecret();
    const sessions = await Promise.all(
      [0, 1, 2].map((slot) => connect({ ...room.invite(slot), ...(slot === 2 ? { relay: proxy.url } : {}), secret })),
    );
    const blocks = 40;
    let progress = 0;
    sessions[2]!.on("progress", () => {
      progress += 1;
      if (progress === 8) proxy.cut();
    });
    const outcomes = await within(
      Promise.all(
        runAes(sessions, [
          { key: new Uint8Array(randomBytes(16)), blocks },
          { key: new Uint8Array(randomBytes(16)), blocks },
          { plaintext: new Uint8Array(randomBytes(16 * blocks)), blocks },
        ]).map(settle),
      ),
      "the job with a replayed frame",
      20_000,
    );
    expect(proxy.replayed()).toBe(true);
    const tampered = outcomes[2]!;
    expect(tampered.ok).toBe(false);
    if (!tampered.ok) expect(tampered.error).toBeInstanceOf(IntegrityError);
    for (const slot of [0, 1]) expect(outcomes[slot]!.ok, `party ${slot}`).toBe(false);
    await closeAll(sessions);
  } finally {
    await proxy.close();
  }
});

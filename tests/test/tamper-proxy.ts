/**
 * A WebSocket proxy for one party: it accepts the party's join on `/ws?...`, opens the same join
 * to the relay, and forwards every frame both ways unchanged — except that it flips one bit in the
 * `flipAt`-th binary frame (1-based) from the relay to the party, i.e. after the Noise handshake
 * when `flipAt` is past the handshake frames. Loopback only.
 */
import { WebSocket, WebSocketServer, type RawData } from "ws";

export interface TamperProxy {
  url: string;
  tampered(): boolean;
  close(): Promise<void>;
}

export async function startTamperProxy(relayWs: string, flipAt: number): Promise<TamperProxy> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, path: "/ws" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  let binaryFromRelay = 0;
  let flipped = false;
  server.on("connection", (client, request) => {
    const query = new URL(request.url ?? "", "http://x").search;
    const upstream = new WebSocket(`${relayWs}${query}`);
    const early: Array<[RawData, boolean]> = [];
    upstream.on("open", () => {
      for (const [data, isBinary] of early) upstream.send(data, { binary: isBinary });
      early.length = 0;
    });
    client.on("message", (data, isBinary) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
      else early.push([data, isBinary]);
    });
    upstream.on("message", (data, isBinary) => {
      if (isBinary) {
        binaryFromRelay += 1;
        if (binaryFromRelay === flipAt) {
          const frame = Buffer.from(data as Buffer);
          frame[frame.length - 1]! ^= 0x01;
          flipped = true;
          client.send(frame, { binary: true });
          return;
        }
      }
      client.send(data, { binary: isBinary });
    });
    const closeBoth = (): void => {
      client.close();
      upstream.close();
    };
    client.on("close", closeBoth);
    upstream.on("close", closeBoth);
    client.on("error", closeBoth);
    upstream.on("error", closeBoth);
  });
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    tampered: () => flipped,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

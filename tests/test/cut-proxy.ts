/**
 * A TCP proxy in front of the relay that can drop a party's connection the way a network does:
 * both TCP sockets are destroyed, no WebSocket close frame is sent either way, so the party sees
 * close code 1006 and the relay sees a dropped connection. It can also refuse new connections for
 * a while (a network that stays down), and cut once a given number of bytes has been forwarded
 * after arming, possibly in the middle of a WebSocket frame. Loopback only.
 */
import { createServer, connect, type Socket } from "node:net";

export interface CutProxy {
  /** `http://127.0.0.1:PORT`: use as the relay URL of a party's invite. */
  url: string;
  /** TCP connections accepted so far (a resume opens a new one). */
  accepted(): number;
  /** Drops every open connection now; returns how many. */
  cut(): number;
  /** Drops connections once `bytes` more bytes have been forwarded (either way), mid-chunk. */
  cutAfter(bytes: number): Promise<void>;
  /** While blocked, new connections are dropped at once. */
  block(blocked: boolean): void;
  close(): Promise<void>;
}

export async function startCutProxy(relayPort: number): Promise<CutProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  let blocked = false;
  let armed: { remaining: number; done: () => void } | undefined;

  const cutAll = (): number => {
    const count = pairs.size;
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    return count;
  };

  /** Forwards `chunk`, or only its head when an armed cut falls inside it. */
  const forward = (chunk: Buffer, to: Socket): void => {
    if (armed === undefined) {
      to.write(chunk);
      return;
    }
    if (chunk.length < armed.remaining) {
      armed.remaining -= chunk.length;
      to.write(chunk);
      return;
    }
    const head = chunk.subarray(0, armed.remaining);
    const done = armed.done;
    armed = undefined;
    to.write(head, () => {
      cutAll();
      done();
    });
  };

  const server = createServer((client) => {
    accepted += 1;
    if (blocked) {
      client.destroy();
      return;
    }
    client.setNoDelay(true);
    const upstream = connect(relayPort, "127.0.0.1");
    upstream.setNoDelay(true);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => forward(chunk, upstream));
    upstream.on("data", (chunk: Buffer) => forward(chunk, client));
    client.on("close", drop);
    upstream.on("close", drop);
    client.on("error", drop);
    upstream.on("error", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    cut: cutAll,
    cutAfter: (bytes) =>
      new Promise<void>((resolve) => {
        armed = { remaining: bytes, done: resolve };
      }),
    block: (value) => {
      blocked = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
}

/**
 * The two networks the WASM AES comparisons (`scripts/bench-two-wasm.mjs`,
 * `scripts/bench-three-wasm.mjs`) run their parties over, with one interface:
 * `post(from, to, tag, bytes)` sends, `on(me, handler)` takes party `me`'s messages as
 * `handler(from, tag, bytes)` (those that came before it was set are handed to it first, in
 * order), `sent[p]` and `messages[p]` count what party `p` of this process sent, `locals` lists
 * the parties in this process, and `close()` resolves once the links are shut. `tag` (0–255) keeps
 * an engine's channels apart.
 *
 * - `inMemoryLinks(parties)`: every party in this process; a message is copied and delivered on a
 *   microtask, so in order.
 * - `tcpLinks(me, parties, basePort)`: party `me` alone in this process, one TCP connection on
 *   loopback to every other party (party `i` listens on `basePort + i`; a party dials those below
 *   it), frames of a tag byte, a 32-bit length and the bytes.
 */
import { createConnection, createServer } from 'node:net';

/** Per-party handlers with the messages that arrived before each was set. */
function inboxes(parties) {
  const handlers = new Array(parties).fill(undefined);
  const early = handlers.map(() => []);
  return {
    deliver(me, from, tag, bytes) {
      if (handlers[me]) handlers[me](from, tag, bytes);
      else early[me].push([from, tag, bytes]);
    },
    on(me, handler) {
      handlers[me] = handler;
      for (const [from, tag, bytes] of early[me].splice(0)) handler(from, tag, bytes);
    },
  };
}

export function inMemoryLinks(parties) {
  const sent = new Array(parties).fill(0);
  const messages = new Array(parties).fill(0);
  const inbox = inboxes(parties);
  function post(from, to, tag, bytes) {
    sent[from] += bytes.byteLength;
    messages[from] += 1;
    const copy = bytes.slice();
    queueMicrotask(() => inbox.deliver(to, from, tag, copy));
  }
  return { parties, locals: [...Array(parties).keys()], sent, messages, post, on: inbox.on, close: async () => {} };
}

/**
 * Splits a TCP stream into `[tag, bytes]` frames for `frame(tag, bytes)`. Chunks are kept as they
 * come and joined once a header, or a whole frame, is there, so a frame of many chunks is copied
 * a bounded number of times rather than once per chunk.
 */
function deframer(frame) {
  let parts = [];
  let length = 0;
  let need = -1; // the current frame's total length once its header is read
  return (chunk) => {
    parts.push(chunk);
    length += chunk.length;
    while (length >= (need < 0 ? 5 : need)) {
      const buffered = parts.length === 1 ? parts[0] : Buffer.concat(parts, length);
      parts = [buffered];
      if (need < 0) {
        need = 5 + buffered.readUInt32LE(1);
        continue;
      }
      frame(buffered[0], new Uint8Array(buffered.subarray(5, need)));
      const rest = buffered.subarray(need);
      parts = rest.length ? [rest] : [];
      length = rest.length;
      need = -1;
    }
  };
}

/** A connection to `port` on loopback, retried every 20 ms for up to 10 s while nobody listens. */
async function dial(port) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await new Promise((resolve, reject) => {
        const socket = createConnection({ port, host: '127.0.0.1' }, () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export async function tcpLinks(me, parties, basePort) {
  const sent = new Array(parties).fill(0);
  const messages = new Array(parties).fill(0);
  const inbox = inboxes(parties);
  const sockets = new Array(parties).fill(undefined);
  const attach = (peer, socket) => {
    socket.setNoDelay(true);
    sockets[peer] = socket;
    socket.on('data', deframer((tag, bytes) => inbox.deliver(me, peer, tag, bytes)));
  };
  // Peers above this party dial it and name themselves in their first byte.
  const above = parties - 1 - me;
  const server = createServer();
  const accepted = new Promise((resolve, reject) => {
    let left = above;
    if (left === 0) resolve();
    server.on('connection', (socket) =>
      socket.once('data', (first) => {
        attach(first[0], socket);
        if (first.length > 1) socket.emit('data', first.subarray(1));
        if (--left === 0) resolve();
      }),
    );
    server.on('error', reject);
  });
  await new Promise((resolve) => server.listen(basePort + me, '127.0.0.1', resolve));
  for (let peer = 0; peer < me; peer++) {
    const socket = await dial(basePort + peer);
    socket.write(Buffer.from([me]));
    attach(peer, socket);
  }
  await accepted;
  server.close();
  function post(from, to, tag, bytes) {
    sent[from] += bytes.byteLength;
    messages[from] += 1;
    const header = Buffer.alloc(5);
    header[0] = tag;
    header.writeUInt32LE(bytes.byteLength, 1);
    sockets[to].write(Buffer.concat([header, bytes])); // a copy: the engine may reuse `bytes`
  }
  // Ends every connection once its writes are out, and resolves when each is closed: by the peer
  // ending its side too (a peer that finished first may have closed it already), or after 5 s,
  // dropping what is left.
  const close = () =>
    Promise.all(
      sockets.filter(Boolean).map(
        (s) =>
          new Promise((resolve) => {
            if (s.closed) return resolve();
            const timer = setTimeout(() => {
              s.destroy();
              resolve();
            }, 5_000);
            s.once('close', () => resolve(clearTimeout(timer)));
            s.end();
          }),
      ),
    );
  return { parties, locals: [me], sent, messages, post, on: inbox.on, close };
}

/**
 * One Chorus party in a Web Worker: the SDK and its WASM module run here, so the page never
 * freezes while the protocol computes. The page talks to it with messages:
 *
 * - in  `{ type: 'connect', invite, secret, warmUp? }`: join the relay room (the roster is reported
 *   live), warming the WASM core up for the job `warmUp` describes meanwhile (`Session.warmUp`);
 * - in  `{ type: 'run', input }`: run `session.aes(input)` (input: `{ key }` or `{ plaintext }`);
 * - out `{ type: 'roster', roster }`, `{ type: 'ready' }`, `{ type: 'progress', round, bytesSent,
 *   bytesReceived, elapsedMs }`, `{ type: 'result', ciphertextHex, stats }`,
 *   `{ type: 'error', kind, message, slot? }`.
 *
 * The live roster comes from the relay's own membership messages (`welcome`, `joined`, `left`,
 * `ready`, `peer-left`: see server/PROTOCOL.md), observed through a WebSocket subclass handed to
 * the SDK as `WebSocketImpl`, because `connect` resolves only once every party has joined.
 */
import {
  CancelledError,
  ConfigError,
  connect,
  IntegrityError,
  PeerLeftError,
  ProtocolAbortError,
  RelayError,
} from '@chorus/sdk';

const post = (message) => self.postMessage(message);
let session;

/** A WebSocket that reports every roster the relay announces, then behaves as usual. */
class RosterWebSocket extends WebSocket {
  constructor(url, protocols) {
    super(url, protocols);
    this.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
      try {
        const message = JSON.parse(event.data);
        if (Array.isArray(message.roster)) post({ type: 'roster', roster: message.roster });
      } catch {
        // Not a control message: the SDK reports malformed relay messages itself.
      }
    });
  }
}

/** Turns an SDK error into a message for the page's alert. */
function describe(error) {
  if (error instanceof PeerLeftError) {
    return { kind: 'peer-left', slot: error.slot, message: `Party ${error.slot} left the session; the computation cannot finish.` };
  }
  if (error instanceof IntegrityError) {
    return {
      kind: 'integrity',
      slot: error.slot,
      message: `A frame from party ${error.slot} failed authentication: it was altered in transit, or that party holds another session secret.`,
    };
  }
  if (error instanceof ProtocolAbortError) {
    return { kind: 'protocol-abort', message: `The protocol aborted (${error.check}): ${error.message}` };
  }
  if (error instanceof RelayError) return { kind: 'relay', message: `Relay error (${error.code}): ${error.message}` };
  if (error instanceof ConfigError) return { kind: 'config', message: `Invalid ${error.field}: ${error.message}` };
  if (error instanceof CancelledError) return { kind: 'cancelled', message: 'The session was cancelled.' };
  return { kind: 'unexpected', message: `Unexpected error: ${error?.message ?? String(error)}` };
}

async function onConnect({ invite, secret, warmUp }) {
  session = await connect({
    ...invite,
    secret,
    wasm: new URL('chorus_wasm_bg.wasm', self.location.href).href,
    WebSocketImpl: RosterWebSocket,
    // While the room fills, run the job's code a few times in this worker (MAESTRO jobs: see
    // `spawnParty`), so that the real job runs optimized WASM from its first round.
    warmUp,
  });
  session.on('peer-left', ({ slot, roster }) => post({ type: 'peer-left', slot, roster }));
  post({ type: 'ready' });
}

async function onRun({ input }) {
  const started = performance.now();
  const unsubscribe = session.on('progress', ({ round, bytesSent, bytesReceived }) =>
    post({ type: 'progress', round, bytesSent, bytesReceived, elapsedMs: performance.now() - started }),
  );
  try {
    const result = await session.aes(input);
    post({ type: 'result', ciphertextHex: result.ciphertextHex, stats: result.stats });
  } finally {
    unsubscribe();
  }
  await session.close();
}

self.addEventListener('message', (event) => {
  const handler = event.data.type === 'connect' ? onConnect : event.data.type === 'run' ? onRun : undefined;
  if (handler === undefined) return;
  handler(event.data).catch((error) => post({ type: 'error', ...describe(error) }));
});

/**
 * Relay URL handling. Users give the relay's address in whichever form they have at hand
 * (`http://host:8787`, `https://relay.example/chorus`, `ws://host:8787/ws`); the SDK derives the
 * HTTP base for `POST /rooms` and the WebSocket endpoint from it.
 */
import { ConfigError } from '../errors.js';
import { WS_PATH as RELAY_WS_PATH } from './relay-protocol.js';

/** Path of the relay's WebSocket endpoint, relative to the relay base (`ws` of the relay's `/ws`). */
const WS_PATH = RELAY_WS_PATH.replace(/^\//, '');

const HTTP_FOR: Record<string, string> = {
  'http:': 'http:',
  'https:': 'https:',
  'ws:': 'http:',
  'wss:': 'https:',
};

/**
 * Parses `relay` into the relay's HTTP base URL: scheme `http:`/`https:`, no trailing `/ws`, path
 * ending in `/`. A relay mounted under a path prefix keeps the prefix.
 */
export function relayBaseUrl(relay: unknown, field = 'relay'): URL {
  if (typeof relay !== 'string' || relay.trim() === '') {
    throw new ConfigError(field, 'expected a non-empty relay URL string');
  }
  let url: URL;
  try {
    url = new URL(relay.trim());
  } catch {
    throw new ConfigError(field, `'${relay}' is not a URL`);
  }
  const scheme = HTTP_FOR[url.protocol];
  if (scheme === undefined) {
    throw new ConfigError(field, `unsupported scheme '${url.protocol}' (use http, https, ws or wss)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(field, 'the relay URL must not contain credentials');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(field, 'the relay URL must not have a query or fragment');
  }
  // The `URL` setter refuses to switch between special schemes with different default ports only
  // in some engines, so build the base from parts instead of assigning `protocol`.
  let path = url.pathname;
  if (path.endsWith(`/${WS_PATH}`)) path = path.slice(0, -WS_PATH.length);
  else if (path.endsWith(`/${WS_PATH}/`)) path = path.slice(0, -WS_PATH.length - 1);
  if (!path.endsWith('/')) path += '/';
  return new URL(`${scheme}//${url.host}${path}`);
}

/** The HTTP URL of an endpoint (for example `rooms`) of the relay at `relay`. */
export function relayHttpUrl(relay: unknown, endpoint: string, field = 'relay'): URL {
  return new URL(endpoint, relayBaseUrl(relay, field));
}

/** The WebSocket endpoint of the relay at `relay`, without a query. */
export function relayWebSocketUrl(relay: unknown, field = 'relay'): URL {
  const base = relayBaseUrl(relay, field);
  const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return new URL(`${scheme}//${base.host}${base.pathname}${WS_PATH}`);
}

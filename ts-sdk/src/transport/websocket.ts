/**
 * The WebSocket the SDK runs on: the platform's own where there is one (browsers, Deno, Node 22+),
 * the `ws` package on Node versions without a global `WebSocket` (Node 20 by default), or one the
 * caller injects. Only the WHATWG interface is used (`addEventListener`, `binaryType`, `send`,
 * `close`), which `ws` implements too.
 */
import { ConfigError } from '../errors.js';

/** The events of a WebSocket the SDK listens to. */
export interface WebSocketEventMapLike {
  open: unknown;
  message: { data: unknown };
  close: { code: number; reason: string };
  error: unknown;
}

/** The part of the WHATWG `WebSocket` interface the SDK needs. */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: Uint8Array | string): void;
  close(code?: number, reason?: string): void;
  addEventListener<K extends keyof WebSocketEventMapLike>(
    type: K,
    listener: (event: WebSocketEventMapLike[K]) => void,
  ): void;
}

/** A WebSocket constructor: the global `WebSocket`, `ws`'s `WebSocket`, or a compatible class. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** `readyState` values of the WHATWG WebSocket. */
export const ReadyState = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;

/**
 * The `ws` package's module name, kept in a variable so that browser bundlers leave the dynamic
 * import alone (browsers always have a global `WebSocket` and never reach it) and so the SDK's
 * types do not pull in Node's.
 */
const WS_MODULE = 'ws';

/**
 * Returns `injected` if given, else the global `WebSocket`, else `ws`'s `WebSocket` (loaded on
 * first use).
 */
export async function resolveWebSocket(injected?: WebSocketConstructor): Promise<WebSocketConstructor> {
  if (injected !== undefined) {
    if (typeof injected !== 'function') {
      throw new ConfigError('WebSocketImpl', 'expected a WebSocket constructor');
    }
    return injected;
  }
  const global = (globalThis as { WebSocket?: unknown }).WebSocket;
  if (typeof global === 'function') return global as WebSocketConstructor;
  let module: { WebSocket?: unknown; default?: unknown };
  try {
    module = (await import(/* @vite-ignore */ WS_MODULE)) as { WebSocket?: unknown; default?: unknown };
  } catch (error) {
    throw new ConfigError(
      'WebSocketImpl',
      `no global WebSocket and the 'ws' package could not be loaded (${String(error)}); install 'ws' or pass WebSocketImpl`,
    );
  }
  const ctor = module.WebSocket ?? module.default;
  if (typeof ctor !== 'function') {
    throw new ConfigError('WebSocketImpl', "the 'ws' package does not export a WebSocket class");
  }
  return ctor as WebSocketConstructor;
}

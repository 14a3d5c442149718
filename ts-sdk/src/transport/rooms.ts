/**
 * Room creation through the relay's HTTP API (`POST /rooms`). Whoever creates a room receives one
 * token per slot and hands each party its own {@link Invite} out of band.
 */
import { abortError, ConfigError, RelayError } from '../errors.js';
import { relayHttpUrl, relayWebSocketUrl } from './urls.js';
import { MAX_PARTIES, MIN_PARTIES } from './wire.js';

/** Options of {@link createRoom}. */
export interface CreateRoomOptions {
  /** The relay: `http(s)://host:port[/prefix]` or `ws(s)://host:port[/prefix]/ws`. */
  relay: string;
  /** The number of party slots, 2..16. */
  parties: number;
  /** Aborting it cancels the request. */
  signal?: AbortSignal;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * The relay operator's admission token, when the relay requires one to create rooms (sent as
   * `Authorization: Bearer …`). Not needed to join: each slot has its own token.
   */
  admissionToken?: string;
}

/** What one party needs to join its slot: pass it to {@link RelayConnection.open}. */
export interface Invite {
  /** The relay's WebSocket endpoint. */
  relay: string;
  room: string;
  slot: number;
  /** The slot's secret token: whoever holds it can take the slot. */
  token: string;
  parties: number;
}

/** A room created on the relay. */
export interface Room {
  /** The room id. */
  room: string;
  /** The number of party slots. */
  parties: number;
  /** `tokens[i]` is the secret credential of slot `i`. */
  tokens: string[];
  /** Milliseconds since the Unix epoch after which the room is deleted if nobody joined it. */
  expiresAt: number;
  /** The invite for `slot`: relay endpoint, room, slot, token and party count. */
  invite(slot: number): Invite;
}

function isRoomBody(value: unknown, parties: number): value is { room: string; tokens: string[]; expiresAt: number } {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    typeof body.room === 'string' &&
    body.room !== '' &&
    Array.isArray(body.tokens) &&
    body.tokens.length === parties &&
    body.tokens.every((token) => typeof token === 'string' && token !== '') &&
    typeof body.expiresAt === 'number'
  );
}

/** Turns an HTTP error response into a {@link RelayError} with the relay's code when it sent one. */
async function httpError(response: Response): Promise<RelayError> {
  let code = `http-${response.status}`;
  let message = `the relay answered HTTP ${response.status}`;
  try {
    const body = (await response.json()) as Record<string, unknown>;
    if (body !== null && typeof body === 'object' && typeof body.code === 'string') {
      code = body.code;
      if (typeof body.message === 'string') message = `the relay refused: ${body.message}`;
    }
  } catch {
    // Not a Chorus error body (a proxy's HTML page, say): the status alone has to do.
  }
  return new RelayError(code, message, { httpStatus: response.status });
}

/**
 * Creates a room of `parties` slots on the relay. Rejects with {@link ConfigError} for bad options,
 * {@link RelayError} if the relay is unreachable or refuses (its code, e.g. `too-many-rooms`,
 * `rate-limited`, `admission-required`, `bad-admission-token`, and the HTTP status), and
 * {@link CancelledError} if `signal` aborts.
 */
export async function createRoom(options: CreateRoomOptions): Promise<Room> {
  if (typeof options !== 'object' || options === null) throw new ConfigError('options', 'expected an options object');
  const { parties, signal } = options;
  const endpoint = relayHttpUrl(options.relay, 'rooms');
  const wsEndpoint = relayWebSocketUrl(options.relay).toString();
  if (!Number.isInteger(parties) || parties < MIN_PARTIES || parties > MAX_PARTIES) {
    throw new ConfigError('parties', `expected an integer in ${MIN_PARTIES}..${MAX_PARTIES}, got ${String(parties)}`);
  }
  const { admissionToken } = options;
  if (admissionToken !== undefined && (typeof admissionToken !== 'string' || !/^[\x21-\x7e]+$/.test(admissionToken))) {
    throw new ConfigError('admissionToken', 'expected a non-empty token of printable ASCII without spaces');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new ConfigError('fetch', 'no global fetch; pass options.fetch');
  if (signal?.aborted) throw abortError(signal, 'creating a room');

  let response: Response;
  try {
    const init: RequestInit = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(admissionToken === undefined ? {} : { authorization: `Bearer ${admissionToken}` }),
      },
      body: JSON.stringify({ parties }),
    };
    if (signal !== undefined) init.signal = signal;
    response = await fetchImpl(endpoint, init);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, 'creating a room');
    throw new RelayError('connect-failed', `could not reach the relay at ${endpoint.origin}: ${String(error)}`, { cause: error });
  }
  if (response.status !== 201) throw await httpError(response);
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw abortError(signal, 'creating a room');
    throw new RelayError('bad-relay-message', 'the relay answered POST /rooms with a body that is not JSON', { cause: error });
  }
  if (!isRoomBody(body, parties)) {
    throw new RelayError('bad-relay-message', 'the relay answered POST /rooms without room, tokens and expiresAt');
  }
  const { room, tokens, expiresAt } = body;
  return {
    room,
    parties,
    tokens: [...tokens],
    expiresAt,
    invite(slot: number): Invite {
      if (!Number.isInteger(slot) || slot < 0 || slot >= parties) {
        throw new ConfigError('slot', `expected an integer in 0..${parties - 1}, got ${String(slot)}`);
      }
      return { relay: wsEndpoint, room, slot, token: tokens[slot]!, parties };
    },
  };
}

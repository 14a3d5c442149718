/**
 * Test helpers: a recording WebSocket party client and room creation over HTTP. Every wait is
 * bounded so a broken relay fails a test instead of hanging it.
 */
import { request as httpRequest } from "node:http";
import { WebSocket } from "ws";
import type { ControlMessage } from "../src/protocol.js";
import type { CreatedRoom } from "../src/rooms.js";

const DEFAULT_WAIT_MS = 5000;

/** How a connection ended. */
export interface CloseInfo {
  code: number;
  reason: string;
}

/** A party client that records every frame it receives. */
export class PartyClient {
  readonly controls: ControlMessage[] = [];
  readonly data: Buffer[] = [];
  /** Every message in arrival order: a control message's type, or `data`. */
  readonly arrivals: string[] = [];
  closeInfo: CloseInfo | undefined;
  private listeners = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (raw, isBinary) => {
      if (isBinary) {
        this.data.push(raw as Buffer);
        this.arrivals.push("data");
      } else {
        const message = JSON.parse((raw as Buffer).toString("utf8")) as ControlMessage;
        this.controls.push(message);
        this.arrivals.push(message.type);
      }
      this.notify();
    });
    ws.on("close", (code, reason) => {
      this.closeInfo = { code, reason: reason.toString("utf8") };
      this.notify();
    });
    ws.on("error", () => undefined);
  }

  /** Opens a connection to `wsUrl` with the given query and waits until it is open. */
  static async connect(
    wsUrl: string,
    query: Record<string, string | number>,
    options: { autoPong?: boolean; localAddress?: string; headers?: Record<string, string> } = {},
  ): Promise<PartyClient> {
    const params = new URLSearchParams(
      Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
    );
    const ws = new WebSocket(`${wsUrl}?${params.toString()}`, options);
    const client = new PartyClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return client;
  }

  /** Joins `slot` of `room` with the slot's own token. */
  static join(
    wsUrl: string,
    room: CreatedRoom,
    slot: number,
    options: { autoPong?: boolean; localAddress?: string; headers?: Record<string, string> } = {},
  ): Promise<PartyClient> {
    return PartyClient.connect(wsUrl, { room: room.room, slot, token: room.tokens[slot]! }, options);
  }

  /** Sends a data frame `[destination][payload]`. */
  sendTo(destination: number, payload: Uint8Array): void {
    const frame = Buffer.alloc(payload.length + 1);
    frame[0] = destination;
    frame.set(payload, 1);
    this.ws.send(frame);
  }

  /** Waits for the first recorded control message of `type` (after `skip` earlier ones). */
  async control<T extends ControlMessage["type"]>(
    type: T,
    skip = 0,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<Extract<ControlMessage, { type: T }>> {
    await this.until(() => this.controls.filter((m) => m.type === type).length > skip, timeoutMs, `control '${type}'`);
    return this.controls.filter((m) => m.type === type)[skip] as Extract<ControlMessage, { type: T }>;
  }

  /** Waits until at least `count` data frames have arrived. */
  async dataFrames(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<Buffer[]> {
    await this.until(() => this.data.length >= count, timeoutMs, `${count} data frames`);
    return this.data.slice(0, count);
  }

  /** Waits for the connection to close. */
  async closed(timeoutMs = DEFAULT_WAIT_MS): Promise<CloseInfo> {
    await this.until(() => this.closeInfo !== undefined, timeoutMs, "close");
    return this.closeInfo!;
  }

  /** Closes from the client side. */
  close(): void {
    this.ws.close(1000);
  }

  /** Cuts the TCP connection without a close frame, as a network drop would. */
  cut(): void {
    (this.ws as unknown as { _socket: { destroy(): void } })._socket.destroy();
  }

  /** Sends a protocol-2 `ack` of `received` data frames. */
  ack(received: number): void {
    this.ws.send(JSON.stringify({ type: "ack", received }));
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const listener = (): void => {
        if (condition()) {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }
}

/** `POST /rooms` and returns the parsed body (asserting success). */
export async function createRoom(baseUrl: string, parties: number): Promise<CreatedRoom> {
  const response = await fetch(`${baseUrl}/rooms`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ parties }),
  });
  if (response.status !== 201) {
    throw new Error(`room creation failed: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as CreatedRoom;
}

/** Joins every slot of a room and waits until all parties saw `ready`. */
export async function fillRoom(wsUrl: string, room: CreatedRoom): Promise<PartyClient[]> {
  const clients: PartyClient[] = [];
  for (let slot = 0; slot < room.parties; slot += 1) {
    clients.push(await PartyClient.join(wsUrl, room, slot));
  }
  await Promise.all(clients.map((client) => client.control("ready")));
  return clients;
}

/** Polls `condition` every few milliseconds until it holds or `timeoutMs` passes. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = DEFAULT_WAIT_MS,
  what = "condition",
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Deterministic payload bytes for frame `index` of length `length` (no randomness needed). */
export function patternBytes(index: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (index * 131 + i * 7) & 0xff;
  return bytes;
}

/** Response of {@link request}: status, headers and the body parsed as JSON when it is JSON. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * An HTTP request through `node:http`, so tests can pick the client's source address
 * (`localAddress: "127.0.0.2"`: Linux routes all of 127/8 over loopback) and send any header.
 */
export function request(
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress, timeout: DEFAULT_WAIT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`request to ${url} timed out`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** `POST /rooms` with `parties` from `localAddress`, with extra headers; no assertion. */
export function postRoom(
  baseUrl: string,
  parties = 2,
  options: { headers?: Record<string, string>; localAddress?: string } = {},
): Promise<RawResponse> {
  return request(`${baseUrl}/rooms`, {
    method: "POST",
    body: JSON.stringify({ parties }),
    headers: { "Content-Type": "application/json", ...options.headers },
    localAddress: options.localAddress,
  });
}

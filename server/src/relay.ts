/**
 * `startRelay`: wires the HTTP server, the WebSocket upgrade on `/ws`, the room registry and the
 * connection manager together, and gives back a handle whose `close()` shuts everything down
 * gracefully (no new connections, every party closed with 1001, then the listener).
 */
import { realpath, stat } from "node:fs/promises";
import { createServer, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { AdmissionTokens } from "./http/admission.js";
import { clientAddress, limitKey, TrustedProxies } from "./client-address.js";
import { ConfigError, resolveConfig, type RelayConfig, type RelayOptions } from "./config.js";
import { ConnectionManager, type ConnectionStats } from "./ws/connections.js";
import { createRequestHandler } from "./http/http-routes.js";
import type { Party } from "./ws/party.js";
import { ClientLimits } from "./limits.js";
import { Logger, type LogSink } from "./log.js";
import { RelayMetrics, type MetricsSource } from "./http/metrics.js";
import { WS_PATH, type ErrorCode } from "./protocol.js";
import { RoomRegistry } from "./rooms.js";

/** A running relay. */
export interface RelayHandle {
  /** Base HTTP URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** WebSocket endpoint, e.g. `ws://127.0.0.1:8787/ws`. */
  wsUrl: string;
  /** The port actually bound (useful with `port: 0`). */
  port: number;
  /** The effective configuration. */
  config: RelayConfig;
  /** Current load figures (the same numbers `/healthz` reports). */
  stats(): ConnectionStats;
  /** Re-reads the admission token file now (the CLI calls it on SIGHUP). */
  reloadAdmissionTokens(): Promise<void>;
  /** Graceful shutdown; resolves once every socket and the listener are closed. Idempotent. */
  close(): Promise<void>;
}

/** Process-level hooks of `startRelay` that are not configuration. */
export interface RelayHooks {
  /** Where JSON log lines go (default: stderr). */
  logSink?: LogSink;
}

/** Starts a relay and resolves once it listens. Throws `ConfigError` for bad options. */
export async function startRelay(options: RelayOptions = {}, hooks: RelayHooks = {}): Promise<RelayHandle> {
  const config = resolveConfig(options);
  const proxies = new TrustedProxies(config.trustedProxies);
  const log = new Logger(config.logLevel, hooks.logSink);
  const staticRoot = config.staticDir === undefined ? undefined : await staticRootOf(config.staticDir);
  const admission = new AdmissionTokens(config.admissionTokens, config.admissionTokensFile, log);
  await admission.reload();
  const limits = new ClientLimits(config);
  const roomPrefix = config.instanceId === undefined ? "" : `${config.instanceId}.`;
  const rooms = new RoomRegistry<Party>(config.maxRooms, config.roomTtlMs, Date.now, roomPrefix);
  // Read at scrape time only, after `connections` exists.
  const metrics: RelayMetrics = new RelayMetrics((): MetricsSource => connections.stats());
  const refused = (code: ErrorCode): void => metrics.refused(code);
  const connections: ConnectionManager = new ConnectionManager(config, rooms, limits, log, metrics);
  const server = createServer(
    createRequestHandler({
      config,
      rooms,
      connections,
      staticRoot,
      startedAt: Date.now(),
      proxies,
      limits,
      admission,
      log,
      refused,
      metrics,
    }),
  );
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.maxPayloadBytes,
    // Payloads are ciphertext: compression gains nothing and would cost memory per connection.
    perMessageDeflate: false,
    clientTracking: false,
  });
  let closing: Promise<void> | undefined;

  server.on("upgrade", (req, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const target = req.url ?? "/";
    const queryStart = target.indexOf("?");
    const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
    const query = queryStart === -1 ? "" : target.slice(queryStart + 1);
    if (closing !== undefined) return rejectUpgrade(socket, 503, "shutting-down");
    if (pathname !== WS_PATH) return rejectUpgrade(socket, 404, "not-found");
    const address = clientAddress(req, proxies);
    const addressKey = limitKey(address);
    const retryAfter = limits.upgradeRate.take([addressKey]);
    if (retryAfter > 0) {
      refused("rate-limited");
      log.debug("upgrade-refused", { code: "rate-limited", address });
      return rejectUpgrade(socket, 429, "rate-limited", { "Retry-After": String(retryAfter) });
    }
    wss.handleUpgrade(req, socket, head, (ws) =>
      connections.accept(ws, new URLSearchParams(query), address, addressKey),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(":") ? `[${config.host}]` : config.host;
  log.info("listening", { host: config.host, port, admission: admission.required });

  const close = (): Promise<void> => {
    closing ??= (async () => {
      const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await connections.shutdown();
      server.closeAllConnections();
      await listenerClosed;
      wss.close();
      limits.stop();
      log.info("closed");
    })();
    return closing;
  };

  return {
    url: `http://${hostForUrl}:${port}`,
    wsUrl: `ws://${hostForUrl}:${port}${WS_PATH}`,
    port,
    config,
    stats: () => connections.stats(),
    reloadAdmissionTokens: () => admission.reload(),
    close,
  };
}

async function staticRootOf(dir: string): Promise<string> {
  try {
    const root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new ConfigError(`static path is not a directory: ${dir}`);
    return root;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`static directory cannot be read: ${dir} (${(error as Error).message})`);
  }
}

/** Answers a refused upgrade with a plain HTTP error carrying the JSON error body. */
function rejectUpgrade(socket: Duplex, status: number, code: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ type: "error", code, message: STATUS_CODES[status] ?? "error" });
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
      `Connection: close\r\n${extra}Content-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

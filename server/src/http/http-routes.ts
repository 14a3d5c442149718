/**
 * Plain HTTP routes: `POST /rooms` (create a room), `GET /healthz` (load figures), CORS preflight,
 * and the static directory when one is configured. Every error body is the same JSON shape as a
 * WebSocket error frame: `{type:"error", code, message}`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdmissionTokens } from "./admission.js";
import { clientAddress, limitKey, type TrustedProxies } from "../client-address.js";
import type { RelayConfig } from "../config.js";
import { releaseOnce, type ClientLimits } from "../limits.js";
import type { Logger } from "../log.js";
import type { RelayMetrics } from "./metrics.js";
import type { ConnectionManager } from "../ws/connections.js";
import type { Party } from "../ws/party.js";
import { MAX_PARTIES, MIN_PARTIES, WS_PATH, type ErrorCode } from "../protocol.js";
import { TooManyRoomsError, type RoomRegistry } from "../rooms.js";
import { serveStatic } from "./static-files.js";

/** Largest accepted `POST /rooms` body; the real one is a few bytes. */
const MAX_BODY_BYTES = 1024;

/** What the request handler needs from the rest of the relay. */
export interface RouteContext {
  config: RelayConfig;
  rooms: RoomRegistry<Party>;
  connections: ConnectionManager;
  /** Real path of the static directory, if serving one. */
  staticRoot: string | undefined;
  startedAt: number;
  proxies: TrustedProxies;
  limits: ClientLimits;
  admission: AdmissionTokens;
  log: Logger;
  /** Counts a refused request by its error code (metrics). */
  refused: (code: ErrorCode) => void;
  metrics: RelayMetrics;
}

/** Builds the `request` listener of the relay's HTTP server. */
export function createRequestHandler(context: RouteContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(context, req, res).catch((error: unknown) => {
      context.log.error("http-internal-error", { error: error instanceof Error ? error.name : "unknown" });
      if (!res.headersSent) sendError(context, res, 500, "internal-error", "internal error");
      else res.destroy(error as Error);
    });
  };
}

async function handle(context: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const pathname = (req.url ?? "/").split("?", 1)[0];
  const method = req.method ?? "GET";
  if (method === "OPTIONS") {
    res.writeHead(204, {
      ...corsHeaders(context),
      "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
      "Access-Control-Allow-Headers": "Content-Type, Authorization",
      "Access-Control-Max-Age": "600",
    });
    res.end();
    return;
  }
  if (pathname === "/rooms") {
    if (method !== "POST") return methodNotAllowed(context, res, "POST");
    return createRoom(context, req, res);
  }
  if (pathname === "/healthz") {
    if (method !== "GET" && method !== "HEAD") return methodNotAllowed(context, res, "GET, HEAD");
    const stats = context.connections.stats();
    return sendJson(context, res, 200, {
      status: "ok",
      ...(context.config.instanceId === undefined ? {} : { instance: context.config.instanceId }),
      rooms: stats.rooms,
      connections: stats.connections,
      bufferedBytes: stats.bufferedBytes,
      bufferedFrames: stats.bufferedFrames,
      heldBytes: stats.heldBytes,
      heldFrames: stats.heldFrames,
      parkedFrames: stats.parkedFrames,
      pausedConnections: stats.pausedConnections,
      awayParties: stats.awayParties,
      collections: stats.collections,
      collectionScheduled: stats.collectionScheduled === 1,
      uptimeSeconds: Math.floor((Date.now() - context.startedAt) / 1000),
    });
  }
  if (pathname === "/metrics") {
    if (method !== "GET" && method !== "HEAD") return methodNotAllowed(context, res, "GET, HEAD");
    const { contentType, body } = await context.metrics.render();
    res.writeHead(200, {
      "Content-Type": contentType,
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
    });
    res.end(method === "HEAD" ? undefined : body);
    return;
  }
  if (pathname === WS_PATH) {
    return sendError(context, res, 426, "upgrade-required", "this endpoint takes WebSocket upgrades");
  }
  if (context.staticRoot !== undefined && (method === "GET" || method === "HEAD")) {
    return serveStatic(context.staticRoot, req, res, (status, message) =>
      sendError(context, res, status, status === 404 ? "not-found" : "bad-request", message),
    );
  }
  return sendError(context, res, 404, "not-found", "not found");
}

async function createRoom(context: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { limits, log } = context;
  const address = clientAddress(req, context.proxies);
  const addressKey = limitKey(address);
  // Cheapest checks first, and the rate limit before the credential so guessing is throttled too.
  const retryAfter = limits.roomRate.take([addressKey]);
  if (retryAfter > 0) {
    res.setHeader("Retry-After", String(retryAfter));
    log.debug("room-refused", { code: "rate-limited", address });
    return sendError(context, res, 429, "rate-limited", "too many room creations from this address; retry later");
  }
  const admission = await context.admission.check(req.headers.authorization);
  if (!admission.ok) {
    log.debug("room-refused", { code: admission.code, address });
    if (admission.code === "admission-required") {
      res.setHeader("WWW-Authenticate", 'Bearer realm="chorus-relay"');
      return sendError(context, res, 401, admission.code, "this relay requires an admission token: Authorization: Bearer <token>");
    }
    return sendError(context, res, 403, admission.code, "the admission token is not valid");
  }
  const keys = admission.credential === undefined ? [addressKey] : [addressKey, admission.credential];
  if (admission.credential !== undefined) {
    const credentialRetry = limits.roomRate.take([admission.credential]);
    if (credentialRetry > 0) {
      res.setHeader("Retry-After", String(credentialRetry));
      return sendError(context, res, 429, "rate-limited", "too many room creations with this admission token; retry later");
    }
  }
  const body = await readBody(req, MAX_BODY_BYTES);
  if (body === undefined) {
    return sendError(context, res, 413, "payload-too-large", `body is limited to ${MAX_BODY_BYTES} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return sendError(context, res, 400, "bad-request", "body must be JSON like {\"parties\": 3}");
  }
  const parties = (parsed as { parties?: unknown } | null)?.parties;
  if (
    typeof parties !== "number" ||
    !Number.isInteger(parties) ||
    parties < MIN_PARTIES ||
    parties > MAX_PARTIES
  ) {
    return sendError(
      context,
      res,
      400,
      "bad-request",
      `"parties" must be an integer in ${MIN_PARTIES}..${MAX_PARTIES}`,
    );
  }
  if (!limits.pendingRooms.acquire(keys)) {
    log.debug("room-refused", { code: "too-many-pending-rooms", address });
    return sendError(
      context,
      res,
      429,
      "too-many-pending-rooms",
      `at most ${limits.pendingRooms.limit} rooms created here may wait for their parties at once`,
    );
  }
  const settle = releaseOnce(limits.pendingRooms, keys);
  try {
    const created = context.rooms.create(parties, settle);
    context.metrics.counters.roomsCreated += 1;
    log.debug("room-created", { room: created.room, parties, address });
    return sendJson(context, res, 201, created);
  } catch (error) {
    settle();
    if (error instanceof TooManyRoomsError) {
      log.warn("room-refused", { code: "too-many-rooms", address });
      return sendError(context, res, 503, "too-many-rooms", error.message);
    }
    throw error;
  }
}

/** Reads the whole body, or returns `undefined` as soon as it exceeds `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function corsHeaders(context: RouteContext): Record<string, string> {
  return context.config.corsOrigin === null
    ? {}
    : { "Access-Control-Allow-Origin": context.config.corsOrigin };
}

function sendJson(context: RouteContext, res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...corsHeaders(context),
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  res.end(text);
}

function sendError(
  context: RouteContext,
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
): void {
  context.refused(code);
  sendJson(context, res, status, { type: "error", code, message });
}

function methodNotAllowed(context: RouteContext, res: ServerResponse, allow: string): void {
  res.setHeader("Allow", allow);
  sendError(context, res, 405, "method-not-allowed", `use ${allow}`);
}

/**
 * Relay configuration: options, defaults, validation, and parsing from CLI flags and environment
 * variables (flags win over the environment, the environment over defaults).
 */
import { parseArgs } from "node:util";

/** Options accepted by `startRelay`; every field is optional and has a default. */
export interface RelayOptions {
  /** Interface to listen on. Default `127.0.0.1` (use `0.0.0.0` to accept remote parties). */
  host?: string;
  /** TCP port; `0` picks a free port. Default 8787. */
  port?: number;
  /** Directory to serve as static files under `/`; unset serves nothing. */
  staticDir?: string;
  /** Largest WebSocket message accepted from a party, header byte included. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Most rooms that may exist at once. Default 1000. */
  maxRooms?: number;
  /**
   * Payload bytes that may wait in a party's outgoing queue before the relay stops reading from
   * the parties sending to it. Default 8 MiB.
   */
  maxBufferedBytes?: number;
  /**
   * Frames that may wait in a party's outgoing queue before the relay stops reading from the
   * parties sending to it (whichever of the two caps is reached first). Default 1024.
   */
  maxBufferedFrames?: number;
  /**
   * Frames (data and `ack`) one connection may send a second, with a burst of one second's worth;
   * past it the relay stops reading the connection until the budget refills (nothing is dropped).
   * Bounds the relay's per-frame work any one client can cause. Default 20000.
   */
  maxFramesPerSecond?: number;
  /** A party with no data frame to or from it for this long is disconnected. Default 5 min. */
  idleTimeoutMs?: number;
  /**
   * A party for which frames wait at the relay and which reads none of them for this long is
   * dropped as `stalled` (protocol 2 with resume: it is away and may resume). Default 30 s.
   */
  stallTimeoutMs?: number;
  /** Interval between WebSocket pings; a party that missed the previous pong is dropped. 30 s. */
  heartbeatIntervalMs?: number;
  /** A room nobody has joined within this time is deleted. Default 10 min. */
  roomTtlMs?: number;
  /** On shutdown, how long to wait for close handshakes before cutting sockets. Default 2 s. */
  shutdownGraceMs?: number;
  /** `Access-Control-Allow-Origin` value for the HTTP API; `null` sends none. Default `*`. */
  corsOrigin?: string | null;
  /** Room creations one client address may make per minute, on average. Default 60. */
  roomRatePerMinute?: number;
  /** Room creations one client address may make in a burst. Default 20. */
  roomBurst?: number;
  /** WebSocket upgrades one client address may make per minute, on average. Default 600. */
  upgradeRatePerMinute?: number;
  /** WebSocket upgrades one client address may make in a burst. Default 100. */
  upgradeBurst?: number;
  /** Rooms created by one client address that are not yet full (every slot joined). Default 20. */
  maxPendingRoomsPerAddress?: number;
  /** Open WebSocket connections from one client address. Default 100. */
  maxConnectionsPerAddress?: number;
  /**
   * Addresses or CIDR blocks of reverse proxies whose `X-Forwarded-For` header is trusted.
   * Default none: the client address is always the TCP peer address.
   */
  trustedProxies?: string[];
  /**
   * File of admission tokens, one per line (`#` comments and blank lines ignored). When set,
   * `POST /rooms` needs `Authorization: Bearer <one of them>`. The relay re-reads the file when it
   * changes, so tokens rotate without a restart.
   */
  admissionTokensFile?: string;
  /** Admission tokens given directly (programmatic use); combined with the file's. */
  admissionTokens?: string[];
  /** Log level of the JSON log lines on stderr: `debug`, `info`, `warn`, `error` or `silent`. */
  logLevel?: LogLevel;
  /**
   * How long a party whose connection dropped may take to resume its slot (protocol 2). `0`
   * disables resume: a dropped party has left. Default 30 s.
   */
  resumeGraceMs?: number;
  /**
   * Bytes of frames the relay keeps per party for a resume: frames sent but not yet acknowledged,
   * and frames that arrive while the party is away. Past it, an away party's session fails.
   * Default 16 MiB.
   */
  resumeBufferBytes?: number;
  /** The same cap in frames (whichever is reached first). Default 8192. */
  resumeBufferFrames?: number;
  /** Lowest relay protocol version a client may speak (1 or 2). Default 1. */
  minProtocol?: number;
  /**
   * This relay's name in a cluster: 1 to 16 characters `[a-z0-9]`. Room ids it creates start with
   * it and a dot (`r1.…`), so a load balancer routes each join to the instance holding the room.
   * Default none (room ids without a prefix).
   */
  instanceId?: string;
}

/** Levels of the relay's structured log. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** A complete, validated configuration. */
export type RelayConfig = Required<
  Omit<RelayOptions, "staticDir" | "corsOrigin" | "admissionTokensFile" | "instanceId">
> & {
  staticDir: string | undefined;
  instanceId: string | undefined;
  corsOrigin: string | null;
  admissionTokensFile: string | undefined;
};

/** Default values of every limit; README.md lists the same numbers. */
export const DEFAULTS: Omit<RelayConfig, "staticDir" | "admissionTokensFile" | "instanceId"> = {
  host: "127.0.0.1",
  port: 8787,
  maxPayloadBytes: 1024 * 1024,
  maxRooms: 1000,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxBufferedFrames: 1024,
  maxFramesPerSecond: 20_000,
  idleTimeoutMs: 5 * 60 * 1000,
  stallTimeoutMs: 30 * 1000,
  heartbeatIntervalMs: 30 * 1000,
  roomTtlMs: 2 * 60 * 1000,
  shutdownGraceMs: 2000,
  corsOrigin: "*",
  roomRatePerMinute: 60,
  roomBurst: 20,
  upgradeRatePerMinute: 600,
  upgradeBurst: 100,
  maxPendingRoomsPerAddress: 20,
  maxConnectionsPerAddress: 100,
  trustedProxies: [],
  admissionTokens: [],
  logLevel: "warn",
  resumeGraceMs: 30 * 1000,
  resumeBufferBytes: 16 * 1024 * 1024,
  resumeBufferFrames: 8192,
  minProtocol: 1,
};

/** An option has a value the relay cannot run with. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer in ${min}..${max}, got ${String(value)}`);
  }
  return value;
}

/** Fills in defaults and checks every value's range. */
export function resolveConfig(options: RelayOptions = {}): RelayConfig {
  const merged = { ...DEFAULTS, ...stripUndefined(options) };
  if (typeof merged.host !== "string" || merged.host.length === 0) {
    throw new ConfigError("host must be a non-empty string");
  }
  return {
    host: merged.host,
    port: integerIn("port", merged.port, 0, 65535),
    staticDir: options.staticDir,
    // The header byte plus at least one payload byte; 2 GiB is far beyond any sane frame.
    maxPayloadBytes: integerIn("maxPayloadBytes", merged.maxPayloadBytes, 2, 2 ** 31),
    maxRooms: integerIn("maxRooms", merged.maxRooms, 1, 10_000_000),
    maxBufferedBytes: integerIn("maxBufferedBytes", merged.maxBufferedBytes, 1, 2 ** 40),
    maxBufferedFrames: integerIn("maxBufferedFrames", merged.maxBufferedFrames, 1, 2 ** 30),
    maxFramesPerSecond: integerIn("maxFramesPerSecond", merged.maxFramesPerSecond, 1, 2 ** 30),
    idleTimeoutMs: integerIn("idleTimeoutMs", merged.idleTimeoutMs, 1, 2 ** 31 - 1),
    stallTimeoutMs: integerIn("stallTimeoutMs", merged.stallTimeoutMs, 1, 2 ** 31 - 1),
    heartbeatIntervalMs: integerIn("heartbeatIntervalMs", merged.heartbeatIntervalMs, 1, 2 ** 31 - 1),
    roomTtlMs: integerIn("roomTtlMs", merged.roomTtlMs, 1, 2 ** 31 - 1),
    shutdownGraceMs: integerIn("shutdownGraceMs", merged.shutdownGraceMs, 0, 2 ** 31 - 1),
    corsOrigin: merged.corsOrigin,
    roomRatePerMinute: integerIn("roomRatePerMinute", merged.roomRatePerMinute, 1, 10_000_000),
    roomBurst: integerIn("roomBurst", merged.roomBurst, 1, 10_000_000),
    upgradeRatePerMinute: integerIn("upgradeRatePerMinute", merged.upgradeRatePerMinute, 1, 10_000_000),
    upgradeBurst: integerIn("upgradeBurst", merged.upgradeBurst, 1, 10_000_000),
    maxPendingRoomsPerAddress: integerIn("maxPendingRoomsPerAddress", merged.maxPendingRoomsPerAddress, 1, 10_000_000),
    maxConnectionsPerAddress: integerIn("maxConnectionsPerAddress", merged.maxConnectionsPerAddress, 1, 10_000_000),
    trustedProxies: stringList("trustedProxies", merged.trustedProxies),
    admissionTokensFile: options.admissionTokensFile,
    admissionTokens: stringList("admissionTokens", merged.admissionTokens),
    logLevel: logLevel(merged.logLevel),
    resumeGraceMs: integerIn("resumeGraceMs", merged.resumeGraceMs, 0, 2 ** 31 - 1),
    resumeBufferBytes: integerIn("resumeBufferBytes", merged.resumeBufferBytes, 1, 2 ** 40),
    resumeBufferFrames: integerIn("resumeBufferFrames", merged.resumeBufferFrames, 1, 2 ** 30),
    minProtocol: integerIn("minProtocol", merged.minProtocol, 1, 2),
    instanceId: instanceId(options.instanceId),
  };
}

function instanceId(value: unknown): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string" || !/^[a-z0-9]{1,16}$/.test(value)) {
    throw new ConfigError(`instanceId must be 1 to 16 characters a-z or 0-9, got ${JSON.stringify(value)}`);
  }
  return value;
}

function stringList(name: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== "")) {
    throw new ConfigError(`${name} must be a list of non-empty strings`);
  }
  return [...value] as string[];
}

function logLevel(value: unknown): LogLevel {
  if (!LOG_LEVELS.includes(value as LogLevel)) {
    throw new ConfigError(`logLevel must be one of ${LOG_LEVELS.join(", ")}, got ${String(value)}`);
  }
  return value as LogLevel;
}

function stripUndefined(options: RelayOptions): RelayOptions {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as RelayOptions;
}

/** One configurable setting: its CLI flag, its environment variable, and how to parse it. */
interface Setting {
  flag: string;
  env: string;
  key: keyof RelayOptions;
  kind: "string" | "integer" | "list";
  help: string;
}

const SETTINGS: Setting[] = [
  { flag: "host", env: "CHORUS_RELAY_HOST", key: "host", kind: "string", help: "interface to listen on" },
  { flag: "port", env: "CHORUS_RELAY_PORT", key: "port", kind: "integer", help: "TCP port, 0 = any free port" },
  { flag: "static", env: "CHORUS_RELAY_STATIC", key: "staticDir", kind: "string", help: "directory served as static files" },
  { flag: "max-payload", env: "CHORUS_RELAY_MAX_PAYLOAD", key: "maxPayloadBytes", kind: "integer", help: "largest message in bytes" },
  { flag: "max-rooms", env: "CHORUS_RELAY_MAX_ROOMS", key: "maxRooms", kind: "integer", help: "most rooms at once" },
  { flag: "max-buffered", env: "CHORUS_RELAY_MAX_BUFFERED", key: "maxBufferedBytes", kind: "integer", help: "outgoing bytes queued per party before senders are paused" },
  { flag: "max-buffered-frames", env: "CHORUS_RELAY_MAX_BUFFERED_FRAMES", key: "maxBufferedFrames", kind: "integer", help: "outgoing frames queued per party before senders are paused" },
  { flag: "max-frame-rate", env: "CHORUS_RELAY_MAX_FRAME_RATE", key: "maxFramesPerSecond", kind: "integer", help: "frames a connection may send per second before it is not read for a while" },
  { flag: "idle-timeout-ms", env: "CHORUS_RELAY_IDLE_TIMEOUT_MS", key: "idleTimeoutMs", kind: "integer", help: "drop a party idle this long" },
  { flag: "stall-timeout-ms", env: "CHORUS_RELAY_STALL_TIMEOUT_MS", key: "stallTimeoutMs", kind: "integer", help: "drop a party that reads none of its waiting frames this long" },
  { flag: "heartbeat-ms", env: "CHORUS_RELAY_HEARTBEAT_MS", key: "heartbeatIntervalMs", kind: "integer", help: "ping interval" },
  { flag: "room-ttl-ms", env: "CHORUS_RELAY_ROOM_TTL_MS", key: "roomTtlMs", kind: "integer", help: "delete a room nobody joined within this time" },
  { flag: "shutdown-grace-ms", env: "CHORUS_RELAY_SHUTDOWN_GRACE_MS", key: "shutdownGraceMs", kind: "integer", help: "wait for close handshakes on shutdown" },
  { flag: "cors-origin", env: "CHORUS_RELAY_CORS_ORIGIN", key: "corsOrigin", kind: "string", help: "Access-Control-Allow-Origin value, 'none' to disable" },
  { flag: "room-rate", env: "CHORUS_RELAY_ROOM_RATE", key: "roomRatePerMinute", kind: "integer", help: "room creations per minute per client address" },
  { flag: "room-burst", env: "CHORUS_RELAY_ROOM_BURST", key: "roomBurst", kind: "integer", help: "room creations in a burst per client address" },
  { flag: "upgrade-rate", env: "CHORUS_RELAY_UPGRADE_RATE", key: "upgradeRatePerMinute", kind: "integer", help: "WebSocket upgrades per minute per client address" },
  { flag: "upgrade-burst", env: "CHORUS_RELAY_UPGRADE_BURST", key: "upgradeBurst", kind: "integer", help: "WebSocket upgrades in a burst per client address" },
  { flag: "max-pending-rooms", env: "CHORUS_RELAY_MAX_PENDING_ROOMS", key: "maxPendingRoomsPerAddress", kind: "integer", help: "rooms not yet full per creating address" },
  { flag: "max-connections-per-address", env: "CHORUS_RELAY_MAX_CONNECTIONS_PER_ADDRESS", key: "maxConnectionsPerAddress", kind: "integer", help: "open WebSocket connections per client address" },
  { flag: "trusted-proxies", env: "CHORUS_RELAY_TRUSTED_PROXIES", key: "trustedProxies", kind: "list", help: "comma-separated proxy addresses/CIDRs whose X-Forwarded-For is trusted" },
  { flag: "admission-tokens-file", env: "CHORUS_RELAY_ADMISSION_TOKENS_FILE", key: "admissionTokensFile", kind: "string", help: "file of bearer tokens required by POST /rooms" },
  { flag: "log-level", env: "CHORUS_RELAY_LOG_LEVEL", key: "logLevel", kind: "string", help: "debug, info, warn, error or silent" },
  { flag: "resume-grace-ms", env: "CHORUS_RELAY_RESUME_GRACE_MS", key: "resumeGraceMs", kind: "integer", help: "how long a dropped party may take to resume, 0 = never" },
  { flag: "resume-buffer", env: "CHORUS_RELAY_RESUME_BUFFER", key: "resumeBufferBytes", kind: "integer", help: "bytes kept per party for a resume" },
  { flag: "resume-buffer-frames", env: "CHORUS_RELAY_RESUME_BUFFER_FRAMES", key: "resumeBufferFrames", kind: "integer", help: "frames kept per party for a resume" },
  { flag: "min-protocol", env: "CHORUS_RELAY_MIN_PROTOCOL", key: "minProtocol", kind: "integer", help: "lowest client protocol version admitted (1 or 2)" },
  { flag: "instance", env: "CHORUS_RELAY_INSTANCE", key: "instanceId", kind: "string", help: "this relay's name in a cluster ([a-z0-9]{1,16}); prefixes its room ids" },
];

function parseValue(setting: Setting, raw: string, source: string): string | number | string[] | null {
  if (setting.kind === "integer") {
    if (!/^\d+$/.test(raw)) {
      throw new ConfigError(`${source} must be a non-negative integer, got ${JSON.stringify(raw)}`);
    }
    return Number(raw);
  }
  if (setting.kind === "list") {
    return raw.split(",").map((item) => item.trim()).filter((item) => item !== "");
  }
  if (setting.key === "corsOrigin" && raw === "none") return null;
  return raw;
}

/** Result of parsing the command line. */
export type CliParse = { help: true; usage: string } | { help: false; options: RelayOptions };

/** Usage text for `chorus-relay --help`. */
export function usage(): string {
  const lines = SETTINGS.map(
    (s) => `  --${s.flag.padEnd(18)} ${s.help} (env ${s.env}, default ${defaultText(s)})`,
  );
  return ["Usage: chorus-relay [options]", "", ...lines, "  --help               this text"].join("\n");
}

function defaultText(setting: Setting): string {
  if (setting.key === "staticDir" || setting.key === "admissionTokensFile" || setting.key === "instanceId") return "none";
  // The CLI logs at info level unless told otherwise; programmatic relays default to warn.
  if (setting.key === "logLevel") return "info";
  const value = DEFAULTS[setting.key as keyof typeof DEFAULTS];
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(",");
  return String(value);
}

/** Parses `argv` (without the node and script paths) on top of environment variables. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): CliParse {
  const flagSpec = Object.fromEntries(
    SETTINGS.map((s) => [s.flag, { type: "string" as const }]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...flagSpec, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (parsed.values.help === true) return { help: true, usage: usage() };
  const options: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    const fromEnv = env[setting.env];
    if (fromEnv !== undefined && fromEnv !== "") {
      options[setting.key] = parseValue(setting, fromEnv, setting.env);
    }
    const fromFlag = (parsed.values as Record<string, unknown>)[setting.flag];
    if (typeof fromFlag === "string") {
      options[setting.key] = parseValue(setting, fromFlag, `--${setting.flag}`);
    }
  }
  return { help: false, options: options as RelayOptions };
}

/**
 * Who is asking: the client address of an HTTP request or WebSocket upgrade, for per-client limits.
 *
 * The address is the TCP peer's, unless that peer is a configured trusted proxy: then the relay
 * walks `X-Forwarded-For` from the right (the entry the nearest proxy appended) past further
 * trusted proxies, and takes the first address that is not one. A client can write anything into
 * the header it sends, but only entries appended by trusted proxies are believed.
 *
 * Limits are keyed by the address, with IPv6 addresses grouped by their /64 prefix (one host
 * usually holds a whole /64, so single IPv6 addresses would be free for the taking).
 */
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";
import { ConfigError } from "./config.js";

/** The set of trusted proxies, built once from the configuration. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  /** `entries`: addresses (`10.0.0.5`, `::1`) or CIDR blocks (`10.0.0.0/8`). */
  constructor(entries: string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const [address, prefixText, extra] = entry.split("/");
      const family = isIP(address ?? "");
      if (family === 0 || extra !== undefined) {
        throw new ConfigError(`trustedProxies: not an address or CIDR block: ${JSON.stringify(entry)}`);
      }
      const type = family === 4 ? "ipv4" : "ipv6";
      if (prefixText === undefined) {
        this.list.addAddress(address!, type);
        continue;
      }
      const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) {
        throw new ConfigError(`trustedProxies: bad prefix length in ${JSON.stringify(entry)}`);
      }
      this.list.addSubnet(address!, prefix, type);
    }
  }

  /** Whether `address` (already normalized) is a trusted proxy. */
  has(address: string): boolean {
    if (this.empty) return false;
    const family = isIP(address);
    return family !== 0 && this.list.check(address, family === 4 ? "ipv4" : "ipv6");
  }
}

/** Strips the IPv4-mapped IPv6 prefix (`::ffff:1.2.3.4` → `1.2.3.4`) and IPv6 zone ids. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(trimmed);
  if (mapped) return mapped[1]!;
  const zone = trimmed.indexOf("%");
  return (zone === -1 ? trimmed : trimmed.slice(0, zone)).toLowerCase();
}

/** The client address of `req`, honouring `X-Forwarded-For` from trusted proxies only. */
export function clientAddress(req: IncomingMessage, proxies: TrustedProxies): string {
  let current = normalizeAddress(req.socket.remoteAddress ?? "unknown");
  if (!proxies.has(current)) return current;
  const header = req.headers["x-forwarded-for"];
  const value = Array.isArray(header) ? header.join(",") : header;
  if (value === undefined) return current;
  const hops = value.split(",");
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = normalizeAddress(hops[i]!);
    // A malformed entry was written by whoever sent it to the last trusted proxy: stop there.
    if (isIP(hop) === 0) return current;
    current = hop;
    if (!proxies.has(hop)) return hop;
  }
  return current;
}

/** The key per-client limits use: the address itself for IPv4, the /64 prefix for IPv6. */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function expandIpv6(address: string): string[] {
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const parse = (part: string | undefined): string[] =>
    part === undefined || part === "" ? [] : part.split(":").flatMap(groupsOf);
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
}

/** One colon-separated part: a hex group, or an embedded IPv4 address (two groups). */
function groupsOf(part: string): string[] {
  if (!part.includes(".")) return [Number.parseInt(part, 16).toString(16)];
  const [a = 0, b = 0, c = 0, d = 0] = part.split(".").map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

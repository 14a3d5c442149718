/**
 * Network-free units of the per-client limits: address extraction behind trusted proxies, IPv6
 * grouping, token buckets and quotas, admission token files.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { parseTokenFile } from "../src/http/admission.js";
import { clientAddress, limitKey, normalizeAddress, TrustedProxies } from "../src/client-address.js";
import { ConfigError, parseCli } from "../src/config.js";
import { Quota, RateLimiter } from "../src/limits.js";

function fakeRequest(remoteAddress: string, forwarded?: string): IncomingMessage {
  const headers = forwarded === undefined ? {} : { "x-forwarded-for": forwarded };
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe("client address", () => {
  const proxies = new TrustedProxies(["10.0.0.0/8", "::1"]);

  it("is the TCP peer unless that peer is a trusted proxy", () => {
    expect(clientAddress(fakeRequest("192.0.2.9", "1.2.3.4"), proxies)).toBe("192.0.2.9");
    expect(clientAddress(fakeRequest("::ffff:10.1.2.3", "1.2.3.4"), proxies)).toBe("1.2.3.4");
    expect(clientAddress(fakeRequest("10.1.2.3"), proxies)).toBe("10.1.2.3");
  });

  it("walks X-Forwarded-For from the right past trusted proxies only", () => {
    expect(clientAddress(fakeRequest("10.0.0.1", "6.6.6.6, 1.2.3.4, 10.0.0.2"), proxies)).toBe("1.2.3.4");
    expect(clientAddress(fakeRequest("::1", "10.9.9.9"), proxies)).toBe("10.9.9.9");
    expect(clientAddress(fakeRequest("10.0.0.1", "garbage, 10.0.0.7"), proxies)).toBe("10.0.0.7");
    expect(clientAddress(fakeRequest("10.0.0.1", "not-an-ip"), proxies)).toBe("10.0.0.1");
  });

  it("groups IPv6 by /64 and normalizes mapped IPv4", () => {
    expect(limitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(limitKey("::1")).toBe("0:0:0:0::/64");
    expect(limitKey("192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("rejects malformed trusted proxy entries", () => {
    expect(() => new TrustedProxies(["10.0.0.0/33"])).toThrow(ConfigError);
    expect(() => new TrustedProxies(["proxy.example"])).toThrow(ConfigError);
    expect(parseCli(["--trusted-proxies", "10.0.0.1, 10.0.0.0/8"], {})).toEqual({
      help: false,
      options: { trustedProxies: ["10.0.0.1", "10.0.0.0/8"] },
    });
  });
});

describe("token buckets and quotas", () => {
  it("allows a burst, then the rate, with a Retry-After in seconds", () => {
    let now = 0;
    const limiter = new RateLimiter(60, 2, () => now);
    expect(limiter.take(["a"])).toBe(0);
    expect(limiter.take(["a"])).toBe(0);
    expect(limiter.take(["a"])).toBe(1);
    expect(limiter.take(["b"])).toBe(0);
    now += 1000;
    expect(limiter.take(["a"])).toBe(0);
    expect(limiter.take(["a"])).toBe(1);
    now += 10_000;
    limiter.sweep();
    expect(limiter.size).toBe(0);
  });

  it("takes all keys or none", () => {
    const limiter = new RateLimiter(1, 1, () => 0);
    expect(limiter.take(["x"])).toBe(0);
    expect(limiter.take(["y", "x"])).toBeGreaterThan(0);
    expect(limiter.take(["y"])).toBe(0);
    const quota = new Quota(1);
    expect(quota.acquire(["p", "q"])).toBe(true);
    expect(quota.acquire(["r", "q"])).toBe(false);
    expect(quota.held("r")).toBe(0);
    quota.release(["p", "q"]);
    expect(quota.acquire(["r", "q"])).toBe(true);
  });

  it("reads token files without comments or blank lines", () => {
    expect(parseTokenFile("# c\n a \r\n\nb\n#x\n")).toEqual(["a", "b"]);
  });
});

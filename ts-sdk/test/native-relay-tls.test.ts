/**
 * The addon's relay client over TLS and under a path prefix: a TLS-terminating reverse proxy in
 * front of a loopback relay serves it at `https://127.0.0.1:PORT/chorus/` with a certificate of a
 * private CA made for this test (Debian's `openssl`), trusted through `NODE_EXTRA_CA_CERTS` as Node
 * trusts it. A certificate of another issuer is refused with a `RelayError`, and with Node's
 * certificate checks switched off the session keeps the JavaScript connection, which obeys that.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:tls";
import type { RelayHandle } from "@chorus/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createRoom, RelayError } from "../src/index.js";
import { aes128Hex, loopbackRelay, rejectionOf, seededBytes, tinytableAes, within } from "./helpers.js";

const WAIT = 60_000;
const PREFIX = "/chorus/";
const secret = seededBytes(11, 32);
let relay: RelayHandle;
let dir: string;
const proxies: Server[] = [];

function openssl(...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
}

/** A key and a certificate for 127.0.0.1 signed by `ca` (or self-signed when `ca` is undefined). */
function serverCertificate(name: string, ca?: string): { key: Buffer; cert: Buffer } {
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n");
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=127.0.0.1");
  const signer = ca === undefined ? ["-signkey", `${name}.key`] : ["-CA", `${ca}.pem`, "-CAkey", `${ca}.key`, "-CAcreateserial"];
  openssl("x509", "-req", "-in", `${name}.csr`, ...signer, "-out", `${name}.pem`, "-days", "2", "-extfile", ext);
  return { key: readFileSync(join(dir, `${name}.key`)), cert: readFileSync(join(dir, `${name}.pem`)) };
}

/**
 * A TLS reverse proxy to the relay serving it under PREFIX: it strips the prefix from the request
 * line of each connection's first packet (the HTTP upgrade or request), then passes bytes through.
 */
async function tlsProxy(certificate: { key: Buffer; cert: Buffer }): Promise<string> {
  const { port } = new URL(relay.url);
  const server = createServer(certificate, (client) => {
    const upstream = tcpConnect(Number(port), "127.0.0.1");
    client.once("data", (first: Buffer) => {
      upstream.write(Buffer.from(first.toString("latin1").replace(` ${PREFIX}`, " /"), "latin1"));
      client.pipe(upstream).pipe(client);
    });
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop);
    upstream.on("error", drop);
  });
  proxies.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return `https://127.0.0.1:${address.port}${PREFIX}`;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "chorus-tls-"));
  writeFileSync(join(dir, "ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n");
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Chorus test CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
  // The addon reads it on its first TLS connection, as Node reads it at startup.
  process.env.NODE_EXTRA_CA_CERTS = join(dir, "ca.pem");
  relay = await loopbackRelay();
});

afterAll(async () => {
  for (const proxy of proxies) proxy.close();
  await relay.close();
  delete process.env.NODE_EXTRA_CA_CERTS;
  rmSync(dir, { recursive: true, force: true });
});

describe("the addon's relay client over TLS", () => {
  it("joins a wss:// relay under a path prefix, its certificate checked against NODE_EXTRA_CA_CERTS", { timeout: WAIT }, async () => {
    const url = await tlsProxy(serverCertificate("relay", "ca"));
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), relay: url, secret, runtime: "native" })));
    expect(sessions.map((s) => s.transport)).toEqual(["relay-addon", "relay-addon"]);
    const key = seededBytes(3, 16);
    const plaintext = seededBytes(4, 16);
    const results = await within(tinytableAes(sessions, key, plaintext), "the AES job over TLS", WAIT);
    for (const result of results) expect(result.ciphertextHex).toBe(aes128Hex(key, plaintext));
    await Promise.all(sessions.map((s) => s.close()));
  });

  it("refuses a relay whose certificate no trusted CA signed", { timeout: WAIT }, async () => {
    const url = await tlsProxy(serverCertificate("rogue"));
    const room = await createRoom({ relay: relay.url, parties: 2 });
    const error = await within(rejectionOf(connect({ ...room.invite(0), relay: url, secret, runtime: "native" })), "the refused join", WAIT);
    expect(error).toBeInstanceOf(RelayError);
    expect((error as RelayError).code).toBe("connect-failed");
    expect((error as Error).message).toMatch(/TLS.*certificate/i);
  });

  it("leaves TLS relays to the JavaScript connection when Node's certificate checks are off", { timeout: WAIT }, async () => {
    const url = await tlsProxy(serverCertificate("unchecked"));
    const room = await createRoom({ relay: relay.url, parties: 2 });
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    try {
      const sessions = await Promise.all([0, 1].map((slot) => connect({ ...room.invite(slot), relay: url, secret, runtime: "native" })));
      expect(sessions.map((s) => s.transport)).toEqual(["relay", "relay"]);
      const key = seededBytes(5, 16);
      const plaintext = seededBytes(6, 16);
      const results = await within(tinytableAes(sessions, key, plaintext), "the AES job", WAIT);
      for (const result of results) expect(result.ciphertextHex).toBe(aes128Hex(key, plaintext));
      await Promise.all(sessions.map((s) => s.close()));
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    }
  });
});

#!/usr/bin/env node
// A local relay cluster: N relay processes (instances r1..rN, each with its own port) behind
// HAProxy (Debian's haproxy) on one port. Room ids carry their instance's prefix (`r2.…`), so
// HAProxy routes every WebSocket join by the `room` query parameter to the instance holding the
// room; `POST /rooms` is balanced round-robin over the instances that pass their health check;
// `/instances/rK/metrics` and `/instances/rK/healthz` reach instance K's own endpoints.
// The relays trust HAProxy's X-Forwarded-For (`--trusted-proxies 127.0.0.1`), so per-client
// limits see the client's address.
//
// Usage: node scripts/relay-cluster.mjs N [--port 8787] [--host 127.0.0.1] [-- <relay flags>]
// (scripts/relay-cluster.sh installs haproxy and builds the relay first.)
// Prints one JSON line once everything listens:
//   {"event":"cluster","url":"http://127.0.0.1:8787","haproxy":{"pid":…},
//    "instances":[{"id":"r1","url":"http://127.0.0.1:…","pid":…},…],"config":"<path>"}
// then runs until SIGINT/SIGTERM, which stops HAProxy and every relay. If a relay or HAProxy
// exits on its own, it prints {"event":"exited",…} and keeps the rest running.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const relayFlags = split === -1 ? [] : process.argv.slice(split + 1);
const { values, positionals } = parseArgs({
  args: own,
  allowPositionals: true,
  options: { port: { type: 'string', default: '8787' }, host: { type: 'string', default: '127.0.0.1' } },
});
const count = Number(positionals[0] ?? 3);
if (!Number.isInteger(count) || count < 1 || count > 64) {
  console.error('usage: relay-cluster.mjs N [--port P] [--host H] [-- <relay flags>]   (N in 1..64)');
  process.exit(2);
}
const emit = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/**
 * The HAProxy configuration for instances `[{ id, host, port }]` behind `bind` (`host:port`).
 * Timeouts: WebSocket connections are tunnels once upgraded (`timeout tunnel`), kept open for as
 * long as a session runs; the relay's own heartbeat and idle timeout end dead ones.
 */
export function haproxyConfig(bind, instances) {
  const lines = [
    'global',
    '  maxconn 8000',
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch',
    '  retries 2',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout http-request 10s',
    '',
    'frontend chorus',
    `  bind ${bind}`,
    ...instances.flatMap(({ id }) => [
      `  acl room_${id} urlp(room) -m beg ${id}.`,
      `  acl instance_${id} path_beg /instances/${id}/`,
    ]),
    ...instances.flatMap(({ id }) => [
      `  use_backend relay_${id} if room_${id}`,
      `  use_backend relay_${id} if instance_${id}`,
    ]),
    '  default_backend relays',
    '',
    'backend relays',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    ...instances.map(({ id, host, port }) => `  server ${id} ${host}:${port} check inter 500 fall 2 rise 1`),
    '',
    ...instances.flatMap(({ id, host, port }) => [
      `backend relay_${id}`,
      `  http-request replace-path /instances/${id}(/.*) \\1`,
      `  server ${id} ${host}:${port}`,
      '',
    ]),
  ];
  return lines.join('\n');
}

/** A free TCP port on `host`. */
function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts relay instance `id`; resolves with its `listening` line. */
function startRelay(id, host, port) {
  const child = spawn(process.execPath, [
    join(root, 'server/dist/cli.js'), '--host', host, '--port', String(port), '--instance', id,
    '--trusted-proxies', host, '--log-level', 'warn', ...relayFlags,
  ], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line === undefined) return;
      child.stdout.off('data', onData);
      resolve({ id, child, ...JSON.parse(line) });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay ${id} exited with ${code} before listening`)));
  });
}

/** Resolves once `url` answers HTTP 200 (or rejects after `ms`). */
async function until200(url, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

try {
  execFileSync('haproxy', ['-v'], { stdio: 'ignore' });
} catch {
  console.error('relay-cluster: haproxy is not installed (scripts/relay-cluster.sh installs Debian\'s haproxy)');
  process.exit(1);
}
const host = values.host;
const relays = [];
for (let i = 1; i <= count; i += 1) relays.push(await startRelay(`r${i}`, host, await freePort(host)));
const dir = mkdtempSync(join(tmpdir(), 'chorus-cluster-'));
const config = join(dir, 'haproxy.cfg');
const bindHost = host.includes(':') ? `[${host}]` : host;
writeFileSync(config, haproxyConfig(`${bindHost}:${values.port}`, relays.map((r) => ({ id: r.id, host: bindHost, port: r.port }))));
const haproxy = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'inherit', 'inherit'] });
const url = `http://${bindHost}:${values.port}`;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  haproxy.kill('SIGTERM');
  for (const relay of relays) relay.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  setTimeout(() => process.exit(0), 500).unref();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
haproxy.once('exit', (code) => {
  emit({ event: 'exited', what: 'haproxy', code });
  if (!stopping) stop();
});
for (const relay of relays) relay.child.once('exit', (code) => emit({ event: 'exited', what: relay.id, code }));
try {
  await until200(`${url}/healthz`, 10_000);
  for (const relay of relays) await until200(`${url}/instances/${relay.id}/healthz`, 10_000);
} catch (error) {
  console.error(`relay-cluster: ${error.message}`);
  stop();
  process.exitCode = 1;
}
if (!stopping) {
  emit({
    event: 'cluster', url, haproxy: { pid: haproxy.pid }, config,
    instances: relays.map((r) => ({ id: r.id, url: r.url, pid: r.child.pid })),
  });
}

/**
 * Scale-out behind a real load balancer: three relay processes behind HAProxy
 * (`scripts/relay-cluster.mjs`, Debian's haproxy). Rooms created through HAProxy land on every
 * instance and carry its prefix; three-party AES jobs through it are correct; each instance's
 * `/metrics` is reachable through HAProxy; and when one instance dies, only its rooms' sessions
 * fail, with a typed error, while jobs in the other instances' rooms finish.
 * Skipped (with a notice) only when haproxy is not installed and CHORUS_REQUIRE_HAPROXY is unset;
 * `scripts/test.sh` installs it and sets that variable.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { connect, createRoom, RelayError, type AesOptions, type Session } from "@chorus/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIPS_CIPHERTEXT,
  FIPS_KEY,
  FIPS_PLAINTEXT,
  freshSecret,
  fromHex,
  GENEROUS_LIMIT_ARGS,
  REPO,
  settle,
  within,
  xor,
} from "./relay-process.js";
import { closeAll } from "./three-parties.js";

const haveHaproxy = (() => {
  try {
    execFileSync("haproxy", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!haveHaproxy && process.env.CHORUS_REQUIRE_HAPROXY) throw new Error("haproxy is required (scripts/test.sh installs it)");
if (!haveHaproxy) console.warn("[relay-cluster] haproxy is not installed: skipping the cluster tests");

interface Cluster {
  url: string;
  instances: Array<{ id: string; url: string; pid: number }>;
}

let child: ChildProcess | undefined;
let cluster: Cluster;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  if (!haveHaproxy) return;
  const port = await freePort();
  child = spawn(
    process.execPath,
    ["scripts/relay-cluster.mjs", "3", "--port", String(port), "--", ...GENEROUS_LIMIT_ARGS, "--resume-grace-ms", "1500"],
    { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] },
  );
  cluster = await within(
    new Promise<Cluster>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).on("line", (line) => {
        const message = JSON.parse(line) as { event: string } & Cluster;
        if (message.event === "cluster") resolve(message);
      });
      child!.once("exit", (code) => reject(new Error(`relay-cluster exited with ${code}`)));
    }),
    "the cluster to listen",
    20_000,
  );
});

afterAll(async () => {
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child!.once("exit", resolve));
  child.kill("SIGTERM");
  await within(exited, "the cluster to stop", 10_000);
});

async function metric(instance: string, name: string): Promise<number> {
  const text = await (await fetch(`${cluster.url}/instances/${instance}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? NaN);
}

/**
 * Three SDK parties of a fresh room through HAProxy, and their AES options: XOR key shares and
 * FIPS-197's plaintext `blocks` times.
 */
async function threeParties(blocks = 1): Promise<{ room: string; sessions: Session[]; options: AesOptions[] }> {
  const room = await createRoom({ relay: cluster.url, parties: 3 });
  const secret = freshSecret();
  const sessions = await Promise.all([0, 1, 2].map((slot) => connect({ ...room.invite(slot), secret })));
  const share0 = crypto.getRandomValues(new Uint8Array(16));
  const options: AesOptions[] = [
    { key: share0, blocks },
    { key: xor(fromHex(FIPS_KEY), share0), blocks },
    { plaintext: FIPS_PLAINTEXT.repeat(blocks), blocks },
  ];
  return { room: room.room, sessions, options };
}

describe.skipIf(!haveHaproxy)("relay cluster behind HAProxy", () => {
  it("balances 300 room creations over the three instances, each room id naming its instance", async () => {
    const created: string[] = [];
    for (let i = 0; i < 300; i += 30) {
      const batch = await Promise.all(
        Array.from({ length: 30 }, async () => {
          const response = await fetch(`${cluster.url}/rooms`, { method: "POST", body: '{"parties":2}' });
          expect(response.status).toBe(201);
          return ((await response.json()) as { room: string }).room;
        }),
      );
      created.push(...batch);
    }
    const perInstance = new Map<string, number>();
    for (const room of created) {
      const [instance] = room.split(".");
      perInstance.set(instance!, (perInstance.get(instance!) ?? 0) + 1);
    }
    expect([...perInstance.keys()].sort()).toEqual(["r1", "r2", "r3"]);
    for (const [, rooms] of perInstance) expect(rooms).toBeGreaterThanOrEqual(50);
    // Every instance's own /metrics counts what it created, reached through HAProxy.
    let total = 0;
    for (const { id } of cluster.instances) total += await metric(id, "chorus_relay_rooms_created_total");
    expect(total).toBe(300);
    const health = (await (await fetch(`${cluster.url}/instances/r2/healthz`)).json()) as { instance: string };
    expect(health.instance).toBe("r2");
  }, 60_000);

  it("runs 30 three-party AES jobs through HAProxy, every party getting FIPS-197's ciphertext", async () => {
    const rooms: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const jobs = await Promise.all(Array.from({ length: 5 }, () => threeParties()));
      const results = await within(
        Promise.all(jobs.map(({ sessions, options }) => Promise.all(sessions.map((s, slot) => s.aes(options[slot]!))))),
        `round ${round} of AES jobs`,
        60_000,
      );
      for (const parties of results) for (const result of parties) expect(result.ciphertextHex).toBe(FIPS_CIPHERTEXT);
      for (const job of jobs) {
        rooms.push(job.room);
        await closeAll(job.sessions);
      }
    }
    expect(new Set(rooms.map((room) => room.split(".")[0])).size).toBe(3);
  }, 180_000);

  it("when one instance dies, only its rooms fail (typed errors) and jobs in the others finish", async () => {
    // Rooms on every instance, each with its three parties connected.
    const jobs: Array<Awaited<ReturnType<typeof threeParties>>> = [];
    while (new Set(jobs.map((job) => job.room.split(".")[0])).size < 3 || jobs.length < 6) jobs.push(await threeParties(64));
    const victim = cluster.instances.find((instance) => instance.id === "r1")!;
    const running = jobs.map(({ sessions, options }) => sessions.map((s, slot) => settle(s.aes(options[slot]!))));
    process.kill(victim.pid, "SIGKILL");
    const outcomes = await within(Promise.all(running.map((parties) => Promise.all(parties))), "every job to settle", 30_000);
    jobs.forEach((job, index) => {
      const onVictim = job.room.startsWith("r1.");
      for (const outcome of outcomes[index]!) {
        if (onVictim) {
          expect(outcome.ok, `a party of ${job.room}`).toBe(false);
          // The relay holding the room is gone: each party's connection drops and no resume is
          // possible within the grace period.
          if (!outcome.ok) expect(outcome.error).toBeInstanceOf(RelayError);
        } else {
          expect(outcome.ok, `a party of ${job.room}`).toBe(true);
          if (outcome.ok) expect(outcome.value.ciphertextHex).toBe(FIPS_CIPHERTEXT.repeat(64));
        }
      }
    });
    for (const job of jobs) await closeAll(job.sessions);
    // The surviving instances still create rooms through HAProxy (its health check took r1 out).
    const after = await fetch(`${cluster.url}/rooms`, { method: "POST", body: '{"parties":2}' });
    expect(after.status).toBe(201);
    expect(((await after.json()) as { room: string }).room).toMatch(/^r[23]\./);
  }, 90_000);
});

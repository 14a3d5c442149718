/**
 * Test helpers: the relay as a real process (`node server/dist/cli.js --port 0` on loopback), the
 * FIPS-197 values, bounded waits, and an AES reference from Node's crypto.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createCipheriv, randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const RELAY_CLI = fileURLToPath(new URL("../../server/dist/cli.js", import.meta.url));

/** FIPS-197 Appendix C.1: key, plaintext, ciphertext. */
export const FIPS_KEY = "000102030405060708090a0b0c0d0e0f";
export const FIPS_PLAINTEXT = "00112233445566778899aabbccddeeff";
export const FIPS_CIPHERTEXT = "69c4e0d86a7b0430d8cdb78070b4c55a";

/** A relay process and its addresses. */
export interface RelayProcess {
  url: string;
  ws: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Per-address limits far above what a test file needs: every test party shares 127.0.0.1, which the
 * relay's defaults would treat as one busy client. Later flags win, so `extraArgs` can lower them.
 */
export const GENEROUS_LIMIT_ARGS = [
  "--room-rate", "100000", "--room-burst", "10000",
  "--upgrade-rate", "1000000", "--upgrade-burst", "100000",
  "--max-pending-rooms", "10000", "--max-connections-per-address", "100000",
];

/** Starts the relay CLI on 127.0.0.1 with a free port; resolves with its `listening` line. */
export async function startRelayProcess(extraArgs: string[] = []): Promise<RelayProcess> {
  const args = [RELAY_CLI, "--host", "127.0.0.1", "--port", "0", ...GENEROUS_LIMIT_ARGS, ...extraArgs];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await within(
    new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`relay exited with ${code}: ${stderr}`)));
    }),
    "the relay's listening line",
    10_000,
  );
  const info = JSON.parse(line) as { event: string; url: string; ws: string; port: number };
  if (info.event !== "listening") throw new Error(`unexpected relay line: ${line}`);
  return {
    ...info,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** Rejects if `promise` does not settle within `ms`. */
export function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The settled outcome of a promise, for asserting on several parties at once. */
export async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/** AES-128-ECB of `plaintext` under `key` with Node's crypto (the reference). */
export function referenceAes(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const cipher = createCipheriv("aes-128-ecb", key, null);
  cipher.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([cipher.update(plaintext), cipher.final()]));
}

/** XOR of two equal-length byte strings. */
export function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.map((x, i) => x ^ (b[i] as number));
}

/** A fresh 32-byte session secret as hex. */
export function freshSecret(): string {
  return randomBytes(32).toString("hex");
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "hex"));
}

/** Runs parties as separate Node processes (`fixtures/party.mjs`) and collects their JSON lines. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { within } from "./relay-process.js";

export const PARTY_SCRIPT = fileURLToPath(new URL("../fixtures/party.mjs", import.meta.url));

/** What a party process printed. */
export interface PartyOutcome {
  ok: boolean;
  slot?: number;
  ciphertextHex?: string;
  roundsStats?: { bytesSent: number; rounds: number };
  name?: string;
  code?: string;
  message?: string;
  /** The core the job ran on. */
  runtime?: string;
  /** What the process printed on stderr. */
  stderr?: string;
}

/** Runs `script` with `args` (JSON) in `cwd`; resolves with its JSON line, bounded by `ms`. */
export function runParty(script: string, args: unknown, cwd: string, ms = 60_000): Promise<PartyOutcome> {
  const child = spawn(process.execPath, [script, JSON.stringify(args)], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<PartyOutcome>((resolve, reject) => {
    // "close", not "exit": only "close" comes after the child's stdout has been read to its end.
    child.once("close", () => {
      const line = stdout.trim().split("\n").at(-1) ?? "";
      try {
        resolve({ ...(JSON.parse(line) as PartyOutcome), stderr });
      } catch {
        reject(new Error(`party printed no result: stdout=${stdout} stderr=${stderr}`));
      }
    });
  });
  return within(done, `party process ${script}`, ms).finally(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
}

#!/usr/bin/env node
/**
 * `chorus-relay` command: parses flags and environment, starts the relay, prints one JSON line
 * `{"event":"listening",...}` on stdout, and shuts down gracefully on SIGTERM or SIGINT (exit 0).
 */
import { ConfigError, parseCli } from "./config.js";
import { startRelay } from "./relay.js";

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`chorus-relay: ${(error as Error).message}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${parsed.usage}\n`);
    return 0;
  }
  let relay;
  try {
    relay = await startRelay(parsed.options);
  } catch (error) {
    const known = error instanceof ConfigError || (error as NodeJS.ErrnoException).code !== undefined;
    process.stderr.write(`chorus-relay: ${known ? (error as Error).message : String(error)}\n`);
    return 2;
  }
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url: relay.url, ws: relay.wsUrl, port: relay.port })}\n`,
  );
  const shutdown = (signal: NodeJS.Signals): void => {
    process.stderr.write(`chorus-relay: ${signal}, shutting down\n`);
    relay
      .close()
      .then(() => {
        process.stdout.write(`${JSON.stringify({ event: "closed" })}\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(`chorus-relay: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      });
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  return -1;
}

main().then((code) => {
  if (code >= 0) process.exitCode = code;
});

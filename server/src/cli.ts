#!/usr/bin/env node
/**
 * `chorus-relay` command: parses flags and environment, starts the relay, prints one JSON line
 * `{"event":"listening",...}` on stdout, and shuts down gracefully on SIGTERM or SIGINT (exit 0).
 * Usage errors and startup failures (bad option, port in use) print to stderr and exit 2.
 */
import { parseCli } from "./config.js";
import { startRelay, type RelayHandle } from "./relay.js";

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`chorus-relay: ${message}\n`);
  process.exitCode = 2;
}

function shutDownOnSignals(relay: RelayHandle): void {
  const shutdown = (signal: NodeJS.Signals): void => {
    process.stderr.write(`chorus-relay: ${signal}, shutting down\n`);
    relay.close().then(
      () => {
        process.stdout.write(`${JSON.stringify({ event: "closed" })}\n`);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`chorus-relay: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  // SIGHUP: re-read the admission token file now (it is also re-read whenever it changes).
  process.on("SIGHUP", () => void relay.reloadAdmissionTokens());
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    return fail(error);
  }
  if (parsed.help) {
    process.stdout.write(`${parsed.usage}\n`);
    return;
  }
  let relay;
  try {
    relay = await startRelay({ logLevel: "info", ...parsed.options });
  } catch (error) {
    return fail(error);
  }
  shutDownOnSignals(relay);
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url: relay.url, ws: relay.wsUrl, port: relay.port })}\n`,
  );
}

void main();

/**
 * Structured logs: one JSON object per line, `{"time","level","event",...fields}`, written to
 * stderr (stdout carries the CLI's `listening`/`closed` lines for scripts).
 *
 * Call sites pass only counts, codes, slots, room ids and client addresses. Tokens, admission
 * credentials, URLs (which carry tokens) and payloads are never handed to the logger; as a second
 * line of defence, fields whose name suggests a secret are dropped here.
 */
import type { LogLevel } from "./config.js";

/** Values a log field may take. */
export type LogValue = string | number | boolean | null | undefined | number[];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const SECRET_FIELD = /token|secret|authorization|password|payload|url/i;

/** Where log lines go; `process.stderr` unless a test captures them. */
export type LogSink = (line: string) => void;

/** A levelled JSON-lines logger. */
export class Logger {
  private readonly threshold: number;

  constructor(
    level: LogLevel,
    private readonly sink: LogSink = (line) => process.stderr.write(line),
  ) {
    this.threshold = RANK[level];
  }

  /** Whether `level` is logged (to skip building fields for dropped lines). */
  enabled(level: Exclude<LogLevel, "silent">): boolean {
    return RANK[level] >= this.threshold;
  }

  debug(event: string, fields: Record<string, LogValue> = {}): void {
    this.write("debug", event, fields);
  }

  info(event: string, fields: Record<string, LogValue> = {}): void {
    this.write("info", event, fields);
  }

  warn(event: string, fields: Record<string, LogValue> = {}): void {
    this.write("warn", event, fields);
  }

  error(event: string, fields: Record<string, LogValue> = {}): void {
    this.write("error", event, fields);
  }

  private write(level: Exclude<LogLevel, "silent">, event: string, fields: Record<string, LogValue>): void {
    if (RANK[level] < this.threshold) return;
    const line: Record<string, LogValue> = { time: new Date().toISOString(), level, event };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined && !SECRET_FIELD.test(key)) line[key] = value;
    }
    try {
      this.sink(`${JSON.stringify(line)}\n`);
    } catch {
      // A closed stderr must not take the relay down.
    }
  }
}

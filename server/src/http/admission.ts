/**
 * Admission tokens: optional bearer credentials an operator can require for `POST /rooms`.
 *
 * Tokens come from the configuration (`admissionTokens`) and from a file (`admissionTokensFile`,
 * one token per line, blank lines and `#` comments ignored). Before each check the relay looks at
 * the file's modification time, size and inode and re-reads it when any changed, so rotating is:
 * write the new file (add the new token, later remove the old one) — no restart, no signal.
 * `reload()` forces a re-read (the CLI calls it on SIGHUP). If the file cannot be read or holds no
 * token, the relay keeps the tokens it had and logs a warning (failing closed: with none ever
 * loaded, every request is refused).
 *
 * Only SHA-256 digests are kept, and every presented token is compared with every digest in
 * constant time.
 */
import { readFile, stat } from "node:fs/promises";
import type { Logger } from "../log.js";
import { tokenDigest } from "../tokens.js";
import { timingSafeEqual } from "node:crypto";

/** Outcome of an admission check. */
export type Admission =
  | { ok: true; credential: string | undefined }
  | { ok: false; code: "admission-required" | "bad-admission-token" };

/** The admission policy of one relay. */
export class AdmissionTokens {
  private fileDigests: Buffer[] = [];
  private readonly staticDigests: Buffer[];
  private fileVersion = "";
  private loading: Promise<void> | undefined;

  constructor(
    tokens: string[],
    private readonly file: string | undefined,
    private readonly log: Logger,
  ) {
    this.staticDigests = tokens.map(tokenDigest);
  }

  /** Whether room creation needs a token at all. */
  get required(): boolean {
    return this.file !== undefined || this.staticDigests.length > 0;
  }

  /** Loads the file now (startup, SIGHUP); resolves once done. Never throws. */
  reload(): Promise<void> {
    this.fileVersion = "";
    return this.refresh();
  }

  /**
   * Checks the `Authorization` header of a request. `credential` is a short stable id of the
   * token used (a digest prefix, never the token), for per-credential limits.
   */
  async check(authorization: string | undefined): Promise<Admission> {
    if (!this.required) return { ok: true, credential: undefined };
    await this.refresh();
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? "");
    if (match === null) return { ok: false, code: "admission-required" };
    const presented = tokenDigest(match[1]!);
    let found: Buffer | undefined;
    // Compare with every digest, so the time taken does not tell which one matched.
    for (const digest of [...this.staticDigests, ...this.fileDigests]) {
      if (timingSafeEqual(presented, digest) && found === undefined) found = digest;
    }
    if (found === undefined) return { ok: false, code: "bad-admission-token" };
    return { ok: true, credential: `cred:${found.subarray(0, 8).toString("hex")}` };
  }

  /** Re-reads the file if it changed since the last read; concurrent callers share one read. */
  private refresh(): Promise<void> {
    if (this.file === undefined) return Promise.resolve();
    this.loading ??= this.readIfChanged(this.file).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async readIfChanged(file: string): Promise<void> {
    try {
      const info = await stat(file);
      const version = `${info.mtimeMs}:${info.size}:${info.ino}`;
      if (version === this.fileVersion) return;
      const tokens = parseTokenFile(await readFile(file, "utf8"));
      this.fileVersion = version;
      if (tokens.length === 0) {
        this.log.warn("admission-tokens-empty", { tokens: 0 });
        return;
      }
      this.fileDigests = tokens.map(tokenDigest);
      this.log.info("admission-tokens-loaded", { tokens: tokens.length });
    } catch (error) {
      this.log.warn("admission-tokens-unreadable", { error: (error as NodeJS.ErrnoException).code ?? "read-failed" });
    }
  }
}

/** The tokens of an admission token file. */
export function parseTokenFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

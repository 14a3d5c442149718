/**
 * Static file serving for `--static <dir>` (the browser demo). GET and HEAD only; `/` and
 * directories map to `index.html`. Any `..` path segment (after percent-decoding), a NUL byte, or a
 * symbolic link leading outside the root is refused, so no request reads outside the directory.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".htm": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** Content type for a file name; unknown extensions are served as opaque bytes. */
export function contentTypeFor(fileName: string): string {
  return CONTENT_TYPES[path.extname(fileName).toLowerCase()] ?? "application/octet-stream";
}

/** Outcome of mapping a request path onto the root, before touching the file system. */
type Resolved = { ok: true; file: string } | { ok: false; status: number; message: string };

/** Maps the raw request target (path and query) to a file path under `root`, or refuses it. */
export function resolveStaticPath(root: string, target: string): Resolved {
  const rawPath = target.split("?", 1)[0]!.split("#", 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, status: 400, message: "malformed percent-encoding in path" };
  }
  if (!decoded.startsWith("/") || decoded.includes("\0")) {
    return { ok: false, status: 400, message: "malformed path" };
  }
  const segments = decoded.split(/[/\\]/);
  if (segments.some((segment) => segment === "..")) {
    return { ok: false, status: 400, message: "path may not contain '..' segments" };
  }
  const file = path.resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(root + path.sep)) {
    return { ok: false, status: 400, message: "path escapes the static root" };
  }
  return { ok: true, file };
}

/** Serves one request from `root` (which must be a real path, as from `fs.realpath`). */
export async function serveStatic(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  fail: (status: number, message: string) => void,
): Promise<void> {
  const resolved = resolveStaticPath(root, req.url ?? "/");
  if (!resolved.ok) return fail(resolved.status, resolved.message);
  let file = resolved.file;
  try {
    if ((await stat(file)).isDirectory()) file = path.join(file, "index.html");
    // Resolve symbolic links and check again that the target is inside the root.
    file = await realpath(file);
    if (!file.startsWith(root + path.sep)) return fail(404, "not found");
    const info = await stat(file);
    if (!info.isFile()) return fail(404, "not found");
    res.writeHead(200, {
      "Content-Type": contentTypeFor(file),
      "Content-Length": info.size,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-cache",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await pipeline(createReadStream(file), res);
  } catch (error) {
    if (res.headersSent) {
      res.destroy(error as Error);
      return;
    }
    fail(404, "not found");
  }
}

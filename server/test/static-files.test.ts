/**
 * `--static` serving: content types, index files, and refusal of every path that would leave the
 * root (dot-dot segments in raw, percent-encoded and backslash forms; symbolic links).
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../src/config.js";
import { startRelay, type RelayHandle } from "../src/relay.js";
import { resolveStaticPath } from "../src/http/static-files.js";

const SECRET = "outside-the-root-secret";
let base: string;
let relay: RelayHandle;

/** GET with the request target sent byte for byte (fetch would normalise dot segments). */
function rawGet(target: string, method = "GET"): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: relay.port, path: target, method },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "chorus-static-"));
  const root = path.join(base, "site");
  await mkdir(path.join(root, "pkg"), { recursive: true });
  await writeFile(path.join(base, "secret.txt"), SECRET);
  await writeFile(path.join(root, "index.html"), "<!doctype html><title>demo</title>");
  await writeFile(path.join(root, "app.js"), "export const x = 1;");
  await writeFile(path.join(root, "pkg", "index.html"), "pkg index");
  await writeFile(path.join(root, "pkg", "core_bg.wasm"), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  await writeFile(path.join(root, "style.css"), "body{}");
  await symlink(path.join(base, "secret.txt"), path.join(root, "link.txt"));
  relay = await startRelay({ host: "127.0.0.1", port: 0, staticDir: root });
});

afterAll(async () => {
  await relay.close();
  await rm(base, { recursive: true, force: true });
});

describe("static files", () => {
  it("serves files with their content types", async () => {
    const cases: [string, string, string | null][] = [
      ["/", "text/html", "<!doctype html><title>demo</title>"],
      ["/index.html", "text/html", "<!doctype html><title>demo</title>"],
      ["/app.js", "text/javascript", "export const x = 1;"],
      ["/style.css", "text/css", "body{}"],
      ["/pkg/", "text/html", "pkg index"],
      ["/pkg/core_bg.wasm", "application/wasm", null],
      ["/app.js?v=3", "text/javascript", "export const x = 1;"],
    ];
    for (const [target, type, body] of cases) {
      const response = await rawGet(target);
      expect(response.status, target).toBe(200);
      expect(response.type, target).toContain(type);
      if (body !== null) expect(response.body, target).toBe(body);
    }
    const head = await rawGet("/app.js", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("still routes the API next to the static files", async () => {
    const response = await fetch(`${relay.url}/healthz`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe("ok");
  });

  it("returns 404 for missing files", async () => {
    expect((await rawGet("/missing.js")).status).toBe(404);
  });

  it("refuses traversal in every encoding without leaking the file", async () => {
    const attempts = [
      "/../secret.txt",
      "/pkg/../../secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E%2Fsecret.txt",
      "/pkg/..%5c..%5csecret.txt",
      "/..\\secret.txt",
      "/%00secret.txt",
      "/%zz",
      "/link.txt",
    ];
    for (const target of attempts) {
      const response = await rawGet(target);
      expect(response.status, target).toBeGreaterThanOrEqual(400);
      expect(response.status, target).toBeLessThan(500);
      expect(response.body, target).not.toContain(SECRET);
    }
  });

  it("maps paths under the root and refuses dot-dot segments", () => {
    expect(resolveStaticPath("/srv/site", "/a/b.js")).toEqual({ ok: true, file: "/srv/site/a/b.js" });
    expect(resolveStaticPath("/srv/site", "/a/../b.js").ok).toBe(false);
    expect(resolveStaticPath("/srv/site", "/a%2f..%2f..%2fetc").ok).toBe(false);
    expect(resolveStaticPath("/srv/site", "relative").ok).toBe(false);
  });

  it("rejects a static directory that does not exist", async () => {
    await expect(startRelay({ port: 0, staticDir: path.join(base, "nope") })).rejects.toBeInstanceOf(ConfigError);
  });
});

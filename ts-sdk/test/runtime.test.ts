/**
 * Choosing the runtime when the native addon is unusable: `@chorus/node` is replaced by a module
 * without the addon's exports, as a stale or foreign build would be.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadRuntime } from "../src/index.js";

vi.mock("@chorus/node", () => ({ Bridge: undefined, version: () => "0.0.0" }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe("runtime selection without a usable addon", () => {
  it("'native' rejects with a ConfigError on runtime saying why", async () => {
    const error = await loadRuntime("native").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ field: "runtime" });
    expect((error as Error).message).toContain("@chorus/node cannot be used");
    expect((error as Error).message).toContain("@chorus/node has no Bridge export");
  });

  it("'auto' falls back to WASM with one one-line notice", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect((await loadRuntime("auto")).name).toBe("wasm");
    expect((await loadRuntime()).name).toBe("wasm");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^chorus: using the WASM core; .*has no Bridge export\)$/);
    expect((await loadRuntime("wasm")).name).toBe("wasm");
  });

  it("an unknown runtime is a ConfigError naming the choices", async () => {
    await expect(loadRuntime("gpu" as never)).rejects.toMatchObject({ field: "runtime", message: expect.stringContaining("'auto', 'native' or 'wasm'") });
  });
});

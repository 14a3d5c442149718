import { defineConfig } from "vitest/config";

// The end-to-end tests start relay processes and child processes; each file runs alone so that
// timings stay predictable on small machines.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    fileParallelism: false,
  },
});

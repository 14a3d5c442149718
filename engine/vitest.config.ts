import { defineConfig } from "vitest/config";

// Engine sessions of both parties run in this process; files run one at a time so timings and
// the two cores stay predictable.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    fileParallelism: false,
  },
});

import { defineConfig } from "vitest/config";

// Browser end-to-end tests: one Chromium session, tests in order, generous timeouts (2 cores).
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["e2e/**/*.e2e.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: "forks",
  },
});

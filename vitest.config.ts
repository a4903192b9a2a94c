import { defineConfig } from "vitest/config";

// One root test run covers every package. Browser end-to-end tests (apps/desktop/e2e) run
// separately through `pnpm test:e2e` because they need a built renderer and Chromium.
export default defineConfig({
  test: {
    include: [
      "packages/**/test/**/*.test.ts",
      "apps/**/test/**/*.test.ts",
      "examples/**/test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});

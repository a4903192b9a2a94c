import { defineConfig } from "vitest/config";
import { TEST_CACHE_HOME, TEST_SIGLAB_HOME } from "./apps/cli/test/test-cache-dir.js";

// One root test run covers every package, as projects that can also run alone
// (`npx vitest run --project core`). Browser end-to-end tests (apps/desktop/e2e) run separately
// through `pnpm test:e2e` because they need a built renderer and Chromium.
const project = (name: string, include: string[], more: { maxWorkers?: number; sequence?: { groupOrder: number }; globalSetup?: string[]; isolate?: boolean } = {}) => ({
  extends: true as const,
  test: { name, include, ...more },
});

const BUILT_CLI = "apps/cli/test/built-cli.setup.ts";

// The in-process projects share one module graph per worker (isolate: false): importing the
// simulator again for every file cost about 2 s per file (core: 51 s -> 13 s). Their tests touch no
// globals and mock no modules; desktop (a recording electron mock), cli and security (which spawn
// processes and test hardening) keep a fresh module graph per file.
const SHARED = { isolate: false };

export default defineConfig({
  test: {
    // no test touches the user's cache folder; runs go uncached unless a test asks (result-cache tests),
    // so that comparing two runs compares two simulations; no progress lines in their stderr (SIGLAB_QUIET);
    // nor the user's $SIGLAB_HOME (installed plugins, trusted bundles, profiles): tests that need one set their own
    env: { XDG_CACHE_HOME: TEST_CACHE_HOME, SIGLAB_HOME: TEST_SIGLAB_HOME, SIGLAB_CACHE_DIR: "", SIGLAB_NO_CACHE: "1", SIGLAB_QUIET: "1" },
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default is one worker per core minus one: a single worker on a 2-core CI machine,
    // where most test files wait on host and CLI processes. Two keep both cores busy.
    maxWorkers: 2,
    projects: [
      // each project keeps the old single-run globs (`packages/**/test/**`, `apps/**/test/**`,
      // `examples/**/test/**`) for its own part of the tree, so no test file moves out of `pnpm test`
      project("core", ["packages/core/**/test/**/*.test.ts"], SHARED),
      project("profiles", ["packages/cpu-profiles/**/test/**/*.test.ts"], SHARED),
      project("calibration", ["packages/calibration/**/test/**/*.test.ts"], SHARED),
      // built-in plugins, any other package (builtin-plugins, plugin-api, ...) and the shipped examples
      project("plugins", ["packages/plugins/**/test/**/*.test.ts", "packages/!(core|cpu-profiles|calibration|plugins)/**/test/**/*.test.ts", "examples/**/test/**/*.test.ts"], SHARED),
      // the cli and security projects spawn the CLI: the bundle, fresh for the run (inject("siglabBin"))
      project("cli", ["apps/!(desktop)/**/test/**/*.test.ts"], { globalSetup: [BUILT_CLI] }),
      project("desktop", ["apps/desktop/**/test/**/*.test.ts"]),
      // the attack corpus against the execution host (security/): its files mostly wait on host
      // and CLI processes, so they run side by side even on two cores
      project("security", ["security/**/*.test.ts"], { maxWorkers: 3, sequence: { groupOrder: 1 }, globalSetup: [BUILT_CLI] }),
    ],
  },
});

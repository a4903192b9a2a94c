/**
 * The cache folder of a test run (vitest.config.ts points XDG_CACHE_HOME here for every test, and
 * built-cli.setup.ts removes it at the end): no test reads or writes the user's cache folder.
 * Keyed by vitest's main process, where both are evaluated.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TEST_CACHE_HOME = join(tmpdir(), `siglab-test-cache-${process.pid}`);

/** $SIGLAB_HOME of a test run: the user's installed plugins, consents and profiles are never read. */
export const TEST_SIGLAB_HOME = join(TEST_CACHE_HOME, "siglab-home");

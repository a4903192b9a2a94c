/**
 * vitest globalSetup (projects cli and security): makes sure the installable CLI bundle
 * (apps/cli/dist/siglab.mjs, what bin/siglab.mjs and `pnpm siglab` run) is built from the current
 * sources — rebuilt only when a file it was built from changed (scripts/fresh.mjs), so a fresh
 * machine builds it once per run and a developer's warm checkout not at all — and provides its
 * path as `inject("siglabBin")`. Tests that exercise what the CLI does (exit codes, output, its
 * host processes) spawn `node <siglabBin>`, or `pnpm siglab`, which finds the same bundle fresh.
 *
 * Both projects may run in one vitest process: the check is shared through globalThis (a global
 * setup runs in vitest's main process). The last project to end removes the run's cache folder
 * (test-cache-dir.ts).
 */
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { freshCli } from "../scripts/fresh.mjs";
import { TEST_CACHE_HOME } from "./test-cache-dir.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** the CLI bundle, fresh for this test run (apps/cli/dist/siglab.mjs) */
    siglabBin: string;
  }
}

interface Shared {
  bin: Promise<string>;
  users: number;
}
const KEY = Symbol.for("siglab.test.built-cli");
const G = globalThis as { [KEY]?: Shared };

export default async function setup(project: TestProject): Promise<() => void> {
  const shared = (G[KEY] ??= { bin: freshCli(), users: 0 });
  shared.users++;
  project.provide("siglabBin", await shared.bin);
  return () => {
    if (--shared.users > 0) return;
    rmSync(TEST_CACHE_HOME, { recursive: true, force: true });
    delete G[KEY];
  };
}

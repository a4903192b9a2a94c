/**
 * vitest globalSetup (projects cli and security): builds the installable CLI bundle once per test
 * run, with the package's own build script (apps/cli/scripts/build.mjs), into a fresh folder under
 * apps/cli/dist, and provides its path as `inject("siglabBin")`. Tests that exercise what the CLI
 * does (exit codes, output, its host processes) spawn `node <siglabBin>`: it starts in about a
 * second, where `node --import tsx apps/cli/src/main.ts` transpiles the CLI at every start (about
 * 2.5 s of CPU). It is built from the sources at every run, so it is never stale; the tsx entry
 * (`pnpm siglab`) keeps its own test in built-entry.test.ts.
 *
 * Both projects may run in one vitest process: the build is shared through globalThis (a global
 * setup runs in vitest's main process) and removed when the last project that asked for it ends.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** the CLI bundle built for this test run (apps/cli/dist/test-run-…/siglab.mjs) */
    siglabBin: string;
  }
}

const CLI = join(import.meta.dirname, "..");

interface Shared {
  bin: string;
  users: number;
}
const KEY = Symbol.for("siglab.test.built-cli");
const G = globalThis as { [KEY]?: Shared };

function build(): string {
  // beside dist/siglab.mjs (dist/ is not tracked): typescript and esbuild, outside the bundle,
  // resolve from apps/cli/node_modules as they do for the real one
  mkdirSync(join(CLI, "dist"), { recursive: true });
  const dir = mkdtempSync(join(CLI, "dist", "test-run-"));
  const bin = join(dir, "siglab.mjs");
  const r = spawnSync(process.execPath, [join(CLI, "scripts", "build.mjs"), "--outfile", bin], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) rmSync(dir, { recursive: true, force: true }); // the folder this build made, and only it
  if (r.status !== 0) throw new Error(`building the CLI for the tests (apps/cli/scripts/build.mjs --outfile ${bin}) failed: ${r.error?.message ?? ""}${r.stderr}${r.stdout}`);
  return bin;
}

export default function setup(project: TestProject): () => void {
  const shared = (G[KEY] ??= { bin: build(), users: 0 });
  shared.users++;
  project.provide("siglabBin", shared.bin);
  return () => {
    if (--shared.users > 0) return;
    rmSync(join(shared.bin, ".."), { recursive: true, force: true });
    delete G[KEY];
  };
}

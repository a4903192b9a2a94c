#!/usr/bin/env node
/**
 * `pnpm typecheck`: the workspace's three TypeScript projects checked side by side (each tsc is
 * single-threaded; on a 2-core CI machine two at a time halve the wall time). Each project's output
 * is printed whole, in a fixed order; the exit code is non-zero when any project has errors.
 * Run after `pnpm --filter @siglab/plugin-api build` (the plugin API's declarations).
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const PROJECTS = ["tsconfig.json", "apps/desktop/tsconfig.json", "apps/desktop/tsconfig.node.json"];

function check(project) {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [TSC, "-p", project, "--noEmit"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    c.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    c.stderr.setEncoding("utf8").on("data", (d) => (out += d));
    c.on("error", (e) => resolve({ project, code: 1, out: `${out}${e.message}\n` }));
    c.on("close", (code, signal) => resolve({ project, code: code ?? 1, out: signal ? `${out}tsc was killed by ${signal}\n` : out }));
  });
}

const slots = Math.max(1, Math.min(PROJECTS.length, availableParallelism()));
const results = new Array(PROJECTS.length);
let next = 0;
await Promise.all(
  Array.from({ length: slots }, async () => {
    while (next < PROJECTS.length) {
      const i = next++;
      results[i] = await check(PROJECTS[i]);
    }
  }),
);
let failed = 0;
for (const r of results) {
  if (r.out) process.stdout.write(r.out);
  if (r.code !== 0) {
    failed++;
    console.error(`typecheck: tsc -p ${r.project} failed (exit code ${r.code})`);
  }
}
process.exitCode = failed ? 1 : 0; // not process.exit(): stdout to a pipe may still be flushing

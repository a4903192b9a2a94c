/**
 * Issue 30, finding 6: a bundle has a total budget. A few-KB bundle can declare thousands of
 * runaway runs, each stopped only by the per-run budget; `bundle verify` and `bundle run` stop at
 * the bundle's total (scaled to its declared runs, at most a configured maximum, or
 * --max-total-seconds) with the runs made so far and a clear message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLE_MAX_TOTAL_SECONDS, BUNDLE_SECONDS_PER_RUN, bundleTotalSeconds } from "../packages/core/src/bundle/budget.js";
import { buildEntries, manifestFor, zipEntries } from "../packages/core/src/bundle/write.js";
import { BUILTIN_PROFILE_FILES } from "../packages/cpu-profiles/src/index.js";
import { killStarted, RAW_TRACE, runSiglab } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "siglab-bundle-budget-"));
afterAll(() => {
  killStarted();
  rmSync(dir, { recursive: true, force: true });
});

const SPIN = `import { workload } from "siglab";
export default workload({ name: "spin", params: { spin: 1 }, *main(t, { spin }) { yield* t.getpid(); if (spin) for (;;) {} t.report("done", 1, ""); } });
`;

/** A bundle of `runs` runaway runs (a sweep of spin=1), with no stored results. */
function runawayBundle(runs: number): string {
  const experiment = { workload: { id: "spin", file: "spin.ts", source: SPIN }, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: { spin: 1 }, sweep: { param: "spin", values: Array.from({ length: runs }, () => 1) }, seed: 1 };
  const createdAt = "2026-12-01T00:00:00.000Z";
  const files = buildEntries({ experiment: experiment as never, profiles: BUILTIN_PROFILE_FILES.filter((p) => p.id === "p4-northwood"), plugins: [], results: [], appVersion: "0.1.0", createdAt });
  files.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifestFor(files, "0.1.0", createdAt))));
  const p = join(dir, `runaway-${runs}.siglab`);
  writeFileSync(p, zipEntries(files, createdAt));
  return p;
}

describe("the total budget of a bundle's re-run", () => {
  it("scales with the declared runs, is at least one run's limit and at most the maximum; --max-total-seconds sets it", () => {
    expect(bundleTotalSeconds(1, 120)).toBe(120);
    expect(bundleTotalSeconds(10, 120)).toBe(10 * BUNDLE_SECONDS_PER_RUN);
    expect(bundleTotalSeconds(10_000, 120)).toBe(BUNDLE_MAX_TOTAL_SECONDS);
    expect(bundleTotalSeconds(10_000, 120, 7)).toBe(7);
  });

  it("bundle verify of runaway runs stops at --max-total-seconds with the runs made so far and a clear message", async () => {
    const b = runawayBundle(6);
    const r = await runSiglab(["bundle", "verify", b, "--max-seconds", "3", "--max-total-seconds", "5", "--jobs", "1"], { timeoutMs: 120_000 });
    expect(r.signal).toBeNull();
    expect(r.code, r.err).toBe(1);
    // the first run is stopped by its own budget, the second by what is left of the total; no third starts
    expect(r.out).toMatch(/^run 1\/6 .*: FAILED \(budget: .*stopped after 3 s of host time/m);
    expect(r.out).toMatch(/^run 2\/6 .*: FAILED \(budget: .*stopped when the bundle's total budget of 5 s ran out \(--max-total-seconds\)/m);
    expect(r.out).not.toMatch(/^run 3\/6/m);
    expect(r.out).toMatch(/^stopped: the bundle's total budget of 5 s ran out \(--max-total-seconds sets it\): 1 of 6 runs were made, 5 were not$/m);
    expect(r.out).toMatch(/^DIFFERENT: 1 of the 1 runs made differ from the bundle's results \(1 have no result in the bundle\); 5 of 6 runs were not made \(the total budget ran out\), so the bundle is not verified$/m);
    expect(r.out + r.err).not.toMatch(RAW_TRACE);
    // it ended at its budget (5 s and the start of the CLI), not after 6 runs of 3 s
    expect(r.ms).toBeLessThan(60_000);
  }, 180_000);

  it("bundle run stops the same way (with --jobs 2)", async () => {
    const b = runawayBundle(8);
    const r = await runSiglab(["bundle", "run", b, "--max-seconds", "30", "--max-total-seconds", "3", "--jobs", "2"], { timeoutMs: 120_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^stopped: the bundle's total budget of 3 s ran out \(--max-total-seconds sets it\): 0 of 8 runs were made, 8 were not$/m);
    expect(r.out).not.toMatch(/^run 3\/8/m);
  }, 180_000);
});

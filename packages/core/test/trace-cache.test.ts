/**
 * The P4's trace cache emptied by every entry through the IDT (geometry.l1iClearedByInterrupt):
 * kernel text is fetched again after each int $0x80 and exception on the P4, never on a CPU without
 * the flag, and the flag alone makes the difference.
 */
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import { runWorkload } from "../src/runner/run-workload.js";
import type { RunResult } from "../src/common/results.js";
import { evaluate, pathCount, runSource, transpile } from "./harness.js";

const CALLS = 400;
const getpids = (n: number) => `
import { workload } from "siglab";
export default workload({ name: "getpids", params: {}, *main(t) { for (let i = 0; i < ${n}; i++) yield* t.getpid(); } });`;
const GETPIDS = getpids(CALLS);

const lines = (r: RunResult) => pathCount(r, "icache.l2") + pathCount(r, "icache.memory");
/** kernel code lines fetched again from L2 or memory per getpid (start-up and exit included) */
const refetchedPerCall = (r: RunResult) => lines(r) / CALLS;
/** the same per extra getpid: a run of 2×CALLS minus a run of CALLS (start-up and exit cancel) */
const marginal = (run: (source: string) => RunResult) => (lines(run(getpids(2 * CALLS))) - lines(run(GETPIDS))) / CALLS;

function runWith(file: CpuProfileFile, source = GETPIDS, mhz = 2200): RunResult {
  return runWorkload(
    { workload: { id: "getpids", file: "getpids.ts", source }, cpu: { id: file.id, mhz }, variants: [], params: {}, seed: 1, budget: { maxSteps: 1e7, maxCycles: 1e12 } },
    { profiles: [...BUILTIN_PROFILE_FILES.filter((f) => f.id !== file.id), file], plugins: [], transpile, evaluate },
  );
}

describe("P4 trace cache cleared by IDT entries", () => {
  it("the shipped P4 profile says so, with its source; the other CPUs do not", () => {
    const p4 = BUILTIN_PROFILE_FILES.find((f) => f.id === "p4-northwood")!;
    expect(p4.geometry.l1iClearedByInterrupt?.value).toBe(1);
    expect(p4.geometry.l1iClearedByInterrupt?.source).toMatch(/TN/);
    for (const f of BUILTIN_PROFILE_FILES) if (f.id !== "p4-northwood" && !f.inherits?.startsWith("p4")) expect(f.geometry.l1iClearedByInterrupt?.value ?? 0, f.id).toBe(0);
  });

  it("every int $0x80 on the P4 fetches the syscall path's kernel text again and pays one trace-cache miss per path", () => {
    const r = runSource(GETPIDS, { cpu: "p4-northwood", mhz: 2200 }, "getpids.ts");
    expect(r.error).toBeUndefined();
    // system_call, sys_getpid and ret_from_sys_call/restore_all: several lines each, every call
    expect(refetchedPerCall(r)).toBeGreaterThan(3);
    // one deliver-mode miss per kernel path that missed, not per line
    const misses = pathCount(r, "icache.decode") / CALLS;
    expect(misses).toBeGreaterThanOrEqual(2);
    expect(misses).toBeLessThan(refetchedPerCall(r));
  });

  it("a PIII keeps its kernel text in L1I across system calls", () => {
    expect(marginal((s) => runSource(s, { cpu: "p6-coppermine", mhz: 1000 }, "getpids.ts"))).toBeLessThan(0.05);
  });

  it("a CPU with an exclusive L2 (the K7's) given the flag walks its caches after each flush (the replay refuses an exclusive L2)", () => {
    const k7 = structuredClone(BUILTIN_PROFILE_FILES.find((f) => f.id === "k7-palomino")!);
    expect(k7.geometry.l2Exclusive?.value).toBe(1);
    (k7.geometry as Record<string, unknown>)["l1iClearedByInterrupt"] = { value: 1, kind: "estimated", source: "test" };
    const r = runWith(k7, GETPIDS, 1400);
    expect(r.error).toBeUndefined();
    expect(refetchedPerCall(r)).toBeGreaterThan(3);
  });

  it("the flag alone: the same P4 profile without it keeps the text resident and is cheaper per call", () => {
    const p4 = structuredClone(BUILTIN_PROFILE_FILES.find((f) => f.id === "p4-northwood")!);
    const with_ = runWith(p4);
    delete (p4.geometry as Record<string, unknown>)["l1iClearedByInterrupt"];
    const without = runWith(p4);
    expect(refetchedPerCall(with_)).toBeGreaterThan(3);
    expect(marginal((s) => runWith(p4, s))).toBeLessThan(0.05);
    expect((with_.phases["cache.code"] ?? 0) / CALLS).toBeGreaterThan(50);
    expect(without.totalCycles).toBeLessThan(with_.totalCycles);
  });
});

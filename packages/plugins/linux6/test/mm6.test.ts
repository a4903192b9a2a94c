/**
 * linux6's 6.x mprotect and SIGSEGV fault paths (src/mm.ts): under linux-6, gc_barrier (the
 * SIGSEGV + mprotect write barrier) runs do_mprotect_pkey's maple-tree VMA code, mprotect_fixup
 * with vma_merge / __split_vma, change_pte_range's ptep_modify_prot_start/commit,
 * flush_tlb_mm_range's partial flush and do_user_addr_fault's bad_area_access_error ->
 * force_sig_fault in place of the core's 2.4 paths; the mechanism (VMAs split and merged, PTEs
 * changed, TLB flushes, faults, signals) is the core's and stays.
 *
 * "Before" is linux6 with the core's 2.4 definitions put back on the same paths (a test-only
 * wrapper adds one more transform per path), i.e. linux6 as it was before src/mm.ts.
 */
import { describe, expect, it } from "vitest";
import { type OpLine, type RunResult } from "@siglab/plugin-api";
import { runExample, metric, pathCount } from "../../../core/test/harness.js";
import { getBuiltinProfile } from "../../../cpu-profiles/src/builtin.js";
import { resolveProfile } from "../../../cpu-profiles/src/resolve.js";
import linux6 from "../src/index.js";
import { coreDef, linux6WithCoreDefs } from "./core-defs.js";
import { resolveMitigations } from "../src/mitigations.js";
import { MM_PATH_NAMES, mmOps, withMmReturnThunk, type MmPathName } from "../src/mm.js";

const MHZ: Record<string, number> = { skylake: 3600, zen4: 4500 };
const ITER = 400; // short enough that no timer tick lands in the run (checked below)

/** linux6 as it was before: the core's definitions back on every path mm.ts replaces */
const linux6Before = linux6WithCoreDefs(MM_PATH_NAMES);

const run = (cpu: string, before: boolean): RunResult =>
  runExample("gc_barrier", { cpu, mhz: MHZ[cpu], params: { iterations: ITER, pages: 4 }, plugins: [before ? linux6Before : linux6], variants: [{ id: "linux6" }] });

/** the profile as the run resolves it, and the 6.x ops of each path as linux6 builds them for that CPU */
function expected(cpu: string) {
  const resolved = resolveProfile(getBuiltinProfile(cpu)!, MHZ[cpu]!);
  const costs = resolved.costs as Record<string, number>;
  const m = resolveMitigations({}, resolved);
  const ops = mmOps(m);
  const cost = (l: readonly OpLine[]) => l.reduce((s, o) => s + costs[o.op]! * (o.n ?? 1), 0);
  const nu = (name: MmPathName) => cost(withMmReturnThunk(m, ops[name]));
  const old = (name: MmPathName) => cost(coreDef(name).ops);
  return { m, ops, nu, old };
}
const runCycles = (r: RunResult, name: string) => r.paths.find((p) => p.name === name)!.ops.reduce((s, o) => s + o.cycles, 0);

/** notes and function names only 2.4's paths have */
const I386_ONLY = /mmap_sem|find_vma_prev|__vma_unlink|__vma_link|mprotect_fixup_start|mprotect_fixup_all|find_vma_prepare|lock_vma_mappings|__insert_vm_struct|pgtable-2level|%cr3|SLAB_KERNEL|force_sig_info\b|rb_erase|tsk->thread\.cr2 = address; error_code/;

const COUNTERS = ["faults.page", "syscalls.mprotect", "tlb.flushes", "tlb.page_flushes", "tlb.misses", "signals.sent", "signals.delivered", "mm.vma_merges", "mm.mprotect_fixup.all", "mm.mprotect_fixup.all_merged", "mm.mprotect_fixup.start", "mm.mprotect_fixup.end", "mm.mprotect_fixup.middle"];

for (const cpu of ["skylake", "zen4"]) {
  describe(`linux6 on ${cpu}: 6.x's mprotect and SIGSEGV fault paths`, () => {
    const after = run(cpu, false);
    const before = run(cpu, true);

    it("gc_barrier runs the 6.x paths: linux6's, named after 6.x's functions, nothing of 2.4's mm code left", () => {
      expect(after.error).toBeUndefined();
      const fns = new Set<string>();
      for (const name of MM_PATH_NAMES) {
        const p = after.paths.find((x) => x.name === name);
        if (name === "mprotect_fixup_start.merge") {
          expect(p, name).toBeUndefined(); // gc_barrier never merges the head of a VMA into prev
          continue;
        }
        expect(p, name).toBeDefined();
        expect(p!.origin, name).toBe("linux6");
        for (const o of p!.ops) {
          fns.add(o.fn);
          expect(`${o.fn} ${o.note ?? ""}`, name).not.toMatch(I386_ONLY);
        }
      }
      for (const fn of ["do_mprotect_pkey", "__down_write_trylock", "vma_find", "mtree_range_walk", "vma_prev", "__tlb_gather_mmu", "security_file_mprotect", "vma_merge", "__split_vma", "vm_area_dup", "anon_vma_clone", "vma_iter_store", "vma_complete", "vma_start_write", "vm_stat_account", "perf_event_mmap", "change_protection_range", "pte_offset_map_lock", "ptep_modify_prot_start", "ptep_modify_prot_commit", "flush_tlb_mm_range", "flush_tlb_func", "flush_tlb_one_user", "tlb_finish_mmu", "__up_write", "bad_area_access_error", "__bad_area_nosemaphore", "force_sig_fault"]) {
        expect(fns.has(fn), fn).toBe(true);
      }
      // no core-origin path of mm.ts is left in the run (the mmap is not mprotect's), but the exit's:
      // linux6 has no 6.x exit, so the core's 2.4 exit_mmap zaps the PTEs (every zap_pte_range is the exit's)
      const coreMm = after.paths.filter((p) => p.origin === "core" && (p.phase === "mm.mprotect" || p.name === "bad_area"));
      expect(coreMm.map((p) => p.name)).toEqual(["zap_pte_range", "__free_pages_ok"]);
      expect(pathCount(after, "zap_pte_range")).toBe(after.counters["mm.exit.ptes"]);
      expect(pathCount(after, "__free_pages_ok")).toBe(after.counters["mm.exit.freed"]);
      // and the "before" run really is the core's
      expect(before.paths.find((p) => p.name === "flush_tlb_range")!.ops.some((o) => o.op === "mov_cr3")).toBe(true);
      expect(after.paths.find((p) => p.name === "flush_tlb_range")!.ops.some((o) => o.op === "mov_cr3")).toBe(false);
    });

    it("the mechanism is unchanged: the same faults, mprotect calls, VMA fix-ups, TLB flushes and misses, signals", () => {
      expect(before.error).toBeUndefined();
      for (const c of COUNTERS) expect(after.counters[c], c).toBe(before.counters[c]);
      expect(after.counters["faults.page"]).toBe(ITER);
      expect(after.counters["syscalls.mprotect"]).toBe(2 * ITER);
      // flush_tlb_mm_range's partial flush: one INVLPG eviction per mprotect, no full flush
      // (tlb-range6.test.ts) but the exit's flush_tlb_mm (exit_mmap)
      expect(after.counters["tlb.page_flushes"]).toBe(2 * ITER);
      expect(after.counters["tlb.flushes"]).toBe(1);
      for (const name of MM_PATH_NAMES) expect(pathCount(after, name), name).toBe(pathCount(before, name));
      // no tick in either run: the windows hold the same work but for the replaced paths
      expect(after.counters["irq.timer"]).toBeUndefined();
      expect(before.counters["irq.timer"]).toBeUndefined();
    });

    it("each replaced path costs its 6.x ops on the profile, and the barrier moves by exactly the sum of the differences", () => {
      const { m, ops, nu, old } = expected(cpu);
      expect(after.counters["linux6.mitigation.retbleedUntrain"] === 1).toBe(m.retbleedUntrain);
      // PTI (skylake) adds the user PCID's invalidation to every page
      expect(ops.change_pte_range.filter((l) => l.op === "invlpg").length).toBe(m.pti ? 2 : 1);
      let delta = 0;
      for (const name of MM_PATH_NAMES) {
        const n = pathCount(after, name);
        if (!n) continue;
        expect(runCycles(after, name), name).toBeCloseTo(nu(name), 6);
        expect(runCycles(before, name), name).toBeCloseTo(old(name), 6);
        delta += n * (nu(name) - old(name));
      }
      expect(delta).toBeGreaterThan(0);
      // every replaced path runs inside the timed windows (the re-protect mprotect; the store's
      // fault and the handler's mprotect): trap + re-protect per iteration moves by delta / ITER
      const per = (r: RunResult) => metric(r, "barrier trap cycles") + metric(r, "re-protect");
      expect(per(after) - per(before)).toBeCloseTo(delta / ITER, 6);
      expect(after.totalCycles - before.totalCycles).toBeCloseTo(delta, 3);
    });
  });
}

describe("without linux6 the core's 2.4 mm paths run, as before", () => {
  it("gc_barrier on the 2.4 baseline", () => {
    const base = runExample("gc_barrier", { cpu: "p4-northwood", mhz: 2200, params: { iterations: 50, pages: 4 } });
    expect(base.error).toBeUndefined();
    for (const name of MM_PATH_NAMES) {
      const p = base.paths.find((x) => x.name === name);
      if (p) expect(p.origin, name).toBe("core");
    }
    expect(base.paths.find((p) => p.name === "flush_tlb_range")!.ops.some((o) => o.op === "mov_cr3")).toBe(true);
  });
});

/**
 * fork's copy-on-write and exit's teardown (2.4: mm/memory.c copy_page_range, do_wp_page,
 * zap_page_range; mm/mmap.c exit_mmap; kernel/exit.c do_exit, release_task) and the lat_proc
 * example built on them.
 */
import { describe, expect, it } from "vitest";
import { metric, pathCount, runExample, runSource } from "./harness.js";

const W = (body: string) => `import { workload, PROT_READ, PROT_WRITE } from "siglab";
export default workload({ name: "t", params: {}, *main(t) { ${body} } });`;
const P4 = { cpu: "p4-northwood", mhz: 2200 };

describe("copy-on-write after fork", () => {
  it("a write by the parent or the child takes one COW fault per shared page it writes; the second write none", () => {
    // 4 pages written before the fork (present, private); after it each side writes each page twice
    const r = runSource(W(`
      const a = yield* t.mmap(4 * 4096, PROT_READ | PROT_WRITE);
      for (let p = 0; p < 4; p++) yield* t.store(a + p * 4096, 1);
      const pid = yield* t.fork(function* (c) {
        for (let p = 0; p < 2; p++) { yield* c.store(a + p * 4096, 2); yield* c.store(a + p * 4096 + 8, 3); }
        yield* c.exit(0);
      });
      yield* t.store(a + 3 * 4096, 4);
      yield* t.store(a + 3 * 4096 + 8, 5);
      yield* t.waitpid(pid, 0);`), P4);
    expect(r.error).toBeUndefined();
    // the fork's own stack writes: the first writer of the shared stack page copies it, the
    // second finds it its own (reuse); then the child's 2 pages and the parent's 1: copies
    expect(r.counters["mm.cow.copy"]).toBe(1 + 2 + 1);
    expect(r.counters["mm.cow.reuse"]).toBe(1);
    expect(r.counters["faults.page"]).toBe(5);
    expect(pathCount(r, "do_wp_page")).toBe(5);
    expect(pathCount(r, "copy.cow_page")).toBe(4 * (4096 / 64)); // 64-byte lines on the P4
    expect(pathCount(r, "bad_area")).toBe(0);
  });

  it("a page whose other user has exited is reused without a copy", () => {
    const r = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
      yield* t.store(a, 1);
      const pid = yield* t.fork(function* (c) { yield* c.exit(0); });
      yield* t.waitpid(pid, 0); // the child is gone: its reference to the page went with exit_mmap
      yield* t.store(a, 2);`), P4);
    expect(r.error).toBeUndefined();
    // the data page: one fault, a reuse (no alloc_page, no copy)
    expect(r.counters["mm.cow.reuse"]).toBeGreaterThanOrEqual(1);
    const copies = r.counters["mm.cow.copy"] ?? 0;
    expect(pathCount(r, "copy.cow_page")).toBe(copies * 64);
    // the stack page is the only one that can have been copied (both wrote it after the fork)
    expect(copies).toBeLessThanOrEqual(1);
    const noFork = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
      yield* t.store(a, 1);
      yield* t.store(a, 2);`), P4);
    expect(noFork.counters["faults.page"] ?? 0).toBe(0);
  });

  it("a write to a page mapped read-only is still a SIGSEGV, not a COW fault", () => {
    const r = runSource(W(`
      const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
      yield* t.store(a, 1);
      const pid = yield* t.fork(function* (c) { yield* c.exit(0); });
      yield* t.waitpid(pid, 0);
      yield* t.mprotect(a, 4096, PROT_READ);
      let segv = 0;
      yield* t.sigaction(11, function* (h) { segv++; yield* h.mprotect(a, 4096, PROT_READ | PROT_WRITE); });
      yield* t.store(a, 2);
      if (segv !== 1) throw new Error("segv " + segv);`), P4);
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "bad_area")).toBe(1);
  });
});

describe("exit's teardown", () => {
  const child = (pages: number) => runSource(W(`
      const a = yield* t.mmap(${pages} * 4096, PROT_READ | PROT_WRITE);
      const pid = yield* t.fork(function* (c) { yield* c.exit(0); });
      yield* t.waitpid(pid, 0);
      t.report("exit", 1, "us");`), P4);

  it("zaps every PTE of the mm (zap_pte_range per page), frees the page tables and reaps with release_task", () => {
    const a = child(1), b = child(65);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    // the child's exit and the parent's: 16 text + 32 stack + the mapping, each
    expect(a.counters["mm.exit.ptes"]).toBe(2 * (48 + 1));
    expect(b.counters["mm.exit.ptes"]).toBe(2 * (48 + 65));
    expect(pathCount(b, "zap_pte_range") - pathCount(a, "zap_pte_range")).toBe(2 * 64);
    expect(pathCount(a, "clear_page_tables")).toBe(2);
    expect(pathCount(a, "release_task")).toBe(1);
    expect(pathCount(a, "__mmdrop")).toBe(2);
    // the exit's cost grows with the mapped pages: the syscall.body of both exits and the fork
    expect(b.phases["mm.mprotect"]!).toBeGreaterThan(a.phases["mm.mprotect"]!);
    expect(b.totalCycles).toBeGreaterThan(a.totalCycles);
  });

  it("a thread's exit leaves the shared mm alone; the last user tears it down", () => {
    const r = runSource(W(`
      yield* t.clone(function* (c) { yield* c.exit(0); });
      yield* t.wait();`), P4);
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "exit_mm")).toBe(2);
    expect(pathCount(r, "exit_mmap")).toBe(1);
  });
});

describe("lat_proc fork (lmbench's Process fork+exit)", () => {
  it.each([["p4-northwood", 2200], ["skylake", 3600]] as const)("runs on %s: 2 COW copies and 1 reuse per iteration; the figure moves with the pages fork copies and exit zaps", (cpu, mhz) => {
    const small = runExample("lat_proc", { cpu, mhz, params: { iterations: 50, data_pages: 1 } });
    const big = runExample("lat_proc", { cpu, mhz, params: { iterations: 50, data_pages: 64 } });
    expect(small.error).toBeUndefined();
    expect(big.error).toBeUndefined();
    // 8 untimed + 50 timed iterations: the parent's stack and child_pid pages are copied, the
    // child's stack page reused (or the other way round: which side writes first)
    expect(small.counters["mm.cow.copy"]).toBe(2 * 58);
    expect(small.counters["mm.cow.reuse"]).toBe(58);
    const s = metric(small, "Process fork+exit"), b = metric(big, "Process fork+exit");
    expect(s).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(s);
  });
});

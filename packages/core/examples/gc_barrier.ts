// Jamie Lokier's GC write barrier (Aug 2002): the collector write-protects a page; the mutator's
// store faults (#PF -> SIGSEGV); the handler records the page as dirty and makes it writable with
// mprotect (a TLB flush); sigreturn; the store is retried and succeeds. Then the collector
// re-protects the page to catch the next write.
import { workload, SIGSEGV, SA_SIGINFO, PROT_READ, PROT_WRITE } from "siglab";

export default workload({
  name: "GC write barrier",
  description: "write to a protected page -> SIGSEGV -> handler mprotect(RW) -> retry; then re-protect",
  params: { iterations: 5_000, pages: 4 },
  *main(t, { iterations, pages }) {
    const heap = yield* t.mmap(pages * 4096, PROT_READ | PROT_WRITE);
    let dirty = 0;
    yield* t.sigaction(
      SIGSEGV,
      function* (h) {
        const addr = h.info?.addr ?? 0;
        const page = addr - (addr % 4096);
        dirty++;
        yield* h.mprotect(page, 4096, PROT_READ | PROT_WRITE);
      },
      { flags: SA_SIGINFO },
    );
    let trap = 0;
    let reprotect = 0;
    for (let i = 0; i < iterations; i++) {
      const page = heap + (i % pages) * 4096;
      const a = t.rdtsc();
      yield* t.mprotect(page, 4096, PROT_READ); // the collector starts watching this page
      const b = t.rdtsc();
      yield* t.store(page + 8, i); // the mutator's write: traps once
      trap += t.rdtsc() - b;
      reprotect += b - a;
    }
    if (dirty !== iterations) throw new Error(`expected ${iterations} barrier traps, saw ${dirty}`);
    t.report("barrier trap", trap / iterations / t.mhz, "us");
    t.report("barrier trap cycles", trap / iterations, "cycles");
    t.report("re-protect", reprotect / iterations, "cycles");
  },
});

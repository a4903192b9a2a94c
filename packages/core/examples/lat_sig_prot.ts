// lat_sig prot: a protection fault delivered as SIGSEGV (lmbench "Protection fault"): write to a
// read-only page, the handler makes it writable, the write is retried.
import { workload, SIGSEGV, SA_SIGINFO, PROT_READ, PROT_WRITE } from "siglab";

export default workload({
  name: "lat_sig prot",
  description: "write to a read-only page -> #PF -> SIGSEGV -> handler mprotect(RW) -> retry",
  params: { iterations: 5_000 },
  *main(t, { iterations }) {
    const page = yield* t.mmap(4096, PROT_READ);
    yield* t.sigaction(
      SIGSEGV,
      function* (h) {
        yield* h.mprotect(page, 4096, PROT_READ | PROT_WRITE);
      },
      { flags: SA_SIGINFO },
    );
    let faults = 0;
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      const before = t.rdtsc();
      yield* t.store(page, i);
      faults += t.rdtsc() - before;
      yield* t.mprotect(page, 4096, PROT_READ);
    }
    const total = (t.rdtsc() - start) / iterations;
    t.report("protection fault", faults / iterations / t.mhz, "us");
    t.report("fault + re-protect", total, "cycles");
  },
});

// getpid_cache: getpid() answered from a pid page the kernel keeps (the getpid-cache plugin)
// against the real system call, and what a forked child reads from its copy of the page.
import { workload, PROT_READ, PROT_WRITE } from "siglab";

/** the plugin's set_pid_page system call (slot 253 of the i386 table) */
const NR_set_pid_page = 253;

export default workload({
  name: "getpid through a pid page",
  description: "libc registers a pid page with set_pid_page and answers getpid with one load; without the plugin the call fails with ENOSYS and getpid stays a system call. A forked child then compares the page with the real getpid.",
  params: { iterations: 20_000, libcCycles: 4 },
  *main(t, { iterations, libcCycles }) {
    const page = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
    const registered = (yield* t.syscall(NR_set_pid_page, page)) === 0;

    // glibc-style getpid: the page when the kernel keeps one, else int $0x80
    function* getpid(th: typeof t) {
      if (!registered) return yield* th.getpid();
      yield* th.compute(libcCycles); // call getpid; test the page pointer; ret
      return yield* th.load(page);
    }

    let pid = yield* getpid(t); // warm up
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) {
      pid = yield* getpid(t);
      if ((i & 0x3fff) === 0) t.progress(i / iterations);
    }
    const cycles = (t.rdtsc() - start) / iterations;
    t.report("getpid", cycles, "cycles");
    t.report("pid page registered", registered ? 1 : 0, "bool");
    t.report("parent getpid right", pid === t.pid ? 1 : 0, "bool");

    // fork: the child's address space is a copy, page included
    yield* t.fork(function* (c) {
      const answer = yield* getpid(c);
      const real = yield* c.getpid();
      c.report("child getpid right", answer === real ? 1 : 0, "bool");
      return 0;
    });
    yield* t.wait();
  },
});

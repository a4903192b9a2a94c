// Richard Seaman's NGPT vs LinuxThreads test (pthreads-users, Apr 2002): 10 threads started
// together, each doing N sched_yield(). With LinuxThreads every yield is a syscall and a kernel
// context switch; with NGPT (plugin) a user-level switch that makes 7 syscalls.
import { workload } from "siglab";

export default workload({
  name: "NGPT yield test",
  description: "10 threads x N pthread yields",
  params: { threads: 10, yields: 10_000 },
  *main(t, { threads, yields }) {
    const start = t.rdtsc();
    const handles = [];
    for (let i = 0; i < threads; i++) {
      handles.push(
        yield* t.pthread.create(function* (th) {
          for (let j = 0; j < yields; j++) yield* th.pthread.yield();
        }),
      );
    }
    for (const h of handles) yield* t.pthread.join(h);
    const cycles = t.rdtsc() - start;
    t.report("wall time", cycles / t.mhz / 1e6, "s");
    t.report("per yield", cycles / (threads * yields), "cycles");
  },
});

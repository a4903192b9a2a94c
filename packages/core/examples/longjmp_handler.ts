// A handler that leaves with siglongjmp instead of returning: the kernel never sees the sigreturn.
// Between the jumps, ordinary signal round trips check that the FPU state stays intact.
import { workload, SIGUSR1, SIGUSR2 } from "siglab";

export default workload({
  name: "longjmp out of a handler",
  description: "SIGUSR1's handler uses the FPU and siglongjmps out; SIGUSR2 round trips check transparency",
  params: { iterations: 200 },
  *main(t, { iterations }) {
    const pid = yield* t.getpid();
    let jb: any = null;
    yield* t.sigaction(SIGUSR1, function* (h) {
      yield* h.fpu.set("xmm1", [7, 7, 7, 7]); // the handler's own FP work
      h.longjmp(jb, 1);
    });
    yield* t.sigaction(SIGUSR2, function* () {});
    let jumps = 0;
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("xmm0", [i, i + 1, i + 2, i + 3]);
      const r = yield* t.setjmp(function* (b) {
        jb = b;
        yield* t.kill(pid, SIGUSR1);
        return 0;
      }, true);
      if (r.jumped) jumps++;
      // a normal delivery with live FP state: must be transparent
      yield* t.fpu.set("xmm2", [1, 2, 3, 4]);
      yield* t.kill(pid, SIGUSR2);
      const x2 = yield* t.fpu.get("xmm2");
      if (x2.join() !== "1,2,3,4") throw new Error(`xmm2 corrupted: ${x2}`);
    }
    t.report("longjmps", jumps, "count");
  },
});

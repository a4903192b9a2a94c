// A SIGFPE handler that repairs the FP state through the signal frame — the usage Linus cited
// against lazy FP saving: "People who play games with FP actually change the FP data on the stack
// frame, and depend on signal return to reload it ... done with integer instructions".
// (The FP exception is raised with kill(); the simulator does not model #MF.)
import { workload, SIGFPE } from "siglab";

export default workload({
  name: "SIGFPE fix-up",
  description: "handler edits st0 and the control word in the frame's _fpstate; sigreturn must load them",
  params: { iterations: 200 },
  *main(t, { iterations }) {
    let fixed = 0;
    yield* t.sigaction(SIGFPE, function* (h) {
      const fp = h.frame.fpstate;
      if (fp) {
        fp.st[0] = 42; // integer stores into the saved image
        fp.cw = 0x037f;
        fixed++;
      }
    });
    const pid = yield* t.getpid();
    let good = 0;
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("st0", Number.NaN); // the faulting computation left a NaN
      yield* t.kill(pid, SIGFPE);
      const [st0] = yield* t.fpu.get("st0");
      if (st0 === 42) good++;
    }
    t.report("fix-ups applied", good, "count");
    t.report("handler saw an FP image", fixed, "count");
  },
});

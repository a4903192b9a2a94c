/** Test-local workloads for the lazy FP frame hazards. */

/**
 * The outer handler uses the FPU, then a nested signal arrives whose handler siglongjmps back into
 * the outer handler (to a sigsetjmp taken there) without touching the FPU. The kernel never sees
 * the inner sigreturn, so the inner delivery's record stays on the lazy stack; the outer handler's
 * sigreturn then acts on it. The main loop's xmm0 must survive every round trip (it does on 2.4).
 */
export const NESTED_LONGJMP = `
import { workload, SIGUSR1, SIGUSR2 } from "siglab";
export default workload({
  name: "siglongjmp from a nested handler back into the outer one",
  params: { iterations: 100 },
  *main(t, { iterations }) {
    const pid = yield* t.getpid();
    let jb: any = null;
    yield* t.sigaction(SIGUSR2, function* (h) { h.longjmp(jb, 1); });
    yield* t.sigaction(SIGUSR1, function* (h) {
      yield* h.fpu.set("xmm1", [9, 9, 9, 9]); // the outer handler's own FP work
      yield* h.setjmp(function* (b) {
        jb = b;
        yield* h.kill(pid, SIGUSR2); // delivered inside this handler; it jumps back here
        return 0;
      }, true);
    });
    let intact = 0;
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("xmm0", [i, i + 1, i + 2, i + 3]);
      yield* t.kill(pid, SIGUSR1);
      const x = yield* t.fpu.get("xmm0");
      if (x.join() === [i, i + 1, i + 2, i + 3].join()) intact++;
    }
    t.report("xmm0 intact", intact, "count");
    return 0;
  },
});`;

/** Plain nesting (no longjmp): both handlers use the FPU; every level must be transparent. */
export const NESTED = `
import { workload, SIGUSR1, SIGUSR2 } from "siglab";
export default workload({
  name: "nested handlers using the FPU",
  params: { iterations: 100 },
  *main(t, { iterations }) {
    const pid = yield* t.getpid();
    yield* t.sigaction(SIGUSR2, function* (h) { yield* h.fpu.set("xmm2", [5, 5, 5, 5]); });
    yield* t.sigaction(SIGUSR1, function* (h) {
      yield* h.fpu.set("xmm1", [7, 7, 7, 7]);
      yield* h.kill(pid, SIGUSR2); // nested, after this handler used the FPU
      const x = yield* h.fpu.get("xmm1");
      if (x.join() !== "7,7,7,7") throw new Error("outer handler lost xmm1: " + x);
    });
    let intact = 0;
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("xmm0", [i, 1, 2, 3]);
      yield* t.kill(pid, SIGUSR1);
      const x = yield* t.fpu.get("xmm0");
      if (x.join() === [i, 1, 2, 3].join()) intact++;
    }
    t.report("xmm0 intact", intact, "count");
    return 0;
  },
});`;

/**
 * The handler yields to another task that uses the FPU, before and after touching the FPU itself:
 * the parked state must survive the lazy context switch (unlazy_fpu saves it to thread.i387).
 */
export const SWITCH_IN_HANDLER = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "a context switch inside the handler",
  params: { iterations: 50 },
  *main(t, { iterations }) {
    const pid = yield* t.getpid();
    let done = false;
    const child = yield* t.clone(function* (c) {
      let n = 0;
      while (!done) { yield* c.fpu.set("xmm0", [n, n, n, n]); n++; yield* c.sched_yield(); }
      return 0;
    });
    yield* t.sigaction(SIGUSR1, function* (h) {
      yield* h.sched_yield(); // the other task runs and uses the FPU while our state is parked
      yield* h.fpu.set("xmm3", [3, 3, 3, 3]);
      yield* h.sched_yield();
    });
    let intact = 0;
    for (let i = 0; i < iterations; i++) {
      yield* t.fpu.set("xmm0", [i, 2, 4, 6]);
      yield* t.kill(pid, SIGUSR1);
      const x = yield* t.fpu.get("xmm0");
      if (x.join() === [i, 2, 4, 6].join()) intact++;
    }
    done = true;
    yield* t.sched_yield();
    t.report("xmm0 intact", intact, "count");
    return 0;
  },
});`;

/** Test-local workloads and a test-local "device" that raises signals from interrupts. */

/**
 * A task that makes a syscall, then computes a jittered while, in a loop; a second task sleeps one
 * tick at a time, so nearly every timer interrupt wakes it and asks the first task to reschedule.
 * The jitter (a workload-local LCG, deterministic) keeps the loop from resonating with the tick.
 */
export const TIMER_WAKEUPS = `
import { workload } from "siglab";
export default workload({
  name: "syscalls under a fast timer",
  params: { iterations: 20000, sleeps: 1000, work: 1500 },
  hz: 10000,
  *main(t, { iterations, sleeps, work }) {
    yield* t.compute((3 * t.mhz * 1e6) / 10000); // use up 3 ticks: the sleeper then outranks us
    yield* t.fork(function* (c) {
      for (let i = 0; i < sleeps; i++) yield* c.nanosleep(1);
      return 0;
    });
    yield* t.sched_yield(); // let the sleeper go to sleep first
    let x = 12345;
    for (let i = 0; i < iterations; i++) {
      yield* t.getpid();
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      yield* t.compute(work + (x % 1000));
    }
    yield* t.wait();
    return 0;
  },
});`;

/** getpid + user work in a loop with a SIGUSR1 handler; the signals come from the irq-signal device. */
export const IRQ_SIGNALS = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "signals from a device interrupt",
  params: { iterations: 20000, work: 1500 },
  *main(t, { iterations, work }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* () { caught++; });
    let x = 777;
    for (let i = 0; i < iterations; i++) {
      yield* t.getpid();
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      yield* t.compute(work + (x % 1000));
    }
    t.report("caught", caught, "count");
    return 0;
  },
});`;

export { irqSignalDevice } from "../../../core/test/irq-signal-device.js";

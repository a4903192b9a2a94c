/** Test-local workloads, and a test-local device whose interrupt raises signals. */

/**
 * User code holding values in ecx/edx/ebp/esi while it computes; SIGUSR1 arrives from a device
 * interrupt at a random instruction, so the interrupted context is not at SYSENTER_RETURN.
 */
export const ASYNC_SIGNALS = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "signals interrupting user code",
  params: { iterations: 2000 },
  *main(t, { iterations }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { caught++; yield* h.compute(200); });
    for (let i = 0; i < iterations; i++) {
      t.regs.set("ecx", 0x1000 + i);
      t.regs.set("edx", 0x2000 + i);
      t.regs.set("ebp", 0x3000 + i);
      t.regs.set("esi", 0x4000 + i);
      yield* t.compute(3000);
      yield* t.getpid();
    }
    t.report("caught", caught, "count");
    return 0;
  },
});`;

/** kill(getpid()) in a loop; the handler leaves a different value in esi (an assembly handler). */
export const SYNC_SIGNALS = `
import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "kill(getpid()) with a handler that uses esi",
  params: { iterations: 300 },
  *main(t, { iterations }) {
    let caught = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { caught++; h.regs.set("esi", 0xbad); });
    const pid = yield* t.getpid();
    t.regs.set("esi", 0x600d);
    for (let i = 0; i < iterations; i++) yield* t.kill(pid, SIGUSR1);
    t.report("caught", caught, "count");
    t.report("esi after the loop", t.regs.get("esi"), "value");
    return 0;
  },
});`;

export { irqSignalDevice } from "../../../core/test/irq-signal-device.js";

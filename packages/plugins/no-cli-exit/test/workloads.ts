/** Test-local workloads and a test-local "device" that raises signals from interrupts. */
import { ContainerModule } from "inversify";
import { signal, TOKENS, validateManifest, type Kernel, type KernelSetupContribution, type LoadedPlugin } from "@siglab/core";

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

const SIGUSR1 = 10;

/**
 * A device whose completion interrupt sends SIGUSR1 to pid 1 (like kill_fasync from a driver),
 * at intervals drawn from the kernel's seeded PRNG.
 */
export const irqSignalDevice: LoadedPlugin = {
  manifest: validateManifest(
    {
      id: "test-irq-signal",
      version: "1.0.0",
      apiVersion: "1.0",
      displayName: "test: signals from a device interrupt",
      description: "test-local device that sends SIGUSR1 to pid 1 from its interrupt handler",
      options: { meanCycles: { type: "number", default: 20000, description: "mean cycles between interrupts" } },
      contributes: ["KernelSetupContribution"],
    },
    "no-cli-exit/test/workloads.ts",
  ),
  builtin: false,
  module: (options) =>
    new ContainerModule(({ bind }) => {
      const mean = Number(options["meanCycles"]);
      const setup: KernelSetupContribution = {
        setup(k: Kernel) {
          const arm = () => k.scheduleEvent(k.cycles + Math.round(mean * (0.5 + k.random())), "device", fire);
          const fire = () => {
            const t = k.tasks.get(1);
            if (!t || t.state === "zombie" || t.state === "dead") return;
            signal.send_sig_info(k, SIGUSR1, { signo: SIGUSR1, errno: 0, code: 0 }, t);
            arm();
          };
          arm();
        },
      };
      bind<KernelSetupContribution>(TOKENS.KernelSetupContribution).toConstantValue(setup);
    }),
};

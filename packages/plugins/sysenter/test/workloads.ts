/** Test-local workloads, and a test-local device whose interrupt raises signals. */
import { ContainerModule } from "inversify";
import { signal, TOKENS, validateManifest, type Kernel, type KernelSetupContribution, type LoadedPlugin } from "@siglab/core";

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

const SIGUSR1 = 10;

/** A device whose interrupt sends SIGUSR1 to pid 1 at seeded random intervals. */
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
    "sysenter/test/workloads.ts",
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

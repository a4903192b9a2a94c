/**
 * A test-only device whose completion interrupt sends SIGUSR1 to pid 1 (like kill_fasync from a
 * driver) at intervals drawn from the kernel's seeded PRNG: signals that land at arbitrary op
 * boundaries, for the plugins' race tests (no-cli-exit, sysenter).
 */
import { ContainerModule } from "inversify";
import { signal, TOKENS, validateManifest, type Kernel, type KernelSetupContribution, type LoadedPlugin } from "../src/index.js";

const SIGUSR1 = 10;

export const irqSignalDevice: LoadedPlugin = {
  manifest: validateManifest(
    {
      id: "test-irq-signal",
      version: "1.0.0",
      apiVersion: "2.0",
      displayName: "test: signals from a device interrupt",
      description: "test-local device that sends SIGUSR1 to pid 1 from its interrupt handler",
      options: { meanCycles: { type: "number", default: 20000, description: "mean cycles between interrupts" } },
      contributes: ["KernelSetupContribution"],
    },
    "packages/core/test/irq-signal-device.ts",
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
